// Golden payloads: the shapes interface-v3.md shows, written out in test/fixtures/golden. The
// client's response schemas must accept them, and the emulator's answers must have exactly
// their keys and JSON types (extra keys only where the contract says more fields exist).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { CustomerUpserted } from '../../src/client/schemas/customers.js'
import { OnlineOrder } from '../../src/client/schemas/orders.js'
import { AgreementSent } from '../../src/client/schemas/payto.js'
import { SignInResult } from '../../src/client/schemas/auth.js'
import { PaymentSource } from '../../src/client/schemas/sources.js'
import { PayToToken } from '../../src/client/schemas/tokens.js'
import { PayOrderComplete, TransactionDetails } from '../../src/client/schemas/transactions.js'
import { WebhookSubscription } from '../../src/client/schemas/webhooks.js'
import { aud, ok, testApp } from './helpers.js'

const GOLDEN = join(__dirname, '../fixtures/golden')
const golden = (name: string): any => JSON.parse(readFileSync(join(GOLDEN, `${name}.json`), 'utf8'))

function kind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/**
 * Differences between the shape of `expected` (a golden payload) and `actual`. Objects must have
 * the same keys, except at `open` paths, where the golden keys must be present and more may be.
 * Arrays: each element of `actual` is compared with the golden element at the same index (or the
 * last golden element).
 */
function shapeDiff(expected: unknown, actual: unknown, open: readonly string[] = [], path = '$'): string[] {
  if (kind(expected) !== kind(actual)) return [`${path}: expected ${kind(expected)}, got ${kind(actual)}`]
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length === 0) return []
    return actual.flatMap((item, i) => shapeDiff(expected[Math.min(i, expected.length - 1)], item, open, `${path}[${i}]`))
  }
  if (kind(expected) !== 'object') return []
  const e = expected as Record<string, unknown>
  const a = actual as Record<string, unknown>
  const problems: string[] = []
  for (const key of Object.keys(e)) {
    if (!(key in a)) problems.push(`${path}.${key}: missing`)
    else problems.push(...shapeDiff(e[key], a[key], open, `${path}.${key}`))
  }
  if (!open.includes(path)) for (const key of Object.keys(a)) if (!(key in e)) problems.push(`${path}.${key}: not in the contract`)
  return problems
}

describe('golden payloads parse with the client’s response schemas', () => {
  const cases: Array<[string, (v: any) => unknown, z.ZodType]> = [
    ['online-order', (v) => v.OnlineOrder, OnlineOrder],
    ['payto-token', (v) => v.PayToToken, PayToToken],
    ['pay-order-complete', (v) => v.PayOrderComplete, PayOrderComplete],
    ['transaction-details-refunded', (v) => v, TransactionDetails],
    ['saved-payment-source', (v) => v, PaymentSource],
    ['sign-in-result', (v) => v, SignInResult],
    ['agreement-sent', (v) => v, AgreementSent],
    ['customer-upserted', (v) => v, CustomerUpserted],
    ['webhook-subscription', (v) => v.WebhookMarketplaceSubscription, WebhookSubscription],
  ]
  it.each(cases)('%s', (name, pick, schema) => {
    const result = schema.safeParse(pick(golden(name)))
    expect(result.success, result.success ? '' : JSON.stringify(result.error.issues)).toBe(true)
  })
})

describe('the emulator answers in the golden shapes', () => {
  const app = testApp()
  const order = golden('online-order').OnlineOrder.order
  const orderBody = {
    referenceOrderId: order.referenceOrderId,
    amount: order.amount,
    description: order.description,
    customerEmailAddress: order.customerEmailAddress,
    customerPhoneNumber: order.customerPhoneNumber,
    items: order.items,
    billing: order.billing,
    metadata: order.metadata,
  }
  const answers: Record<string, unknown> = {}

  const sent = ok(
    app.request('POST', '/payto/agreement', {
      body: {
        customerName: 'Jane Citizen',
        customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
        terms: { AgreementRequestTermsOneOff: { amount: { amount: 12_500, currency: 'AUD' } } },
        purpose: 'Tickets',
      },
    }),
  )
  answers['agreement-sent'] = sent
  app.clock.advance(2)
  answers['payto-token'] = ok(app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(12_500), agreementToken: sent.token } } }))
  answers['online-order'] = ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: orderBody } }))
  const orderId = (answers['online-order'] as any).OnlineOrder.order.orderId
  const paymentTokenId = (answers['payto-token'] as any).PayToToken.paymentTokenId
  answers['pay-order-complete'] = ok(app.request('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } }))
  const transactionId = (answers['pay-order-complete'] as any).PayOrderComplete.transactionId
  answers['transaction-details-refunded'] = ok(app.request('PATCH', `/transactions/${transactionId}`, { body: { CreateRefund: { refundAmount: 12_500 } } }))

  const customer = ok(app.request('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'jane@example.com' } } }))
  answers['customer-upserted'] = customer
  const open = ok(
    app.request('POST', '/payto/agreement', {
      body: {
        customerName: 'Jane Citizen',
        customerAccIdentifier: { Alias: { aliasType: 'Phone', value: '+61412345678' } },
        terms: { AgreementRequestTermsOpen: {} },
        purpose: 'Plan',
      },
    }),
  )
  app.clock.advance(2)
  answers['saved-payment-source'] = ok(
    app.request('POST', '/sources', {
      headers: { 'Customer-Id': customer.customerId },
      body: { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: open.token } }, usageScope: 'ScopeOrganisation' } },
    }),
  )
  const org = ok(app.request('POST', '/customers', { body: { UpsertOrganisationCustomer: { referenceCustomerId: 'ORG-G' } } }))
  const delegate = ok(app.request('POST', '/customers/delegates', { body: { customerId: org.customerId, emailAddress: 'pat@org.example' } }))
  answers['sign-in-result'] = ok(app.request('POST', '/auth/signin', { body: { SignInDelegate: { customerDelegateId: delegate.customerDelegateId } } }))
  answers['api-error'] = (() => {
    ok(app.request('DELETE', `/orders/${ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: orderBody } })).OnlineOrder.order.orderId}`))
    const cancelled = app.store.orders.all().find((o) => o.status === 'cancelled')?.orderId
    return app.request('POST', `/orders/${cancelled}/pay`, { body: { PayByPayTo: { paymentTokenId } } }).body
  })()

  /** Where the contract says a record has more fields than it shows. */
  const OPEN: Record<string, string[]> = { 'online-order': ['$.OnlineOrder.order'], 'api-error': ['$'] }

  it.each(Object.keys(answers))('%s', (name) => {
    expect(shapeDiff(golden(name), answers[name], OPEN[name] ?? [])).toEqual([])
  })

  it('PayOrderComplete carries the same TransactionDetails shape as the refund answer', () => {
    const details = (answers['pay-order-complete'] as any).PayOrderComplete.transactionDetails
    expect(shapeDiff(golden('transaction-details-refunded'), details)).toEqual([])
  })

  it('reports a wrong key or type (the comparison can fail)', () => {
    expect(shapeDiff({ a: 1, b: null }, { a: 1.5, c: 2 })).toEqual(['$.a: expected integer, got number', '$.b: missing', '$.c: not in the contract'])
  })

  it('webhook subscription', () => {
    const subscription = golden('webhook-subscription').WebhookMarketplaceSubscription
    const body = {
      CreateWebhookMarketplaceSubscription: {
        url: subscription.url,
        events: subscription.events,
        description: subscription.description,
        metadata: subscription.metadata,
      },
    }
    const answer = ok(app.request('POST', '/webhooks', { credential: 'sandbox_api_emulatorMarketplaceKey0001', body }))
    expect(shapeDiff(golden('webhook-subscription'), answer)).toEqual([])
  })
})
