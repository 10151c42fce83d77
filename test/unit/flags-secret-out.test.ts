import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'

import { checkOutPath } from '../../src/cli/flags/out.js'
import { webhookSecret } from '../../src/cli/flags/secret.js'

const stdinOf = (text: string, isTTY = false) => Object.assign(Readable.from([Buffer.from(text)]), { isTTY }) as unknown as NodeJS.ReadStream

describe('webhook secrets', () => {
  it('takes --secret as given, the first line of stdin for -, or PAYFAC_WEBHOOK_SECRET', async () => {
    expect(await webhookSecret('whsec_flag', { stdinFree: true, required: true, env: {} })).toBe('whsec_flag')
    expect(await webhookSecret('-', { stdinFree: true, required: true, env: {}, stdin: stdinOf('whsec_stdin\nignored\n') })).toBe('whsec_stdin')
    expect(await webhookSecret(undefined, { stdinFree: true, required: true, env: { PAYFAC_WEBHOOK_SECRET: ' whsec_env ' } })).toBe('whsec_env')
    expect(await webhookSecret(undefined, { stdinFree: true, required: false, env: {} })).toBeUndefined()
  })

  it('refuses - on a terminal, - when stdin is taken, an empty stdin, and none at all when required', async () => {
    await expect(webhookSecret('-', { stdinFree: true, required: true, env: {}, stdin: stdinOf('', true) })).rejects.toThrow(/stdin is a terminal/)
    await expect(webhookSecret('-', { stdinFree: false, required: true, env: {} })).rejects.toThrow(/stdin carries the body/)
    await expect(webhookSecret('-', { stdinFree: true, required: true, env: {}, stdin: stdinOf('\n') })).rejects.toThrow(/held no secret/)
    await expect(webhookSecret(undefined, { stdinFree: true, required: true, env: {} })).rejects.toThrow(/PAYFAC_WEBHOOK_SECRET/)
  })
})

describe('--out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payfac-out-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('takes a file in an existing writable folder, new or existing', () => {
    expect(checkOutPath(join(dir, 'new.csv'))).toBe(join(dir, 'new.csv'))
    writeFileSync(join(dir, 'old.csv'), 'x')
    expect(checkOutPath(join(dir, 'old.csv'))).toBe(join(dir, 'old.csv'))
  })

  it('refuses a missing folder, a folder as the target, a file as the folder, and an empty name', () => {
    expect(() => checkOutPath(join(dir, 'missing', 'a.csv'))).toThrow(/does not exist/)
    expect(() => checkOutPath(dir)).toThrow(/is a folder/)
    writeFileSync(join(dir, 'plain'), 'x')
    expect(() => checkOutPath(join(dir, 'plain', 'a.csv'))).toThrow(/is not a folder/)
    expect(() => checkOutPath(' ')).toThrow(/needs a file name/)
  })
})
