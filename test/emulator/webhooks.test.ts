// Webhook subscriptions over HTTP: the level follows the credential, https only, the contract's
// record shape under its envelope key (in lists too), list filters, status updates; and
// matchingSubscriptions(). How the level is derived whatever the action: choices.test.ts.
import { describe, expect, it } from 'vitest'
import { emptyStore } from '../../src/emulator/store.js'
import { matchingSubscriptions } from '../../src/emulator/resources/webhooks.js'
import { KEYS, MARKETPLACE, MERCHANT, SUB_MERCHANT } from './helpers.js'
import { asMarketplace, expectError, unanswered, useHttpEmulator } from './money-http.js'
import { routesUnder } from './contract-routes.js'

const http = useHttpEmulator()

/** The record of a list entry, which is a subscription under its envelope key like every other answer. */
const bare = (envelope: Record<string, any>) => {
  expect(Object.keys(envelope)).toHaveLength(1)
  return Object.values(envelope)[0]
}

const fields = { url: 'https://hooks.example.com/payfac', events: ['MerchantCreated'], description: 'Onboarding events', metadata: { team: 'onboarding' } }

describe('creating subscriptions', () => {
  it('makes a marketplace-level subscription with the marketplace API key, in the contract’s shape', async () => {
    const answer = await http.ok('POST', '/webhooks', { ...asMarketplace, body: { CreateWebhookMarketplaceSubscription: fields } })
    expect(Object.keys(answer)).toEqual(['WebhookMarketplaceSubscription'])
    const s = answer.WebhookMarketplaceSubscription
    expect(s).toEqual({
      id: expect.stringMatching(/^webhook_[A-Za-z0-9_-]{16}$/),
      marketplaceId: MARKETPLACE,
      url: fields.url,
      events: ['MerchantCreated'],
      description: 'Onboarding events',
      metadata: { team: 'onboarding' },
      status: 'Active',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{32}$/),
    })
  })

  it('makes merchant-level subscriptions with merchant credentials, or the marketplace key and Merchant-Id', async () => {
    const own = (
      await http.ok('POST', '/webhooks', {
        body: { CreateWebhookMerchantSubscription: { url: 'https://merchant.example/hooks', events: ['TransactionPaid', 'TransactionPaid'] } },
      })
    ).WebhookMerchantSubscription
    expect(own).toMatchObject({ merchantId: MERCHANT, events: ['TransactionPaid'], description: null, metadata: null, status: 'Active' })
    expect(own.marketplaceId).toBeUndefined()
    const sub = await http.ok('POST', '/webhooks', {
      ...asMarketplace,
      headers: { 'Merchant-Id': SUB_MERCHANT },
      body: { CreateWebhookMerchantSubscription: { url: 'https://sub.example/hooks', events: ['*'] } },
    })
    expect(sub.WebhookMerchantSubscription.merchantId).toBe(SUB_MERCHANT)
  })

  it('refuses a public key (403)', async () => {
    expectError(
      await http.call('POST', '/webhooks', { credential: KEYS.merchantPublicKey, body: { CreateWebhookMerchantSubscription: fields } }),
      403,
      'credential_not_allowed',
    )
  })

  it('refuses a url that is not https, and bad events (400)', async () => {
    for (const url of ['http://hooks.example.com/payfac', 'ftp://hooks.example.com/', 'hooks.example.com', '']) {
      expectError(await http.call('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { ...fields, url } } }), 400, 'invalid_request')
    }
    expectError(
      await http.call('POST', '/webhooks', { body: { CreateWebhookMerchantSubscription: { ...fields, events: ['merchant created'] } } }),
      400,
      'invalid_request',
    )
    expectError(await http.call('POST', '/webhooks', { body: { CreateWebhookSubscription: fields } }), 400, 'unknown_action')
  })
})

describe('reading and updating subscriptions', () => {
  it('lists what the caller may see, with merchantId, marketplaceId and status filters and page headers', async () => {
    const levels = (list: Array<Record<string, any>>) =>
      list
        .map(bare)
        .map((s) => s.marketplaceId ?? s.merchantId)
        .sort()
    expect(levels(await http.ok('GET', '/webhooks'))).toEqual([MERCHANT])
    const all = await http.call('GET', '/webhooks?limit=2', asMarketplace)
    expect(all.headers.get('total-record-count')).toBe('3')
    expect(all.headers.get('page-count')).toBe('2')
    expect(levels(await http.ok('GET', `/webhooks?marketplaceId=${MARKETPLACE}`, asMarketplace))).toEqual([MARKETPLACE])
    expect(levels(await http.ok('GET', `/webhooks?merchantId=${SUB_MERCHANT}&merchantId=${MERCHANT}`, asMarketplace))).toEqual([MERCHANT, SUB_MERCHANT].sort())
    expect(levels(await http.ok('GET', '/webhooks', { ...asMarketplace, headers: { 'Merchant-Id': SUB_MERCHANT } }))).toEqual([SUB_MERCHANT])
    expect(await http.ok('GET', '/webhooks?status=Suspended', asMarketplace)).toEqual([])
  })

  it('gets one under its envelope key, and hides others’ subscriptions (404)', async () => {
    const [entry] = await http.ok('GET', '/webhooks')
    const mine = entry.WebhookMerchantSubscription
    expect(await http.ok('GET', `/webhooks/${mine.id}`)).toEqual(entry)
    const [marketplaceLevel] = await http.ok('GET', `/webhooks?marketplaceId=${MARKETPLACE}`, asMarketplace)
    expect(Object.keys(marketplaceLevel)).toEqual(['WebhookMarketplaceSubscription'])
    expect(await http.ok('GET', `/webhooks/${marketplaceLevel.WebhookMarketplaceSubscription.id}`, asMarketplace)).toEqual(marketplaceLevel)
    expectError(await http.call('GET', `/webhooks/${marketplaceLevel.WebhookMarketplaceSubscription.id}`), 404, 'not_found')
    expectError(await http.call('GET', '/webhooks/webhook_doesNotExist00'), 404, 'not_found')
  })

  it('suspends and reactivates with UpdateWebhookSubscriptionStatus; other statuses are refused (400)', async () => {
    const mine = bare((await http.ok('GET', '/webhooks'))[0])
    const suspended = await http.ok('PATCH', `/webhooks/${mine.id}`, { body: { UpdateWebhookSubscriptionStatus: { status: 'Suspended' } } })
    expect(suspended.WebhookMerchantSubscription).toMatchObject({ id: mine.id, status: 'Suspended', secret: mine.secret })
    expect((await http.ok('GET', '/webhooks?status=Suspended')).map((s: Record<string, any>) => bare(s).id)).toEqual([mine.id])
    expectError(await http.call('PATCH', `/webhooks/${mine.id}`, { body: { UpdateWebhookSubscriptionStatus: { status: 'Paused' } } }), 400, 'invalid_request')
    const active = await http.ok('PATCH', `/webhooks/${mine.id}`, { body: { UpdateWebhookSubscriptionStatus: { status: 'Active' } } })
    expect(active.WebhookMerchantSubscription.status).toBe('Active')
  })
})

describe('matchingSubscriptions', () => {
  it('picks Active subscriptions of the event’s merchant, or of its marketplace, that name the event or *', () => {
    const store = emptyStore()
    const base = { url: 'https://x.example', description: null, metadata: null, secret: 'whsec_x', createdAt: '', updatedAt: '' }
    store.webhookSubscriptions.set('a', {
      ...base,
      id: 'a',
      level: 'Merchant',
      merchantId: 'mcht_1',
      marketplaceId: null,
      events: ['TransactionPaid'],
      status: 'Active',
    })
    store.webhookSubscriptions.set('b', {
      ...base,
      id: 'b',
      level: 'Merchant',
      merchantId: 'mcht_2',
      marketplaceId: null,
      events: ['TransactionPaid'],
      status: 'Active',
    })
    store.webhookSubscriptions.set('c', { ...base, id: 'c', level: 'Marketplace', merchantId: null, marketplaceId: 'mktp_1', events: ['*'], status: 'Active' })
    store.webhookSubscriptions.set('d', {
      ...base,
      id: 'd',
      level: 'Merchant',
      merchantId: 'mcht_1',
      marketplaceId: null,
      events: ['TransactionPaid'],
      status: 'Suspended',
    })
    store.webhookSubscriptions.set('e', {
      ...base,
      id: 'e',
      level: 'Merchant',
      merchantId: 'mcht_1',
      marketplaceId: null,
      events: ['PayoutPaid'],
      status: 'Active',
    })
    const ids = (event: Parameters<typeof matchingSubscriptions>[1]) => matchingSubscriptions(store, event).map((s) => s.id)
    expect(ids({ merchantId: 'mcht_1', marketplaceId: 'mktp_1', eventType: 'TransactionPaid' })).toEqual(['a', 'c'])
    expect(ids({ merchantId: 'mcht_1', marketplaceId: null, eventType: 'PayoutPaid' })).toEqual(['e'])
    expect(ids({ merchantId: null, marketplaceId: 'mktp_2', eventType: 'MerchantCreated' })).toEqual([])
  })
})

describe('coverage', () => {
  it('answered 2xx over HTTP on every webhook operation', () => {
    expect(unanswered(http, routesUnder('/webhooks'))).toEqual([])
  })
})
