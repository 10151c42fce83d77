// The rows of a `--from-file` file, streamed: CSV with a header row (csv-parse), or JSON Lines when
// the name ends in `.jsonl`. A file is read twice (every row checked first, then run), so stdin
// (`-`) is first copied to a private temporary file (at most MAX_STDIN_BYTES, no line longer than
// MAX_ROW_BYTES, so `< /dev/zero` stops at once). A named file must be a regular file, judged on
// what was opened (O_NONBLOCK, so a FIFO swapped in never blocks the open). The file's SHA-256 is
// taken as it is read: with the line number, it names each row in the journal (journal.ts).
import { createHash } from 'node:crypto'
import { closeSync, constants, createReadStream, createWriteStream, fstatSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Transform, pipeline } from 'node:stream'
import { pipeline as pipelineAsync } from 'node:stream/promises'

import { MAX_JSON_DEPTH, jsonDepthOver } from '../../client/json-depth.js'
import { UsageError } from '../errors/index.js'
import { type Utf8State, firstNonUtf8, utf8Start } from '../files/utf8.js'
import { addCleanup, holdThreadRead } from '../runtime/signals.js'

/** The longest row payfac reads (a CSV record, a JSON line): 1 MiB, far beyond any row of flags. */
export const MAX_ROW_BYTES = 1024 * 1024
/** The most `--from-file -` copies from stdin: 256 MiB (a larger file is given by its name). */
export const MAX_STDIN_BYTES = 256 * 1024 * 1024

/** A value as the file gives it: CSV text (an array when the column is repeated), or any JSON value. */
export type Cell = unknown

export interface Row {
  /** The row's place among the rows, from 0. */
  index: number
  /** The line of the file where the row is (its last line when a quoted CSV field spans several). */
  line: number
  values: Record<string, Cell>
}

export interface RowSource {
  /** What the user named: a path, or `-`. */
  name: string
  path: string
  format: 'csv' | 'jsonl'
  /** The SHA-256 of the bytes up to the end of each chunk, as the first whole pass read them (see readRows). */
  checkpoints?: Buffer[] | undefined
  /** Removes the copy of stdin. */
  dispose(): void
}

const FILE_HINT = 'Name a CSV or JSON Lines file, or - for stdin'

/** A descriptor of the regular file `path`; anything else (a folder, a FIFO, a device) is exit 2. */
function openRegular(path: string, name: string): number {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    throw new UsageError(`--from-file: cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`, FILE_HINT)
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd)
    throw new UsageError(`--from-file: ${name} is not a file`, FILE_HINT)
  }
  return fd
}

/** The file named by `--from-file` (stdin copied aside first); exit 2 when it cannot be read. */
export async function openSource(name: string): Promise<RowSource> {
  const format = name.toLowerCase().endsWith('.jsonl') ? 'jsonl' : 'csv'
  if (name !== '-') {
    closeSync(openRegular(name, name))
    return { name, path: name, format, dispose: () => undefined }
  }
  const dir = mkdtempSync(join(tmpdir(), 'payfac-bulk-'))
  const path = join(dir, 'stdin')
  // Removed when the run is done, and by the signal handler if Ctrl-C or SIGTERM ends it first.
  const remove = () => rmSync(dir, { recursive: true, force: true })
  const forget = addCleanup(remove)
  const dispose = () => {
    forget()
    remove()
  }
  let line = 1
  // stdin redirected from a device is read in libuv's threads: held, so that a signal still ends payfac.
  holdThreadRead(process.stdin)
  try {
    await pipelineAsync(
      process.stdin,
      checkedText('stdin', (count) => (line += count), { total: MAX_STDIN_BYTES }),
      createWriteStream(path, { mode: 0o600 }),
    )
  } catch (error) {
    dispose()
    if (error instanceof UsageError) throw error
    throw new UsageError(`--from-file -: cannot read stdin (${(error as NodeJS.ErrnoException).code ?? 'error'})`, FILE_HINT)
  }
  return { name: 'stdin', path, format, dispose }
}

/**
 * A pass over the rows; `digest()` is the file's SHA-256 (hex) once the pass has ended.
 *
 * A file is read twice, its rows checked and then run, and a named file may change in between (an
 * editor saving it, an export still writing it): the rows run were then ones nobody checked or
 * confirmed, journaled under the checked file's hash. So the first pass that reads the whole file
 * notes the hash of the bytes up to the end of each chunk, and a later pass compares its own before
 * a chunk goes on to the parser: the first chunk that differs, or a byte more or fewer, is exit 2
 * and no row from there on is taken. (Chunks of a regular file read from its start are the same
 * each time: a read returns all that was asked for, short only at the end.)
 */
export function readRows(source: RowSource): { rows: AsyncIterable<Row>; digest: () => string } {
  const hash = createHash('sha256')
  let digest: string | undefined
  const checked = source.checkpoints
  const noted: Buffer[] = []
  let at = 0
  const changed = () =>
    new UsageError(
      `--from-file ${source.name} changed after payfac checked its rows: no row from there on was taken`,
      'Check the file, then run the command again (rows done before are skipped)',
    )
  // Opened once the parser is loaded, so that no byte flows before it listens.
  const open = () => {
    const file = createReadStream(source.path, { fd: openRegular(source.path, source.name) })
    holdThreadRead(file)
    const same = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk)
        const mark = hash.copy().digest()
        if (checked === undefined) noted.push(mark)
        else if (!checked[at++]?.equals(mark)) return done(changed())
        done(null, chunk)
      },
      flush(done) {
        if (checked !== undefined && at !== checked.length) return done(changed())
        digest = hash.digest('hex')
        source.checkpoints ??= noted
        done()
      },
    })
    pipeline(file, same, () => undefined)
    return same
  }
  const rows = source.format === 'csv' ? csvRows(open, source.name) : jsonlRows(open(), source.name)
  return {
    rows,
    digest: () => {
      if (digest === undefined) throw new Error('the file was not read to its end')
      return digest
    },
  }
}

async function* csvRows(open: () => NodeJS.ReadableStream, name: string): AsyncGenerator<Row> {
  const { parse } = await import('csv-parse')
  const input = open()
  let line = 1
  const parser = pipeline(
    input,
    // csv-parse bounds a record itself (max_record_size), quoted line breaks included.
    checkedText(name, (count) => (line += count), { lines: false }),
    parse({
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim()),
      group_columns_by_name: true,
      info: true,
      skip_empty_lines: true,
      max_record_size: MAX_ROW_BYTES,
    }),
    () => undefined,
  )
  let index = 0
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, Cell>; info: { lines: number } }>) {
      yield { index: index++, line: info.lines, values: record }
    }
  } catch (error) {
    if (error instanceof UsageError) throw error
    const e = error as { message?: string; lines?: number }
    // csv-parse quotes the field it stopped in, which may be a megabyte of junk: cut.
    const said = (e.message ?? String(error)).replace(/\s+/g, ' ')
    throw new UsageError(
      `--from-file ${name}${e.lines ? ` line ${e.lines}` : ''}: not CSV payfac can read (${said.length > 160 ? `${said.slice(0, 160)}…` : said})`,
      'Give a header row of flag names, then one row per run, with fields that hold commas or quotes in double quotes',
    )
  } finally {
    // A pass left early (a dry run reads one row) stops reading the file.
    ;(input as unknown as { destroy(): void }).destroy()
  }
}

async function* jsonlRows(input: NodeJS.ReadableStream, name: string): AsyncGenerator<Row> {
  let line = 0
  let index = 0
  let seen = 1
  const checked = pipeline(
    input,
    checkedText(name, (count) => (seen += count)),
    () => undefined,
  )
  const lines = createInterface({ input: checked, crlfDelay: Infinity })
  try {
    yield* jsonObjects(
      lines,
      name,
      () => ++line,
      () => index++,
    )
  } finally {
    lines.close()
    ;(input as unknown as { destroy(): void }).destroy()
  }
}

/** A byte no row of flags holds: a C0 control other than tab, line feed and carriage return, or DEL (flag values refuse them). */
const NOT_TEXT = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/

/**
 * Passes bytes through, failing (exit 2) at the first byte no row holds (so a file of junk fails
 * on its first line, not after a read of all of it), once a line grows past MAX_ROW_BYTES without
 * ending (unless `lines` is false), or once more than `total` bytes have passed. `newLines(n)` is
 * told of line ends as they pass and gives the number of the line being read.
 */
function checkedText(
  name: string,
  newLines: (count: number) => number,
  { lines = true, total = Number.POSITIVE_INFINITY }: { lines?: boolean; total?: number } = {},
): Transform {
  let open = 0
  let size = 0
  const utf8: Utf8State = utf8Start()
  const ends = (chunk: Buffer, end: number) => {
    let count = 0
    for (let at = chunk.indexOf(10); at >= 0 && at < end; at = chunk.indexOf(10, at + 1)) count++
    return count
  }
  const notUtf8 = (line: number) =>
    new UsageError(
      `--from-file ${name} line ${line}: bytes that are not UTF-8 text (another encoding, such as Windows-1252, or binary)`,
      'Save the file as UTF-8',
    )
  return new Transform({
    flush(done) {
      // A character cut short by the end of the file.
      done(utf8.need > 0 ? notUtf8(newLines(0)) : null)
    },
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length
      const bad = NOT_TEXT.exec(chunk.toString('latin1'))
      if (bad) {
        const line = newLines(ends(chunk, bad.index))
        const code = (chunk[bad.index] as number).toString(16).toUpperCase().padStart(4, '0')
        done(
          new UsageError(
            `--from-file ${name} line ${line}: a control character (U+${code}) that no row holds: this is not a CSV or JSON Lines file of text`,
            'Check what --from-file names',
          ),
        )
        return
      }
      const fault = firstNonUtf8(chunk, utf8)
      if (fault >= 0) {
        done(notUtf8(newLines(ends(chunk, fault))))
        return
      }
      const last = chunk.lastIndexOf(10)
      open = last === -1 ? open + chunk.length : chunk.length - last - 1
      const line = newLines(ends(chunk, chunk.length))
      if (lines && open > MAX_ROW_BYTES) {
        done(
          new UsageError(
            `--from-file ${name} line ${line}: a line longer than 1 MiB`,
            'Give one row a line: check that --from-file names a CSV or JSON Lines file',
          ),
        )
        return
      }
      if (size > total) {
        done(new UsageError(`--from-file -: stdin holds more than ${total / (1024 * 1024)} MiB; payfac copies at most that much`, 'Give the file by its name'))
        return
      }
      done(null, chunk)
    },
  })
}

async function* jsonObjects(lines: AsyncIterable<string>, name: string, nextLine: () => number, nextIndex: () => number): AsyncGenerator<Row> {
  for await (let text of lines) {
    const line = nextLine()
    // A byte-order mark (a file saved by a Windows editor) is not part of the first object.
    if (line === 1 && text.startsWith('\ufeff')) text = text.slice(1)
    if (text.trim() === '') continue
    if (jsonDepthOver(text))
      throw new UsageError(`--from-file ${name} line ${line}: nests objects and arrays more than ${MAX_JSON_DEPTH} deep`, 'Write one flat JSON object a line')
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw new UsageError(
        `--from-file ${name} line ${line}: not JSON`,
        'Write one JSON object a line, with flag names as keys, such as {"amount": "5.00", "currency": "AUD"}',
      )
    }
    const inexact = inexactNumber(text)
    if (inexact) {
      throw new UsageError(
        `--from-file ${name} line ${line}: the number ${inexact} has more digits than a JSON number holds exactly`,
        `Write it as a string, such as "${inexact}"`,
      )
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw new UsageError(`--from-file ${name} line ${line}: not a JSON object`, 'Write one JSON object a line, with flag names as keys')
    }
    yield { index: nextIndex(), line, values: value as Record<string, Cell> }
  }
}

/**
 * The first number written outside a string with more than 15 significant digits, or undefined.
 * A JSON number is read as a binary double, which keeps 15 digits exactly: 90071992547409.91
 * comes back as 90071992547409.9, a cent off. Money is exact, so such a number is refused.
 */
function inexactNumber(text: string): string | undefined {
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      const token = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i))?.[0] ?? c
      const significant = token
        .replace(/[eE].*$/, '')
        .replace(/[-.]/g, '')
        .replace(/^0+/, '')
        .replace(/0+$/, '')
      if (significant.length > 15) return token
      i += token.length - 1
    }
  }
  return undefined
}
