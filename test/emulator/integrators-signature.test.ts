// The webhook signature: HMAC-SHA256 over `${t}.${body}`, sent as `Webhook-Signature: t=…,v1=…`.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { parseSignatureHeader, signPayload, signatureHeader, verifySignature } from '../../src/emulator/webhook-signature.js'

const SECRET = 'whsec_test'
const BODY = '{"webhookEventType":"TransactionPaid","event":{"transactionId":"tran_x"}}'
const T = 1_740_823_200

describe('webhook signatures', () => {
  it('are the hex HMAC-SHA256 of "<t>.<body>" with the secret', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex')
    expect(signPayload(SECRET, T, BODY)).toBe(expected)
    expect(signPayload(SECRET, T, Buffer.from(BODY))).toBe(expected)
    expect(signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=${expected}`)
    expect(() => signPayload(SECRET, 1.5, BODY)).toThrow(RangeError)
  })

  it('verify within the tolerance, and refuse a changed body, another secret or an old timestamp', () => {
    const header = signatureHeader(SECRET, T, BODY)
    expect(verifySignature(SECRET, header, BODY, { now: T + 10 })).toEqual({ ok: true, timestamp: T })
    expect(verifySignature(SECRET, header, Buffer.from(BODY), { now: new Date((T + 10) * 1000) }).ok).toBe(true)
    expect(verifySignature(SECRET, header, `${BODY} `, { now: T })).toEqual({ ok: false, reason: 'signature_mismatch', timestamp: T })
    expect(verifySignature('whsec_other', header, BODY, { now: T }).ok).toBe(false)
    expect(verifySignature(SECRET, header, BODY, { now: T + 301 })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance', timestamp: T })
    expect(verifySignature(SECRET, header, BODY, { now: T + 3600, toleranceSeconds: 7200 }).ok).toBe(true)
    // A replayed body with a fresh timestamp but the old signature does not verify.
    const replayed = header.replace(`t=${T}`, `t=${T + 600}`)
    expect(verifySignature(SECRET, replayed, BODY, { now: T + 600 }).ok).toBe(false)
  })

  it('accept any one of several v1 values, and refuse malformed headers', () => {
    const good = signPayload(SECRET, T, BODY)
    const other = signPayload('whsec_old', T, BODY)
    expect(verifySignature(SECRET, `t=${T},v1=${other},v1=${good}`, BODY, { now: T }).ok).toBe(true)
    expect(verifySignature(SECRET, `t=${T}`, BODY, { now: T })).toEqual({ ok: false, reason: 'no_signature', timestamp: T })
    for (const bad of [undefined, '', 'v1=abc', `t=soon,v1=${good}`, `t=${T},v1=nothex`, `t=${T},t=${T},v1=${good}`, 'garbage']) {
      expect(verifySignature(SECRET, bad, BODY, { now: T }), String(bad)).toEqual({ ok: false, reason: 'malformed_header' })
    }
    expect(parseSignatureHeader(`t=${T}, v1=${good}, v0=ignored`)).toEqual({ timestamp: T, signatures: [good] })
  })
})
