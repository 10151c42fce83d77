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
// never interleave. Each row's step also goes to the operation's own record (row-run.ts,
// rows-journal.ts). A row's line is written to the file at once; the records wait for the next
// burst: whatever the rows in flight have to write when the last burst is done goes to disk
// together (atomic-file.ts, replaceJsonFiles: each record to a temporary file, all flushed side
// by side, then renamed into place), and when an intent is among them, the file's lines and the
// records' folders are flushed once after. So the intents of every row about to be sent share
// one flush of each kind (and the file system's commits), and each is on disk before its request
// leaves. An outcome (done, refused, unknown) waits for no flush of the file or a folder: lost to
// a power cut, the row is still journaled `sending`, and a re-run looks it up on the service. A
// run killed mid-write leaves at most its last line cut short: it is ignored on reading (that
// step's request had not been sent, or its answer is looked up as unknown), and the temporary
// files of its last burst: the next run sweeps each records' folder it writes in once. Once a write fails (a
// full disk, a folder made read-only) every later step of the run fails with it, so no request
// leaves without its intent on disk.
import fs from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'

import { flushFolder, removeStaleTempsIn, replaceJsonFiles } from '../../config/atomic-file.js'
import { ConfigError } from '../../config/errors.js'
import { fileProblem } from '../../config/fs-check.js'
import { type OperationRecord, type ServiceIdentity, operationRecordSchema, savedOperation } from '../../config/operations.js'

export type RowRecord = OperationRecord & { line: number }
const rowRecordSchema = operationRecordSchema.extend({ line: operationRecordSchema.shape.doneCount })

/** `<config>/operations/<identity>/bulk-<command>-<hash>.jsonl`. */
export function bulkJournalPath(configDir: string, identity: ServiceIdentity, commandId: string, fileHash: string): string {
  return path.join(configDir, 'operations', identity.id, `bulk-${commandId.replace(/[^a-z0-9-]/gi, '-')}-${fileHash.slice(0, 32)}.jsonl`)
}

/** Whether a write must be on disk before it resolves (an intent), or only written (an outcome). */
export interface Durability {
  durable?: boolean | undefined
}

/** What the rows in flight have to write to the disk now, written together (a burst). */
interface Burst {
  records: Array<{ file: string; value: OperationRecord }>
  /** An intent is among them: the run's file and the records' folders are flushed too. */
  durable: boolean
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>
}

const newBurst = (): Burst => ({ records: [], durable: false, waiters: [] })

export class BulkJournal {
  /** The newest record of each row not yet finished by this run (done rows keep only what the results show). */
  private readonly latest = new Map<number, RowRecord>()
  /** The burst on its way to the disk, and the one gathering what comes meanwhile. */
  private running: Promise<void> | undefined
  private forming: Burst = newBurst()
  private kicked = false
  /** Lines written since the run's file was last flushed. */
  private unsynced = false
  private failure: unknown
  /** The records' folders swept of the temporary files of runs killed mid-burst, once a run each. */
  private readonly swept = new Map<string, Promise<void>>()

  private constructor(
    readonly file: string,
    readonly configDir: string,
    readonly identity: ServiceIdentity,
    readonly fileHash: string,
    private readonly fd: number,
  ) {}

  /** Reads what earlier runs of the same file did (fail-closed, as every record), then opens it to append. */
  static async open(file: string, configDir: string, identity: ServiceIdentity, fileHash: string): Promise<BulkJournal> {
    const read = await readRecords(file)
    const flags = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0)
    // This run holds the file's lock: no one else makes it meanwhile.
    const made = !fs.existsSync(file)
    const fd = fs.openSync(file, flags, 0o600)
    // A new file's name (and its folder's, made with it) survives a power cut before any row's
    // intent is written to it: the bursts flush the file and the records' folders, not these.
    if (made) for (const folder of [path.dirname(file), path.dirname(path.dirname(file))]) await flushFolder(folder)
    const journal = new BulkJournal(file, configDir, identity, fileHash, fd)
    for (const record of read.records) journal.latest.set(record.line, record)
    // A line cut short by a kill: what follows starts on a line of its own.
    if (read.unterminated) writeAll(fd, '\n')
    return journal
  }

  prior(line: number): RowRecord | undefined {
    return this.latest.get(line)
  }

  /** This run is done with the row: its record need not be kept in memory. */
  forget(line: number): void {
    this.latest.delete(line)
  }

  /**
   * Appends a row's record at once; resolves then, or for an intent (`durable`, the default) once
   * the file is flushed with the next burst.
   */
  async append(record: RowRecord, options: Durability = {}): Promise<RowRecord> {
    if (this.failure) throw this.failure
    const saved = rowRecordSchema.parse({ ...record, updatedAt: new Date().toISOString() }) as RowRecord
    try {
      writeAll(this.fd, `${JSON.stringify(saved)}\n`)
    } catch (error) {
      throw this.failed(error)
    }
    this.unsynced = true
    this.latest.set(saved.line, saved)
    if (options.durable !== false) await this.inBurst(undefined, true)
    return saved
  }

  /**
   * Writes an operation's own record (at `file`) with the next burst; resolves once it is in
   * place, and for an intent (`durable`) once its folder is flushed too.
   */
  async writeRecord(file: string, record: OperationRecord, options: Durability = {}): Promise<OperationRecord> {
    if (this.failure) throw this.failure
    const saved = savedOperation(record)
    await this.inBurst({ file, value: saved }, options.durable === true)
    return saved
  }

  /** Waits for what is on its way, flushes the lines written since, and closes the file. */
  async close(): Promise<void> {
    try {
      while (this.running || this.kicked) await (this.running ?? new Promise((resolve) => setImmediate(resolve)))
      if (!this.failure && this.unsynced) await datasync(this.fd)
      await Promise.all(this.swept.values())
    } finally {
      fs.closeSync(this.fd)
    }
  }

  private inBurst(record: { file: string; value: OperationRecord } | undefined, durable: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const burst = this.forming
      if (record) burst.records.push(record)
      if (durable) burst.durable = true
      burst.waiters.push({ resolve, reject })
      // Started once what this turn of the event loop writes has joined it (a row's line and record).
      if (!this.kicked) {
        this.kicked = true
        queueMicrotask(() => {
          this.kicked = false
          this.kick()
        })
      }
    })
  }

  /** Starts the burst gathered so far, unless one is on its way (it starts the next when done). */
  private kick(): void {
    if (this.running || this.forming.waiters.length === 0) return
    const burst = this.forming
    this.forming = newBurst()
    this.running = this.flush(burst).finally(() => {
      this.running = undefined
      this.kick()
    })
  }

  private async flush(burst: Burst): Promise<void> {
    try {
      if (this.failure) throw this.failure
      for (const { file } of burst.records) {
        const folder = path.dirname(file)
        // Not waited for: it takes nothing the burst needs (another process's temporary files, by name).
        if (!this.swept.has(folder)) this.swept.set(folder, removeStaleTempsIn(folder))
      }
      await replaceJsonFiles(burst.records)
      if (burst.durable) {
        // Every line written so far, this burst's intents among them, and the records' new names.
        this.unsynced = false
        const folders = new Set(burst.records.map((r) => path.dirname(r.file)))
        await Promise.all([datasync(this.fd), ...[...folders].map(flushFolder)])
      }
      for (const waiter of burst.waiters) waiter.resolve()
    } catch (error) {
      const failure = this.failed(error)
      for (const waiter of burst.waiters) waiter.reject(failure)
    }
  }

  /** The journal cannot be written: this run sends nothing more (every later step throws the same error). */
  private failed(error: unknown): unknown {
    const where = (error as { path?: unknown }).path ?? (error as { target?: unknown }).target ?? this.file
    this.failure ??= new ConfigError(
      `Cannot write the journal ${String(where)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Rows in flight have an unknown outcome.`,
      {
        hint: 'Check the disk and the permissions of the folder, then run the same command again: it looks up what those rows did.',
        cause: error,
      },
    )
    return this.failure
  }
}

/** Writes all of `text` (a write may take part of it). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at)
}

function datasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve())))
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
