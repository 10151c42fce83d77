// Reading what the user hands us beyond flags: `--data` bodies from text, a file or stdin. A body
// read from a file or stdin is bounded (MAX_DATA_BYTES, 1 MiB) and nests at most MAX_JSON_DEPTH
// deep; reading it is a wait that Ctrl-C and SIGTERM end (bounded-input.ts).
import { MAX_JSON_DEPTH, jsonDepthOver } from '../../client/json-depth.js'
import { UsageError } from '../errors/index.js'
import { MAX_DATA_BYTES, describeLimit, readFileBounded, readStdinBounded } from './bounded-input.js'
import { firstNonUtf8, utf8Start } from './utf8.js'

/** The most a secret or credential read from stdin may be: 64 KiB. */
export const MAX_SECRET_BYTES = 64 * 1024

/** Reads stdin as text: a secret or credential (`--secret -`, `--credential-stdin`), at most 64 KiB (exit 2 beyond, naming `flag`). */
export async function readStdin(stdin: NodeJS.ReadableStream, flag: string): Promise<string> {
  return (await readStdinBounded({ flag, limit: MAX_SECRET_BYTES, what: 'a secret', hint: 'Pipe in the secret alone' }, stdin)).toString('utf8')
}

/**
 * The text of a `--data` value: itself, the file after `@`, or stdin for `-`; at most 1 MiB from a
 * file or stdin. `what` names what it is for errors (`a request body`).
 */
export async function readDataText(value: string, flag = '--data', what = 'a request body'): Promise<string> {
  if (value === '-') {
    if (process.stdin.isTTY) throw new UsageError(`${flag} - reads stdin, but stdin is a terminal`, 'Pipe the JSON in, or use @file')
    const hint = `Check what is piped into ${flag} -`
    return utf8Text(await readStdinBounded({ flag: `${flag} -`, limit: MAX_DATA_BYTES, what, hint }), `${flag} -: stdin`)
  }
  if (value.startsWith('@')) {
    const path = value.slice(1)
    return utf8Text(await readFileBounded(path, { flag, limit: MAX_DATA_BYTES, what, hint: 'Check the file path after @' }), `${flag}: ${path}`)
  }
  return value
}

/**
 * `bytes` as text, when they are UTF-8: decoding turned other bytes into U+FFFD without a word, and
 * the body went out changed (`ref\xff` and `ref\xfe` the same reference).
 */
function utf8Text(bytes: Buffer, source: string): string {
  const state = utf8Start()
  const at = firstNonUtf8(bytes, state)
  if (at >= 0 || state.need > 0) {
    throw new UsageError(`${source} is not UTF-8 text (byte ${at < 0 ? bytes.length : at})`, 'Save it as UTF-8 (JSON is UTF-8)')
  }
  return bytes.toString('utf8')
}

/** Parses a `--data` value as JSON, refusing anything that is not valid JSON or nests too deep. */
export async function readData(value: string, flag = '--data'): Promise<unknown> {
  const text = await readDataText(value, flag)
  if (jsonDepthOver(text, MAX_JSON_DEPTH))
    throw new UsageError(`${flag} nests objects and arrays more than ${MAX_JSON_DEPTH} deep`, 'No request body of the service nests that deep')
  try {
    return JSON.parse(text)
  } catch (error) {
    // V8 quotes the text around the fault (`"start"...`, `..."middle"...`, `..."end"`), which may
    // hold a card number or a secret: left out, in each of its forms.
    const reason = error instanceof SyntaxError ? error.message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '') : 'invalid JSON'
    throw new UsageError(`${flag} is not valid JSON: ${reason}`, 'Quote the JSON in single quotes, or pass @file')
  }
}

/** Like readData, but the body must be a JSON object. */
export async function readDataObject(value: string, flag = '--data'): Promise<Record<string, unknown>> {
  const data = await readData(value, flag)
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${flag} must be a JSON object`)
  return data as Record<string, unknown>
}

export { MAX_DATA_BYTES, describeLimit }
