// `payfac webhooks verify`: checks a delivery's `Webhook-Signature` against its raw body, with
// the algorithm of src/client/webhook-signature.ts (the one the emulator signs with).
import { describeWebhookSignatureFailure, verifyWebhookSignature } from '../../client/webhook-signature.js'
import { RefusedError, UsageError } from '../errors/index.js'
import { readStdinBounded } from '../files/bounded-input.js'
import { formatElapsed } from '../terminal/wait.js'

/** The longest webhook body read, here and by `webhooks listen` (webhook-receiver.ts): 16 MiB. */
export const MAX_WEBHOOK_BODY_BYTES = 16 * 1024 * 1024

/** All of stdin as bytes, untouched (a signature is over the exact bytes), at most 16 MiB as `webhooks listen` reads. Refuses a terminal. */
export async function readRawStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<Buffer> {
  if (stdin.isTTY)
    throw new UsageError(
      'webhooks verify reads the raw body on stdin, but stdin is a terminal',
      'Pipe or redirect the body: payfac webhooks verify … < body.json',
    )
  return readStdinBounded(
    { flag: 'webhooks verify', limit: MAX_WEBHOOK_BODY_BYTES, what: 'a webhook body', hint: 'A delivery is never that long: check what is piped in' },
    stdin,
  )
}

export interface SignatureCheck {
  valid: true
  /** The `t` of the header, unix seconds, and as a timestamp. */
  timestamp: number
  signedAt: string
  bodyBytes: number
}

/** The check as a record, or a RefusedError (exit 6) saying why the signature is refused. */
export function checkSignature(secret: string, header: string, body: Buffer, toleranceMs: number, nowMs: number = Date.now()): SignatureCheck {
  const result = verifyWebhookSignature(secret, header.trim(), body, { toleranceSeconds: toleranceMs / 1000, now: nowMs / 1000 })
  if (result.ok) return { valid: true, timestamp: result.timestamp, signedAt: new Date(result.timestamp * 1000).toISOString(), bodyBytes: body.length }
  let reason = describeWebhookSignatureFailure(result.reason)
  if (result.reason === 'timestamp_out_of_tolerance' && result.timestamp !== undefined) {
    const offset = nowMs - result.timestamp * 1000
    reason = `the timestamp is ${formatElapsed(Math.abs(offset))} ${offset >= 0 ? 'old' : 'in the future'}, outside the tolerance of ${formatElapsed(toleranceMs)} (an old or replayed delivery, or a clock far off)`
  }
  return refuse(reason)
}

function refuse(reason: string): never {
  throw new RefusedError(`Signature refused: ${reason}`)
}
