import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { ConfigError } from '../../src/config/errors.js'
import {
  actingForOf,
  canonicalOrigin,
  credentialFingerprint,
  newOperation,
  operationPath,
  operationSlot,
  readOperation,
  serviceIdentity,
  writeOperation,
} from '../../src/config/operations.js'

describe('the service identity', () => {
  it.each([
    ['http://127.0.0.1:4010', 'http://loopback:4010'],
    ['http://localhost:4010/', 'http://loopback:4010'],
    ['http://[::1]:4010', 'http://loopback:4010'],
    ['http://127.0.0.2:4010', 'http://loopback:4010'],
    ['HTTPS://API.Example.COM', 'https://api.example.com:443'],
    ['https://api.example.com:443/v3//', 'https://api.example.com:443/v3'],
    ['http://api.example.com', 'http://api.example.com:80'],
  ])('writes %s as %s', (url, origin) => {
    expect(canonicalOrigin(url)).toBe(origin)
  })

  const of = (url: string, context: Record<string, string>, key: string, scope?: string) => serviceIdentity(url, actingForOf(context, key, scope))

  it('is the same for every spelling of one service and merchant, whichever key acts for it', () => {
    const a = of('http://127.0.0.1:4010', { merchantId: 'mcht_1' }, 'sandbox_sk_key1')
    const b = of('http://localhost:4010/', { merchantId: 'mcht_1' }, 'sandbox_sk_key1')
    expect(a).toEqual(b)
    // another key with the merchant as context, and a key whose own merchant it is
    expect(of('http://127.0.0.1:4010', { merchantId: 'mcht_1' }, 'sandbox_api_market')).toEqual(a)
    expect(of('http://127.0.0.1:4010', {}, 'sandbox_sk_key2', 'merchant:mcht_1')).toEqual(a)
  })

  it('differs with the port or the merchant, never with a customer context (a header, not what is acted on)', () => {
    const base = of('http://127.0.0.1:4010', { merchantId: 'mcht_1' }, 'sandbox_sk_key1').id
    expect(of('http://127.0.0.1:4011', { merchantId: 'mcht_1' }, 'sandbox_sk_key1').id).not.toBe(base)
    expect(of('http://127.0.0.1:4010', { merchantId: 'mcht_2' }, 'sandbox_sk_key1').id).not.toBe(base)
    expect(of('http://127.0.0.1:4010', { merchantId: 'mcht_1', customerId: 'cust_1' }, 'sandbox_sk_key1').id).toBe(base)
  })

  it('an operation on a transaction is the same whoever acts on it (marketplace or merchant key); a creation is per party', () => {
    const refund = { kind: 'refund', target: 'tran_1', amount: { minorCurrencyUnits: 100, currency: 'AUD' } }
    const merchant = of('http://127.0.0.1:4010', {}, 'sandbox_sk_key1', 'merchant:mcht_1')
    const market = of('http://127.0.0.1:4010', {}, 'sandbox_api_k', 'marketplace:mktp_1')
    expect(operationSlot(market, refund)).toEqual(operationSlot(merchant, refund))
    const payout = { kind: 'payout', target: '', amount: { minorCurrencyUnits: 100, currency: 'AUD' } }
    expect(operationSlot(market, payout)).not.toEqual(operationSlot(merchant, payout))
    expect(operationSlot(of('http://127.0.0.1:4011', {}, 'k', 'merchant:mcht_1'), refund)).not.toEqual(operationSlot(merchant, refund))
  })

  it('is the marketplace for a marketplace context without a merchant, else the key when nothing tells', () => {
    expect(of('http://127.0.0.1:4010', { marketplaceId: 'mktp_1' }, 'sandbox_api_k').actingFor).toBe('marketplace:mktp_1')
    expect(of('http://127.0.0.1:4010', {}, 'sandbox_api_k', 'marketplace:mktp_2').actingFor).toBe('marketplace:mktp_2')
    expect(of('http://127.0.0.1:4010', {}, 'sandbox_sk_k').actingFor).toBe(`key:${credentialFingerprint('sandbox_sk_k')}`)
  })

  it('never holds the credential', () => {
    const identity = of('https://api.example.com', {}, 'live_sk_verySecret')
    expect(JSON.stringify(identity)).not.toContain('verySecret')
  })
})

describe('operation records', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payfac-ops-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const identity = serviceIdentity('http://127.0.0.1:4010', actingForOf({ merchantId: 'mcht_1' }, 'sandbox_sk_key1'))
  const key = { kind: 'refund', target: 'tran_1', amount: { minorCurrencyUnits: 1000, currency: 'aud' } }

  it('are one file per operation, 0600, read back as written', () => {
    const file = operationPath(dir, identity, key)
    expect(operationPath(dir, identity, { ...key, amount: { minorCurrencyUnits: 1000, currency: 'AUD' } })).toBe(file)
    expect(operationPath(dir, identity, { ...key, amount: { minorCurrencyUnits: 999, currency: 'AUD' } })).not.toBe(file)
    expect(readOperation(file)).toBeUndefined()
    const written = writeOperation(file, newOperation(identity, key, { action: 'refund', check: 'payfac transactions get tran_1' }, { refundedAmount: 0 }, 0))
    expect(readOperation(file)).toEqual(written)
    expect(written).toMatchObject({ state: 'sending', amount: { minorCurrencyUnits: 1000, currency: 'AUD' }, doneCount: 0 })
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('refuses a damaged record (exit 3) and leaves it as it is', () => {
    const file = join(dir, 'damaged.json')
    writeFileSync(file, '{"format":')
    expect(() => readOperation(file)).toThrow(ConfigError)
  })
})
