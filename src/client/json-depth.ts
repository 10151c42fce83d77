// How deep a JSON text nests, checked on the text before it is parsed. JSON.parse itself takes any
// depth, but what comes after (printing it, --query, redacting, the schemas) recurses once a
// level, and a value a few thousand levels deep runs JavaScript out of stack: a RangeError, exit 1.
// The deepest answer of the contract nests under ten levels, so payfac takes at most
// MAX_JSON_DEPTH: an answer deeper than that is the service's fault (exit 7), a body of ours
// (`--data`) or a row of a file a usage error (exit 2). Pure: no I/O.

/** The most objects and arrays a JSON text may nest, the outermost included: 256. */
export const MAX_JSON_DEPTH = 256

/** The bytes of JSON's structure, for scanners that read JSON as bytes (this one, a report's stream). */
export const JSON_BYTE = { quote: 0x22, backslash: 0x5c, openObject: 0x7b, closeObject: 0x7d, openArray: 0x5b, closeArray: 0x5d } as const
const { quote: QUOTE, backslash: BACKSLASH, openObject: OPEN_OBJECT, closeObject: CLOSE_OBJECT, openArray: OPEN_ARRAY, closeArray: CLOSE_ARRAY } = JSON_BYTE

/** Whether `text` nests objects and arrays more than `limit` deep (brackets inside strings do not count). */
export function jsonDepthOver(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  // Cheap way out: a text with no more opening brackets than the limit cannot nest deeper.
  let opening = 0
  for (let at = text.indexOf('{'); at >= 0 && opening <= limit; at = text.indexOf('{', at + 1)) opening++
  for (let at = text.indexOf('['); at >= 0 && opening <= limit; at = text.indexOf('[', at + 1)) opening++
  if (opening <= limit) return false
  // Scanned as UTF-8 bytes: about twice as fast as charCodeAt, and the bytes of `"`, `\`, brackets
  // never occur inside a multi-byte character.
  return jsonBytesDepthOver([Buffer.from(text, 'utf8')], limit)
}

/** The same over the UTF-8 bytes of a JSON text, in chunks as they arrived (a list page before it is decoded). */
export function jsonBytesDepthOver(chunks: readonly Uint8Array[], limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  let escaped = false
  for (const bytes of chunks) {
    const n = bytes.length
    for (let i = 0; i < n; i++) {
      const c = bytes[i] as number
      if (inString) {
        if (escaped) escaped = false
        else if (c === BACKSLASH) escaped = true
        else if (c === QUOTE) inString = false
      } else if (c === QUOTE) inString = true
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++depth > limit) return true
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--
    }
  }
  return false
}
