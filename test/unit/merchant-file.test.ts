// The file of `merchants files upload` (and of the MCP server's uploadMerchantFile), read once it
// has been checked: the read itself refuses anything but a regular file of at most 10 MB, so a
// path swapped after the check (a FIFO, a device, stdin) is never read until it ends.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { readMerchantFile } from '../../src/cli/flags/merchants.js'
import { UsageError } from '../../src/cli/errors/index.js'

const dir = mkdtempSync(join(tmpdir(), 'payfac-merchant-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('readMerchantFile', () => {
  it('reads a PDF, through a link too', async () => {
    const pdf = join(dir, 'licence.pdf')
    writeFileSync(pdf, '%PDF-1.4\n%%EOF\n')
    symlinkSync(pdf, join(dir, 'link.pdf'))
    const read = await readMerchantFile(join(dir, 'link.pdf'))
    expect(read).toMatchObject({ fileName: 'link.pdf', contentType: 'application/pdf' })
    expect(Buffer.from(read.content).toString()).toBe('%PDF-1.4\n%%EOF\n')
  })

  it.each([
    [
      'a FIFO no one writes to',
      () => {
        const fifo = join(dir, 'pipe.pdf')
        execFileSync('mkfifo', [fifo])
        return fifo
      },
    ],
    ['a device that never ends', () => '/dev/zero'],
    [
      'a link to a device',
      () => {
        const link = join(dir, 'zero.pdf')
        symlinkSync('/dev/zero', link)
        return link
      },
    ],
  ])('refuses %s without waiting on it or reading it', async (_what, make) => {
    await expect(readMerchantFile(make())).rejects.toThrow(UsageError)
  })
})
