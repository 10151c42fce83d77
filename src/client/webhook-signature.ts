// Webhook signatures: how a delivery is signed, and how a receiver checks one. Pure functions,
// node:crypto only, for integrators (`import { verifyWebhookSignature } from 'payfac'`), for
// `payfac webhooks listen` and `payfac webhooks verify`, and for the emulator's deliveries.
//
// The contract gives every subscription a `secret` but does not say how it is used; the emulator
// defines the scheme (docs/emulator.md, "Signatures") and this module implements the same one:
//
//   Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
//
// The HMAC is keyed with the subscription's secret and computed over `${t}.` followed by the raw
// body, byte for byte as sent. `t` is the sender's wall-clock time, so a receiver can refuse a
// signature older than its tolerance (a replay). A header may carry several `v1` values (while a
// secret is rotated); one match is enough. Keys other than `t` and `v1` are ignored.
import { createRequire } from 'node:module'

// node:crypto is loaded when a signature is first made or checked, not whenever the client is.
let loaded: typeof import('node:crypto') | undefined
const nodeCrypto = () => (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'))

/** The header that carries the signature. */
export const WEBHOOK_SIGNATURE_HEADER = 'Webhook-Signature'

/** A signature further than this from the receiver's clock is refused by default: five minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300

/** Why a signature was refused. */
export type WebhookSignatureFailure =
  /** no header, or not `t=<unix>,v1=<64 hex digits>` */
  | 'malformed_header'
  /** a `t` but no `v1` value */
  | 'no_signature'
  /** `t` is further from the receiver's clock than the tolerance */
  | 'timestamp_out_of_tolerance'
  /** no `v1` value is the HMAC of this body with this secret */
  | 'signature_mismatch'

export type WebhookSignatureResult = { ok: true; timestamp: number } | { ok: false; reason: WebhookSignatureFailure; timestamp?: number }

export interface VerifyWebhookOptions {
  /** How far `t` may be from `now`, in seconds (either way). Default 300. */
  toleranceSeconds?: number | undefined
  /** The receiver's time: unix seconds, or a Date. Default: the machine's clock. */
  now?: number | Date | undefined
}

/** Hex HMAC-SHA256, keyed with `secret`, of `${timestamp}.` followed by the body. */
export function signWebhookPayload(secret: string, timestamp: number, body: string | Uint8Array): string {
  if (!Number.isInteger(timestamp) || timestamp < 0) throw new RangeError(`The timestamp must be whole unix seconds, not ${timestamp}`)
  const hmac = nodeCrypto().createHmac('sha256', secret)
  hmac.update(`${timestamp}.`)
  hmac.update(body)
  return hmac.digest('hex')
}

/** The `Webhook-Signature` value for a body sent at `timestamp` (unix seconds; default now). */
export function webhookSignatureHeader(secret: string, body: string | Uint8Array, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${signWebhookPayload(secret, timestamp, body)}`
}

/** `t=…,v1=…[,v1=…]` split into its parts; undefined when the header is not that shape. */
export function parseWebhookSignatureHeader(header: string): { timestamp: number; signatures: string[] } | undefined {
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
  }
  if (timestamp === undefined) return undefined
  return { timestamp, signatures }
}

/**
 * Checks a `Webhook-Signature` header against the raw body: `t` must be within the tolerance of
 * `now`, and one `v1` value must equal the HMAC (compared in constant time). Verify the bytes as
 * received, before parsing: JSON serialised again will not match.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): WebhookSignatureResult {
  if (!header) return { ok: false, reason: 'malformed_header' }
  const parsed = parseWebhookSignatureHeader(header)
  if (!parsed) return { ok: false, reason: 'malformed_header' }
  if (parsed.signatures.length === 0) return { ok: false, reason: 'no_signature', timestamp: parsed.timestamp }
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS
  const now = options.now === undefined ? Date.now() / 1000 : options.now instanceof Date ? options.now.getTime() / 1000 : options.now
  if (Math.abs(now - parsed.timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance', timestamp: parsed.timestamp }
  const expected = Buffer.from(signWebhookPayload(secret, parsed.timestamp, body), 'hex')
  const match = parsed.signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'hex')
    return given.length === expected.length && nodeCrypto().timingSafeEqual(given, expected)
  })
  return match ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'signature_mismatch', timestamp: parsed.timestamp }
}

/** One sentence for a refused signature, for people. */
export function describeWebhookSignatureFailure(reason: WebhookSignatureFailure): string {
  switch (reason) {
    case 'malformed_header':
      return `bad format: the header must be "t=<unix seconds>,v1=<64 hex digits>"`
    case 'no_signature':
      return 'bad format: the header has a timestamp but no v1 signature'
    case 'timestamp_out_of_tolerance':
      return 'the timestamp is outside the tolerance (an old or replayed delivery, or a clock far off)'
    case 'signature_mismatch':
      return 'wrong signature: the body, the timestamp or the secret is not the one signed'
  }
}
