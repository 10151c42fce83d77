// The contract's single-key envelopes: `{ "CreateRefund": { ... } }`, `{ "PayOrderComplete": { ... } }`.
// Every place in the client that builds or opens one goes through here.
import { InvalidInputError } from './errors.js'

/**
 * A body that is not a well-formed single-key envelope. It is an InvalidInputError because the
 * envelopes a caller hands in are input; the client turns a malformed answer into a
 * ResponseFormatError instead.
 */
export class EnvelopeError extends InvalidInputError {
  override name = 'EnvelopeError'
  /** The keys found, for diagnostics (never values). */
  readonly keys: string[]

  constructor(message: string, keys: string[]) {
    super(message, 'Send an object with exactly one key naming the action, such as {"CreateRefund": {...}}.')
    this.keys = keys
  }
}

/** An opened envelope: the discriminator and what it held. */
export interface Unwrapped<K extends string = string, V = unknown> {
  kind: K
  value: V
}

/** `wrap('CreateRefund', { refundAmount: 500 })` → `{ CreateRefund: { refundAmount: 500 } }`. */
export function wrap<K extends string, V>(kind: K, value: V): { [P in K]: V } {
  if (!kind) throw new EnvelopeError('An envelope needs a non-empty key', [])
  return { [kind]: value } as { [P in K]: V }
}

/** True when `body` is a plain object with exactly one key. */
export function isEnvelope(body: unknown): body is Record<string, unknown> {
  return isPlainObject(body) && Object.keys(body).length === 1
}

/** Opens a single-key envelope; throws EnvelopeError unless `body` is an object with exactly one key. */
export function unwrap<V = unknown>(body: unknown): Unwrapped<string, V> {
  if (!isPlainObject(body)) {
    throw new EnvelopeError(`Expected an object with exactly one key, got ${describe(body)}`, [])
  }
  const keys = Object.keys(body)
  if (keys.length !== 1) {
    const found = keys.length === 0 ? 'no keys' : `${keys.length} keys (${keys.join(', ')})`
    throw new EnvelopeError(`Expected an object with exactly one key, got ${found}`, keys)
  }
  const kind = keys[0] as string
  return { kind, value: body[kind] as V }
}

/** Like unwrap, and also requires the key to be one of `kinds`. */
export function unwrapOneOf<K extends string, V = unknown>(body: unknown, kinds: readonly K[]): Unwrapped<K, V> {
  const opened = unwrap<V>(body)
  if (!(kinds as readonly string[]).includes(opened.kind)) {
    throw new EnvelopeError(`Expected one of ${kinds.join(', ')}, got "${opened.kind}"`, [opened.kind])
  }
  return opened as Unwrapped<K, V>
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
