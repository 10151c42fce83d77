// Identifiers given on the command line. The contract calls them opaque, `<prefix>_<opaque>`:
// payfac checks the prefix, that something follows it, and that what follows is URL-safe
// (letters, digits, `-` and `_`, the characters of the ids the service issues), so an id can
// never change the path it is put in. Its length is the service's business: a longer or shorter
// id is sent as given, and an id the service does not know is its 404 (exit 5), not a usage
// error. Light: loaded for every command.
import { UsageError } from '../errors/index.js'

const OPAQUE = /^[A-Za-z0-9_-]+$/
const HINT = 'Copy the id from a list or get command'

/** The prefixes whose records are found by the order's own reference (referenceOrderId). */
const BY_REFERENCE = new Set(['ordr', 'tran'])

/**
 * What to do instead: text that is no id at all (no `word_` prefix) given for an order or a
 * transaction is most likely the merchant's own order number, which `orders list --reference` finds.
 */
function hintFor(value: string, prefix: string): string {
  if (!BY_REFERENCE.has(prefix) || /^[a-z]+_/.test(value) || !OPAQUE.test(value)) return HINT
  return `"${value}" looks like your own order reference, not an id: find it with payfac orders list --reference ${value}`
}

/** An identifier with its resource's prefix (`ordr_…`), trimmed; a UsageError naming `what` otherwise. */
export function checkPrefix(input: string, prefix: string, what: string): string {
  const value = input.trim()
  const rest = value.slice(prefix.length + 1)
  if (!value.startsWith(`${prefix}_`)) throw new UsageError(`${what} must start with "${prefix}_" (got "${input}")`, hintFor(value, prefix))
  if (rest === '') throw new UsageError(`${what} has nothing after its prefix "${prefix}_"`, HINT)
  if (!OPAQUE.test(rest)) {
    throw new UsageError(`${what} may hold only letters, digits, - and _ after "${prefix}_" (got "${input}")`, HINT)
  }
  return value
}
