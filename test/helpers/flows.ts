// Builders for the states command tests start from, made with commands (through `payfac api`
// where the topic's own commands are not the ones under test): a customer, emulator time moved
// on, an Active PayTo agreement, an order paid by PayTo.
import { toMinorUnits } from '../../src/client/money.js'
import type { Json } from './command-harness.js'

let serial = 0

/** A consumer customer with an e-mail address of its own; `verified` sets isVerified (KYC passed or not). */
export async function newCustomer(json: Json, options: { verified?: boolean } = {}): Promise<string> {
  const customer = { emailAddress: `customer${++serial}@example.com`, ...(options.verified === undefined ? {} : { isVerified: options.verified }) }
  return (await json('api', 'POST', '/customers', '--data', JSON.stringify({ UpsertConsumerCustomer: customer }))).customerId
}

/** Moves emulator time on. */
export async function advanceClock(json: Json, seconds: number): Promise<void> {
  await json('api', 'POST', '/simulation', '--data', JSON.stringify({ AdvanceClock: { seconds } }))
}

/**
 * The token of a PayTo agreement the customer has approved (sent, then emulator time moved past
 * the approval delay): one-off for `oneOff` minor units of AUD, or open.
 */
export async function activeAgreement(json: Json, terms: { oneOff: number } | 'open'): Promise<string> {
  const sent = await json(
    'api',
    'POST',
    '/payto/agreement',
    '--data',
    JSON.stringify({
      customerName: 'Jo Citizen',
      customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
      terms: terms === 'open' ? { AgreementRequestTermsOpen: {} } : { AgreementRequestTermsOneOff: { amount: { amount: terms.oneOff, currency: 'AUD' } } },
      purpose: 'Command test',
    }),
  )
  await advanceClock(json, 5)
  return sent.token
}

/** An order of `amount` AUD (such as '12.50') with a reference of its own, paid by PayTo: agreement, token, order, pay. */
export async function paidByPayTo(json: Json, amount: string, referencePrefix = 'paid') {
  const agreement = await activeAgreement(json, { oneOff: toMinorUnits(amount, 'AUD') })
  const token = await json('tokens', 'create', '--payto', '--agreement', agreement, '--amount', amount, '--currency', 'AUD')
  const reference = `${referencePrefix}-${++serial}`
  const order = await json('orders', 'create', '--amount', amount, '--currency', 'AUD', '--reference', reference)
  const paid = await json('orders', 'pay', order.orderId, '--token', token.paymentTokenId)
  return { transactionId: paid.transactionId as string, orderId: order.orderId as string, reference }
}
