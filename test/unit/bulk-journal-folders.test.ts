// The run's journal file of a bulk run, when this run makes it: its name and its folder's are
// flushed once (a power cut before the first burst must not lose the file the intents go into).
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

const flushed = vi.hoisted(() => [] as string[])
vi.mock('../../src/config/atomic-file.js', async (original) => {
  const real = await original<typeof import('../../src/config/atomic-file.js')>()
  return {
    ...real,
    flushFolder: async (dir: string) => {
      flushed.push(dir)
      await real.flushFolder(dir)
    },
  }
})

const { BulkJournal } = await import('../../src/cli/bulk/journal.js')
const { serviceIdentity } = await import('../../src/config/operations.js')
const { makeTempConfigDir } = await import('../helpers/tmp-config.js')

let cleanup: (() => void) | undefined
afterEach(() => {
  cleanup?.()
  flushed.length = 0
})

describe("a bulk run's journal file", () => {
  it('made by this run: its folder and that folder’s parent are flushed when it is opened; found there: nothing more', async () => {
    const made = makeTempConfigDir()
    cleanup = made.cleanup
    const identity = serviceIdentity('http://127.0.0.1:4010', { party: 'merchant:mcht_test' })
    const folder = path.join(made.dir, 'operations', identity.id)
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 })
    const file = path.join(folder, 'bulk-transactions-refund-0789.jsonl')
    await (await BulkJournal.open(file, made.dir, identity, '0789')).close()
    expect(flushed).toEqual([folder, path.dirname(folder)])
    flushed.length = 0
    await (await BulkJournal.open(file, made.dir, identity, '0789')).close()
    expect(flushed).toEqual([])
  })
})
