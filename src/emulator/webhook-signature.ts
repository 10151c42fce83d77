// How the emulator signs webhook deliveries, and how a receiver checks them. Pure functions,
// node:crypto only, so that `payfac webhooks verify` and any receiver can reuse them.
//
// One header carries the signature:
//
//   Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
//
// where the HMAC is keyed with the subscription's `secret` and computed over
// `${t}.${rawBody}` (the exact bytes of the body as sent). `t` is the sender's wall-clock time,
// so a receiver can refuse a signature older than its tolerance (a replay). A header may hold
// several `v1=` values (for example while a secret is being rotated); one match is enough.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** Name of the header that carries the signature. */
export const SIGNATURE_HEADER = 'Webhook-Signature'

/** Signatures older (or newer) than this are refused by default: five minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300

/** Hex HMAC-SHA256 of `${timestamp}.${body}` with `secret`. */
export function signPayload(secret: string, timestamp: number, body: string | Buffer): string {
  if (!Number.isInteger(timestamp) || timestamp < 0) throw new RangeError(`The timestamp must be whole unix seconds, not ${timestamp}`)
  const hmac = createHmac('sha256', secret)
  hmac.update(`${timestamp}.`)
  hmac.update(body)
  return hmac.digest('hex')
}

/** The value of the `Webhook-Signature` header for a body sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string | Buffer): string {
  return `t=${timestamp},v1=${signPayload(secret, timestamp, body)}`
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed_header' | 'no_signature' | 'timestamp_out_of_tolerance' | 'signature_mismatch'; timestamp?: number }

export interface VerifyOptions {
  /** How far `t` may be from `now`, in seconds. Default 300. */
  toleranceSeconds?: number
  /** The receiver's time: unix seconds, or a Date. Default: the machine's clock. */
  now?: number | Date
}

/** Splits `t=…,v1=…[,v1=…]`; undefined when it is not that shape. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const eq = part.indexOf('=')
    if (eq <= 0) return undefined
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined) return undefined
      timestamp = Number(value)
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return undefined
      signatures.push(value.toLowerCase())
    }
    // Other keys (future schemes) are ignored.
  }
  if (timestamp === undefined) return undefined
  return { timestamp, signatures }
}

/**
 * Checks a `Webhook-Signature` header against the raw body: the timestamp must be within the
 * tolerance of `now`, and one `v1` value must equal the HMAC (compared in constant time).
 */
export function verifySignature(secret: string, header: string | undefined, body: string | Buffer, options: VerifyOptions = {}): VerifyResult {
  if (!header) return { ok: false, reason: 'malformed_header' }
  const parsed = parseSignatureHeader(header)
  if (!parsed) return { ok: false, reason: 'malformed_header' }
  if (parsed.signatures.length === 0) return { ok: false, reason: 'no_signature', timestamp: parsed.timestamp }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  const now = options.now === undefined ? Date.now() / 1000 : options.now instanceof Date ? options.now.getTime() / 1000 : options.now
  if (Math.abs(now - parsed.timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance', timestamp: parsed.timestamp }
  const expected = Buffer.from(signPayload(secret, parsed.timestamp, body), 'hex')
  const match = parsed.signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'hex')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
  return match ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'signature_mismatch', timestamp: parsed.timestamp }
}
