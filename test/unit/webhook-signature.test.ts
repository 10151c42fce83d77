// The webhook signature of the library (client/webhook-signature.ts), which the emulator signs
// its deliveries with, against the known answer.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'

import * as library from '../../src/client/index.js'
import { parseWebhookSignatureHeader, signWebhookPayload, verifyWebhookSignature, webhookSignatureHeader } from '../../src/client/webhook-signature.js'

const secret = 'whsec_localTestSecret'
const body = '{"webhookEventType":"TransactionPaid","event":{"orderId":"ordr_1"}}'
const t = 1_740_823_202

describe('signWebhookPayload', () => {
  it('is the hex HMAC-SHA256 of "<t>.<body>" keyed with the secret', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
    expect(signWebhookPayload(secret, t, body)).toBe(expected)
    expect(signWebhookPayload(secret, t, Buffer.from(body))).toBe(expected)
    expect(webhookSignatureHeader(secret, body, t)).toBe(`t=${t},v1=${expected}`)
  })

  it('refuses a timestamp that is not whole unix seconds', () => {
    expect(() => signWebhookPayload(secret, 1.5, body)).toThrow(RangeError)
    expect(() => signWebhookPayload(secret, -1, body)).toThrow(RangeError)
  })

  it('is exported by the library', () => {
    expect(library.signWebhookPayload).toBe(signWebhookPayload)
    expect(library.verifyWebhookSignature).toBe(verifyWebhookSignature)
    expect(library.WEBHOOK_SIGNATURE_HEADER).toBe('Webhook-Signature')
  })
})

describe('verifyWebhookSignature', () => {
  const header = webhookSignatureHeader(secret, body, t)

  it('accepts the signature of the body within the tolerance', () => {
    expect(verifyWebhookSignature(secret, header, body, { now: t + 299 })).toEqual({ ok: true, timestamp: t })
    expect(verifyWebhookSignature(secret, header, Buffer.from(body), { now: new Date((t - 10) * 1000) })).toEqual({ ok: true, timestamp: t })
  })

  it('refuses a tampered body, another secret or another timestamp', () => {
    expect(verifyWebhookSignature(secret, header, body.replace('ordr_1', 'ordr_2'), { now: t })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
      timestamp: t,
    })
    expect(verifyWebhookSignature('whsec_other', header, body, { now: t })).toMatchObject({ ok: false, reason: 'signature_mismatch' })
    const moved = header.replace(`t=${t}`, `t=${t + 1}`)
    expect(verifyWebhookSignature(secret, moved, body, { now: t })).toMatchObject({ ok: false, reason: 'signature_mismatch' })
  })

  it('refuses a timestamp outside the tolerance, old or in the future', () => {
    expect(verifyWebhookSignature(secret, header, body, { now: t + 301 })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance', timestamp: t })
    expect(verifyWebhookSignature(secret, header, body, { now: t - 301 })).toMatchObject({ reason: 'timestamp_out_of_tolerance' })
    expect(verifyWebhookSignature(secret, header, body, { now: t + 3600, toleranceSeconds: 3601 })).toMatchObject({ ok: true })
  })

  it('refuses headers of the wrong shape', () => {
    for (const bad of [undefined, '', 'v1=abc', `t=${t}`, `t=${t},v1=xyz`, `t=abc,v1=${'0'.repeat(64)}`, `sha256=${'0'.repeat(64)}`]) {
      const result = verifyWebhookSignature(secret, bad, body, { now: t })
      expect(result.ok, String(bad)).toBe(false)
      expect(['malformed_header', 'no_signature'], String(bad)).toContain((result as { reason: string }).reason)
    }
  })

  it('accepts a header with several v1 values when one matches, and ignores unknown keys', () => {
    const good = signWebhookPayload(secret, t, body)
    const rotated = `t=${t},v1=${'a'.repeat(64)},v1=${good},v2=whatever`
    expect(verifyWebhookSignature(secret, rotated, body, { now: t })).toEqual({ ok: true, timestamp: t })
    expect(parseWebhookSignatureHeader(rotated)).toEqual({ timestamp: t, signatures: ['a'.repeat(64), good] })
  })
})
