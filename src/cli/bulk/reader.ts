// The rows of a `--from-file` file, streamed: CSV with a header row (csv-parse), or JSON Lines when
// the name ends in `.jsonl`. A file is read twice (every row checked first, then run), so stdin
// (`-`) is first copied to a private temporary file. The file's SHA-256 is taken as it is read:
// with the line number, it names each row in the journal (journal.ts).
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'

import { UsageError } from '../errors/index.js'

/** The longest row payfac reads (a CSV record, a JSON line): 1 MiB, far beyond any row of flags. */
export const MAX_ROW_BYTES = 1024 * 1024

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
  /** Removes the copy of stdin. */
  dispose(): void
}

/** The file named by `--from-file` (stdin copied aside first); exit 2 when it cannot be read. */
export async function openSource(name: string): Promise<RowSource> {
  const format = name.toLowerCase().endsWith('.jsonl') ? 'jsonl' : 'csv'
  if (name !== '-') {
    let isFile = false
    try {
      isFile = statSync(name).isFile()
    } catch (error) {
      throw new UsageError(
        `--from-file: cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
        'Name a CSV or JSON Lines file, or - for stdin',
      )
    }
    if (!isFile) throw new UsageError(`--from-file: ${name} is not a file`, 'Name a CSV or JSON Lines file, or - for stdin')
    return { name, path: name, format, dispose: () => undefined }
  }
  const dir = mkdtempSync(join(tmpdir(), 'payfac-bulk-'))
  const path = join(dir, 'stdin')
  await pipeline(process.stdin, createWriteStream(path, { mode: 0o600 }))
  return { name: 'stdin', path, format, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A pass over the rows; `digest()` is the file's SHA-256 (hex) once the pass has ended. */
export function readRows(source: RowSource): { rows: AsyncIterable<Row>; digest: () => string } {
  const hash = createHash('sha256')
  let digest: string | undefined
  // Opened once the parser is loaded, so that no byte flows before it listens.
  const open = () => {
    const input = createReadStream(source.path)
    input.on('data', (chunk) => hash.update(chunk))
    input.on('end', () => (digest = hash.digest('hex')))
    return input
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
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim()),
      group_columns_by_name: true,
      info: true,
      skip_empty_lines: true,
      max_record_size: MAX_ROW_BYTES,
    }),
  )
  let index = 0
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, Cell>; info: { lines: number } }>) {
      yield { index: index++, line: info.lines, values: record }
    }
  } catch (error) {
    const e = error as { message?: string; lines?: number }
    throw new UsageError(
      `--from-file ${name}${e.lines ? ` line ${e.lines}` : ''}: not CSV payfac can read (${e.message ?? String(error)})`,
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
  const bounded = input.pipe(boundedLines(name, () => line + 1))
  const lines = createInterface({ input: bounded, crlfDelay: Infinity })
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

/** Passes bytes through, failing (exit 2) once a line grows past MAX_ROW_BYTES without ending. */
function boundedLines(name: string, lineAt: () => number): Transform {
  let open = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const last = chunk.lastIndexOf(10)
      open = last === -1 ? open + chunk.length : chunk.length - last - 1
      if (open > MAX_ROW_BYTES) {
        done(new UsageError(`--from-file ${name} line ${lineAt()}: a line longer than 1 MiB`, 'Write one JSON object of flag values a line'))
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
