// Limits on what a request body may hold, checked on the text BEFORE it is parsed, validated or
// stored, so that no request can put into the state something that makes later requests fail
// (a value nested thousands deep cannot be serialised again: JSON.stringify runs out of stack)
// or that makes the emulator grow without bound (a few requests of 11 MB strings).
//
// The numbers are the emulator's own (the contract publishes none) and are far above what any
// real body of the service needs: documented in docs/emulator.md ("Limits").
import { EmulatorError } from './api-error.js'

/** Largest JSON body of a contract operation (bytes). Uploads (multipart) have their own, larger cap. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024
/** Deepest nesting of objects and arrays in a JSON body, the envelope included. */
export const MAX_JSON_DEPTH = 32
/** Longest string (a value or a key) in a JSON body, in characters as written (escapes count as written). */
export const MAX_STRING_CHARS = 64 * 1024
/** Most values (objects, arrays, strings, numbers, literals) in one JSON body. */
export const MAX_JSON_VALUES = 20_000
/** Largest form field (a multipart part that is not a file), in bytes. */
export const MAX_FORM_FIELD_BYTES = 64 * 1024
/** Most parts in one multipart body. */
export const MAX_FORM_PARTS = 50

export interface JsonLimits {
  maxBytes: number
  maxDepth: number
  maxStringChars: number
  maxValues: number
}

export const JSON_LIMITS: JsonLimits = {
  maxBytes: MAX_JSON_BODY_BYTES,
  maxDepth: MAX_JSON_DEPTH,
  maxStringChars: MAX_STRING_CHARS,
  maxValues: MAX_JSON_VALUES,
}

const tooLarge = (errorCode: string, message: string, detail: string) => new EmulatorError(413, errorCode, message, { detail })

/**
 * Checks the text of a JSON body against the limits in one pass, without parsing it: a 413 for a
 * body, a string or a count of values too large, a 400 `json_too_deep` for nesting too deep.
 * Text that is not JSON passes through (JSON.parse reports it); the scanner only needs brackets,
 * quotes and escapes to be where JSON puts them.
 */
export function checkJsonLimits(text: string, limits: JsonLimits = JSON_LIMITS): void {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > limits.maxBytes) {
    throw tooLarge(
      'payload_too_large',
      `The JSON body is larger than ${limits.maxBytes} bytes`,
      `${bytes} bytes received; file uploads use multipart/form-data and may be larger`,
    )
  }
  // path[i]: the key or index being read at depth i+1 (for messages only).
  const path: Array<string | number> = []
  let depth = 0
  let values = 0
  let lastString = ''
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22 /* " */) {
      const start = i + 1
      i = start
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === 0x5c /* \ */) i += 2
        else if (d === 0x22) break
        else i++
      }
      const length = i - start
      if (length > limits.maxStringChars) {
        throw tooLarge(
          'string_too_large',
          `A string in the body is longer than ${limits.maxStringChars} characters`,
          `at ${describe(path)}: ${length} characters`,
        )
      }
      // Remember a short string: it may be a key (a ':' follows).
      lastString = length <= 64 ? text.slice(start, i) : `${text.slice(start, start + 61)}...`
      values++
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++
      values++
      if (depth > limits.maxDepth) {
        throw new EmulatorError(400, 'json_too_deep', `The body nests objects and arrays more than ${limits.maxDepth} deep`, { detail: `at ${describe(path)}` })
      }
      path.push(c === 0x5b ? 0 : '')
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) {
        depth--
        path.pop()
      }
    } else if (c === 0x3a /* : */) {
      // The string just read was a key: it names the value that follows.
      if (depth > 0) {
        path[depth - 1] = lastString
        values--
      }
    } else if (c === 0x2c /* , */) {
      const top = path[depth - 1]
      if (typeof top === 'number') path[depth - 1] = top + 1
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d /* - */ || c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */) {
      // A number or a literal: count it once, then skip to its end.
      values++
      while (i + 1 < n && /[0-9a-zA-Z.+-]/.test(text[i + 1] as string)) i++
    }
    if (values > limits.maxValues) {
      throw tooLarge('too_many_values', `The body holds more than ${limits.maxValues} values`, `at ${describe(path)}`)
    }
  }
}

/** `CreateOnlineOrder.items[3].sku` from the scanner's path. */
function describe(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return 'the top level'
  let out = ''
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part
  return out || 'the top level'
}
