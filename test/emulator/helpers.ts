// Builders for emulator tests: an app with a fake clock and seeded ids, and the steps of the
// contract's flows as one-liners.
import { expect } from 'vitest'
import { createEmulatorApp, type AppResponse, type EmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { seededIds } from '../../src/emulator/ids.js'
import { WELL_KNOWN } from '../../src/well-known.js'

export const KEYS = WELL_KNOWN.credentials
export const MERCHANT = WELL_KNOWN.merchantId
export const SUB_MERCHANT = WELL_KNOWN.subMerchantId
export const MARKETPLACE = WELL_KNOWN.marketplaceId

export function testApp(): EmulatorApp {
  return createEmulatorApp({ clock: fakeClock('2025-03-01T10:00:00.000Z'), ids: seededIds('emulator-tests') })
}

export function ok(response: AppResponse, status = 200): any {
  expect(response.status, JSON.stringify(response.body)).toBe(status)
  return response.body
}

export const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })

export function oneOffAgreementBody(amount: number, account = '12345678') {
  return {
    customerName: 'Jane Citizen',
    customerAccIdentifier: { Bban: { value: `062-000 ${account}` } },
    terms: { AgreementRequestTermsOneOff: { amount: { amount, currency: 'AUD' } } },
    purpose: 'Goods',
  }
}

export function openAgreementBody(account = '12345678') {
  return {
    customerName: 'Jane Citizen',
    customerAccIdentifier: { Alias: { aliasType: 'Phone', value: '+61412345678' } },
    terms: { AgreementRequestTermsOpen: {} },
    purpose: 'Subscription',
    ...(account === '12345678' ? {} : { customerAccIdentifier: { Bban: { value: `062000${account}` } } }),
  }
}

/** Sends a one-off agreement, lets it activate, and returns a PayTo token and an order of that amount. */
export function payableOrder(app: EmulatorApp, amount = 10_000): { orderId: string; paymentTokenId: string; agreementToken: string } {
  const agreement = ok(app.request('POST', '/payto/agreement', { body: oneOffAgreementBody(amount) }))
  app.clock.advance(2)
  const token = ok(app.request('POST', '/tokens', { body: { CreatePayToToken: { amount: aud(amount), agreementToken: agreement.token } } }))
  const order = ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(amount), referenceOrderId: 'ref-1' } } }))
  return { orderId: order.OnlineOrder.order.orderId, paymentTokenId: token.PayToToken.paymentTokenId, agreementToken: agreement.token }
}

export function paidTransaction(app: EmulatorApp, amount = 10_000): string {
  const { orderId, paymentTokenId } = payableOrder(app, amount)
  const paid = ok(app.request('POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } }))
  return paid.PayOrderComplete.transactionId
}
