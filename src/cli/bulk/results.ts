// The results of a bulk run: one line per input row, in the file's order: line, status (done,
// skipped-already-done, failed, unknown), the id it made, the error code and message. CSV with a
// header, or JSON Lines (`--out x.jsonl`, or `--json`/`--jsonl` without --out). With `--out FILE`,
// FILE.partial holds the rows finished so far, in order, while the run goes on (what a person
// looks at after a crash); at the end FILE is written atomically from it (files/out-file.ts) and
// the .partial removed. Without --out the lines go to stdout as rows finish. Rows finish out of
// order by at most what is in flight; those ahead wait here until the rows before them finish.
import { closeSync, constants, createReadStream, openSync, rmSync, writeSync } from 'node:fs'

import { csvText } from '../../output/cells.js'
import { WriteError, writeFailureWords } from '../../output/sink.js'
import { UsageError } from '../errors/index.js'

export type RowStatus = 'done' | 'skipped-already-done' | 'failed' | 'unknown'

export interface RowResult {
  line: number
  status: RowStatus
  id?: string | undefined
  errorCode?: string | number | undefined
  message?: string | undefined
}

const COLUMNS = ['line', 'status', 'id', 'errorCode', 'message'] as const

export class Results {
  readonly counts: Record<RowStatus, number> = { done: 0, 'skipped-already-done': 0, failed: 0, unknown: 0 }
  private next = 0
  private readonly waiting = new Map<number, RowResult>()
  private fd: number | undefined
  /** A write of the results failed: every later one fails the same way, and FILE is not made. */
  private failure: WriteError | undefined
  private stringify: ((rows: unknown[][]) => string) | undefined

  private constructor(
    private readonly out: string | undefined,
    private readonly format: 'csv' | 'jsonl',
  ) {}

  /** `format` as the flags ask (--csv; --json or --jsonl); without one, FILE's name decides (`.jsonl`), else CSV. */
  static async open(out: string | undefined, format: 'csv' | 'jsonl' | undefined): Promise<Results> {
    const results = new Results(out, format ?? (out?.toLowerCase().endsWith('.jsonl') ? 'jsonl' : 'csv'))
    if (results.format === 'csv') {
      const { stringify } = await import('csv-stringify/sync')
      results.stringify = (rows) => stringify(rows)
    }
    if (out) results.fd = openPartial(`${out}.partial`)
    if (results.format === 'csv') results.write(`${[...COLUMNS].join(',')}\n`)
    return results
  }

  /** The row at `index` (its place among the rows) has finished. */
  add(index: number, result: RowResult): void {
    this.counts[result.status]++
    this.waiting.set(index, result)
    let text = ''
    for (let r = this.waiting.get(this.next); r; r = this.waiting.get(this.next)) {
      this.waiting.delete(this.next++)
      text += this.line(r)
    }
    if (text) this.write(text)
  }

  /** Rows not yet written because one before them is still in flight. */
  get pending(): number {
    return this.waiting.size
  }

  /** Writes what is left (rows after a gap, when the run stopped early), then FILE from FILE.partial. */
  async finish(): Promise<void> {
    const rest = [...this.waiting.entries()].sort((a, b) => a[0] - b[0])
    this.waiting.clear()
    if (rest.length) this.write(rest.map(([, r]) => this.line(r)).join(''))
    if (this.failure) throw this.failure
    if (this.fd === undefined || !this.out) return
    closeSync(this.fd)
    this.fd = undefined
    const { saveStream } = await import('../files/out-file.js')
    await saveStream(createReadStream(`${this.out}.partial`), this.out)
    rmSync(`${this.out}.partial`, { force: true })
  }

  private line(r: RowResult): string {
    // The id, code and message come from the service: a cell a spreadsheet would run as a formula is defused.
    const values = [r.line, r.status, r.id ?? '', r.errorCode ?? '', r.message ?? ''].map(csvText)
    if (this.format === 'jsonl')
      return `${JSON.stringify({ line: r.line, status: r.status, id: r.id ?? null, errorCode: r.errorCode ?? null, message: r.message ?? null })}\n`
    return (this.stringify as (rows: unknown[][]) => string)([values])
  }

  private write(text: string): void {
    if (this.fd === undefined) {
      process.stdout.write(text)
      return
    }
    if (this.failure) throw this.failure
    try {
      const bytes = Buffer.from(text)
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at)
    } catch (error) {
      const file = `${this.out}.partial`
      this.failure = new WriteError(`Could not write the results to ${file}: ${writeFailureWords(error)}; the run stops taking rows`, file, error)
      throw this.failure
    }
  }
}

/**
 * FILE.partial, made or emptied, private: never through a symlink someone left at that name
 * (the results would be written into whatever it points at). Refused before any row is sent.
 */
function openPartial(file: string): number {
  try {
    return openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0), 0o600)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable'
    const why = code === 'ELOOP' ? 'it is a symlink' : code
    throw new UsageError(
      `--out: cannot write the results of the rows as they finish to ${file} (${why}); nothing was sent`,
      'Remove that file, or name another --out file',
    )
  }
}
