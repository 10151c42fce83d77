// The journal of a bulk run: the operation journal's records (config/operations.ts, format 2),
// one per row and step, kept for one file of rows in one append-only file beside the other
// records: <config>/operations/<identity>/bulk-<command>-<file hash>.jsonl. A row is named by the
// file's content hash and its line, so a re-run with the same file finds what each row did.
//
// The rules are the operation journal's (safety/journal-ops.ts), row by row (row-run.ts):
//   - a row journaled `done` is skipped (the run engine never sends it again);
//   - a row journaled `sending` or `unknown` is looked up on the service with the operation's own
//     look: found, it is done (nothing sent); shown not to have happened, it is sent; when the
//     service cannot tell, its outcome stays unknown (exit 7), nothing sent;
//   - otherwise the operation's guards and second witness run, the intent is journaled (and on
//     disk) before the request leaves, and its result after (done, refused or unknown).
// One lock (config/op-lock.ts) is held on the file for the whole run, so two runs of one file
// never interleave. Records are written in groups: each group with one write and one fdatasync,
// so a row's intent is on disk before its request is sent while eight rows in flight share a
// flush. A run killed mid-write leaves at most its last line cut short: it is ignored on reading
// (that step's request had not been sent, or its answer is looked up as unknown).
import fs from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import path from 'node:path'
import { createInterface } from 'node:readline'

import { ConfigError } from '../../config/errors.js'
import { fileProblem } from '../../config/fs-check.js'
import { type OperationRecord, type ServiceIdentity, operationRecordSchema } from '../../config/operations.js'

export type RowRecord = OperationRecord & { line: number }
const rowRecordSchema = operationRecordSchema.extend({ line: operationRecordSchema.shape.doneCount })

/** `<config>/operations/<identity>/bulk-<command>-<hash>.jsonl`. */
export function bulkJournalPath(configDir: string, identity: ServiceIdentity, commandId: string, fileHash: string): string {
  return path.join(configDir, 'operations', identity.id, `bulk-${commandId.replace(/[^a-z0-9-]/gi, '-')}-${fileHash.slice(0, 32)}.jsonl`)
}

export class BulkJournal {
  /** The newest record of each row not yet finished by this run (done rows keep only what the results show). */
  private readonly latest = new Map<number, RowRecord>()
  private queue: string[] = []
  private waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = []
  private flushing: Promise<void> | undefined
  private failure: unknown

  private constructor(
    readonly file: string,
    readonly configDir: string,
    readonly identity: ServiceIdentity,
    readonly fileHash: string,
    private readonly handle: FileHandle,
  ) {}

  /** Reads what earlier runs of the same file did (fail-closed, as every record), then opens it to append. */
  static async open(file: string, configDir: string, identity: ServiceIdentity, fileHash: string): Promise<BulkJournal> {
    const read = await readRecords(file)
    const flags = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0)
    const handle = await open(file, flags, 0o600)
    const journal = new BulkJournal(file, configDir, identity, fileHash, handle)
    for (const record of read.records) journal.latest.set(record.line, record)
    // A line cut short by a kill: what follows starts on a line of its own.
    if (read.unterminated) journal.queue.push('\n')
    return journal
  }

  prior(line: number): RowRecord | undefined {
    return this.latest.get(line)
  }

  /** This run is done with the row: its record need not be kept in memory. */
  forget(line: number): void {
    this.latest.delete(line)
  }

  /** Appends a record; resolves once it is on disk (written with others in one group and flushed). */
  async append(record: RowRecord): Promise<RowRecord> {
    if (this.failure) throw this.failure
    const saved = rowRecordSchema.parse({ ...record, updatedAt: new Date().toISOString() }) as RowRecord
    this.latest.set(saved.line, saved)
    this.queue.push(`${JSON.stringify(saved)}\n`)
    await new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject })
      this.kick()
    })
    return saved
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing
    await this.handle.close()
  }

  private kick(): void {
    if (this.flushing) return
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined
      if (this.queue.length > 0) this.kick()
    })
  }

  private async flush(): Promise<void> {
    const text = this.queue.join('')
    const waiting = this.waiting
    this.queue = []
    this.waiting = []
    try {
      await this.handle.appendFile(text)
      await this.handle.datasync()
      for (const w of waiting) w.resolve()
    } catch (error) {
      this.failure = new ConfigError(
        `Cannot write the journal ${this.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Rows in flight have an unknown outcome.`,
        {
          hint: 'Check the disk and the permissions of the folder, then run the same command again: it looks up what those rows did.',
          cause: error,
        },
      )
      for (const w of waiting) w.reject(this.failure)
    }
  }
}

/** The records of an earlier run, read by the operation journal's rules: a file of yours no one else can write. */
export async function readRecords(file: string): Promise<{ records: RowRecord[]; unterminated: boolean }> {
  let stat: fs.Stats
  try {
    stat = fs.lstatSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], unterminated: false }
    throw damaged(file, (error as NodeJS.ErrnoException).code ?? String(error))
  }
  const problem = fileProblem(stat)
  if (problem) throw damaged(file, problem)
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
  const late = fileProblem(fs.fstatSync(fd))
  if (late) {
    fs.closeSync(fd)
    throw damaged(file, late)
  }
  const records: RowRecord[] = []
  const byLine = new Map<number, number>()
  let last: string | undefined
  let bad: number | undefined
  let n = 0
  for await (const text of createInterface({ input: fs.createReadStream('', { fd }), crlfDelay: Infinity })) {
    n++
    if (bad !== undefined) break
    last = text
    if (text === '') continue
    const parsed = parseRecord(text)
    if (!parsed) {
      bad = n
      continue
    }
    // Only the newest record of a row counts; a finished row keeps what the results show.
    const at = byLine.get(parsed.line)
    const kept = parsed.state === 'done' ? ({ ...parsed, before: undefined } as RowRecord) : parsed
    if (at === undefined) byLine.set(parsed.line, records.push(kept) - 1)
    else records[at] = kept
  }
  const endsWithNewline = lastByte(file) !== 'other'
  // A damaged line is forgiven only as the last one, cut short by a kill (no newline after it).
  if (bad !== undefined && !(bad === n && !endsWithNewline)) throw damaged(file, `line ${bad} is not a record payfac wrote`)
  return { records, unterminated: !endsWithNewline && last !== undefined }
}

/** Whether the file ends with a newline ('newline', or 'empty'), or 'other'. */
function lastByte(file: string): 'newline' | 'empty' | 'other' {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  try {
    const size = fs.fstatSync(fd).size
    if (size === 0) return 'empty'
    const byte = Buffer.alloc(1)
    fs.readSync(fd, byte, 0, 1, size - 1)
    return byte[0] === 0x0a ? 'newline' : 'other'
  } finally {
    fs.closeSync(fd)
  }
}

function parseRecord(text: string): RowRecord | undefined {
  try {
    const parsed = rowRecordSchema.safeParse(JSON.parse(text))
    return parsed.success ? (parsed.data as RowRecord) : undefined
  } catch {
    return undefined
  }
}

function damaged(file: string, problem: string): ConfigError {
  return new ConfigError(`The journal of this bulk run ${file} is damaged: ${problem}. Nothing was sent; it has been left as it is.`, {
    reason: 'damaged-store',
    hint: 'Check on the service what the rows did (the results file of the last run, the list commands) before running again with a copy of the file.',
  })
}
