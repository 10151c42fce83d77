import { describe, expect, it } from 'vitest'
import type { PayResult } from '../../src/client/resources/orders.js'
import type { Order } from '../../src/client/schemas/orders.js'
import type { PayOrderComplete, TransactionDetails } from '../../src/client/schemas/transactions.js'
import { renderList, renderRecord } from '../../src/output/render.js'
import { orderView, payOrderCompleteView, payResultView, transactionView } from '../../src/output/views/index.js'
import type { Column, View } from '../../src/output/view.js'
import { options } from './output-collect.js'

const order: Order = {
  orderId: 'ordr_ZqCNoNcm_22WeZ-j',
  merchantId: 'mcht_LocalMerchant001',
  referenceOrderId: 'INV-1001',
  amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
  description: 'Two teas',
  customerEmailAddress: 'ann@example.com',
  customerPhoneNumber: '+61401234567',
  items: [
    { amount: { minorCurrencyUnits: 625, currency: 'AUD' }, description: 'Tea', quantity: 2 },
    { amount: { minorCurrencyUnits: 0, currency: 'AUD' }, description: 'Bag', quantity: 1 },
  ],
  billing: {
    name: 'Ann Lee',
    phoneNumber: '+61401234567',
    address: { line1: '1 George St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
  },
  metadata: { channel: 'web' },
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:05:00.000Z',
}

const details: TransactionDetails = {
  purchaseDetails: {
    orderId: 'ordr_ZqCNoNcm_22WeZ-j',
    merchantId: 'mcht_LocalMerchant001',
    referenceOrderId: 'INV-1001',
    amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
    surchargeAmount: 0,
    refundedAmount: 500,
    transactionId: 'tran_ZqCNoNcm_22WeZ-j',
    payType: 'PayInFull',
    status: 'partially_refunded',
    refundIds: ['rfnd_A1', 'rfnd_B2'],
    paidOn: '2024-05-01',
    createdAt: '2024-05-01T10:05:00.000Z',
  },
  paymentMethod: { paymentMethodType: 'PayTo', accountHint: '****1234', paymentStatus: 'Settled', paymentFailure: null },
  serviceFees: { totalAmount: 35 },
  timelines: [],
}

const paid: PayOrderComplete = {
  transactionId: 'tran_ZqCNoNcm_22WeZ-j',
  transactionStatus: 'paid',
  transactionDetails: details,
  amount: 1250,
  currency: 'AUD',
  surchargeAmount: 0,
  payType: 'payinfull',
}

async function table<T>(view: View<T>, record: T, columns?: string[]): Promise<string> {
  const o = options('table', { columns })
  await renderRecord(view, record, o)
  return o.text()
}

async function listTable<T>(view: View<T>, records: T[]): Promise<string[]> {
  const o = options('table')
  await renderList(view, records, o)
  return o.text().trimEnd().split('\n')
}

async function csv<T>(view: View<T>, records: T[], columns?: string[]): Promise<string[]> {
  const o = options('csv', { columns })
  await renderList(view, records, o)
  return o.text().trimEnd().split('\n')
}

function keys<T>(columns: Column<T>[]): string[] {
  return columns.map((c) => c.key)
}

describe('orderView', () => {
  it('lists the fields a person needs first, money as 12.50 AUD', async () => {
    expect(keys(orderView.columns)).toEqual([
      'orderId',
      'status',
      'amount',
      'transactionId',
      'referenceOrderId',
      'createdAt',
      'description',
      'customerEmailAddress',
    ])
    const paid = { ...order, status: 'paid', transactionId: 'tran_ZqCNoNcm_22WeZ-j' } as Order
    const [header, line] = await listTable(orderView, [paid])
    expect(header).toMatch(/^Order\s+Status\s+Amount\s+Transaction\s+Reference\s+Created\s+Description\s+Customer email$/)
    expect(line).toMatch(/^ordr_ZqCNoNcm_22WeZ-j\s+paid\s+12\.50 AUD\s+tran_ZqCNoNcm_22WeZ-j\s+INV-1001\s+2024-05-01 10:00:00Z\s+Two teas\s+ann@example\.com$/)
  })

  it('shows JPY without decimals', async () => {
    const [, line] = await listTable(orderView, [{ ...order, amount: { minorCurrencyUnits: 1250, currency: 'JPY' } }])
    expect(line).toContain('1250 JPY')
  })

  it('details every contract field: item count, billing name and address, metadata', async () => {
    const text = await table(orderView, order)
    expect(text).toContain('Merchant         mcht_LocalMerchant001')
    expect(text).toContain('Customer phone   +61401234567')
    expect(text).toContain('Items            2\n')
    expect(text).toContain('Billing name     Ann Lee')
    expect(text).toContain('Billing address  1 George St, Sydney NSW 2000, AU')
    expect(text).toContain('Metadata         {"channel":"web"}')
    expect(text).toContain('Updated          2024-05-01 10:05:00Z')
  })

  it('exports money and the billing address as dot-path CSV columns', async () => {
    const [header, line] = await csv(orderView, [order], ['orderId', 'amount', 'billing.address'])
    expect(header).toBe(
      'orderId,amount.minorCurrencyUnits,amount.currency,billing.address.line1,billing.address.city,billing.address.state,billing.address.postalCode,billing.address.country',
    )
    expect(line).toBe('ordr_ZqCNoNcm_22WeZ-j,1250,AUD,1 George St,Sydney,NSW,2000,AU')
  })

  it('copes with a minimal order (only orderId and amount)', async () => {
    const text = await table(orderView, { orderId: 'ordr_Min', amount: { minorCurrencyUnits: 5, currency: 'NZD' } })
    expect(text).toContain('Amount           0.05 NZD')
    expect(text).toContain('Billing address  -')
  })
})

describe('payOrderCompleteView', () => {
  it('shows the minor-unit amount with its sibling currency, and the payment status from transactionDetails', async () => {
    const [header, line] = await listTable(payOrderCompleteView, [paid])
    expect(header).toMatch(/^Transaction\s+Status\s+Amount\s+Pay type\s+Payment status\s+Paid on$/)
    expect(line).toMatch(/^tran_ZqCNoNcm_22WeZ-j\s+paid\s+12\.50 AUD\s+payinfull\s+Settled\s+2024-05-01$/)
  })

  it('exports the amount as minor units and currency in CSV', async () => {
    const [header, line] = await csv(payOrderCompleteView, [paid], ['transactionId', 'amount', 'paymentStatus'])
    expect(header).toBe('transactionId,amount.minorCurrencyUnits,amount.currency,paymentStatus')
    expect(line).toBe('tran_ZqCNoNcm_22WeZ-j,1250,AUD,Settled')
  })

  it('takes the currency from purchaseDetails when the top-level one is missing', async () => {
    const [, line] = await listTable(payOrderCompleteView, [{ ...paid, amount: 1250, currency: null }])
    expect(line).toContain('12.50 AUD')
  })
})

describe('transactionView', () => {
  it('lists id, status, money, refunded amount, order, paid on, payment status and refund ids', async () => {
    expect(keys(transactionView.columns)).toEqual(['transactionId', 'status', 'amount', 'refundedAmount', 'orderId', 'paidOn', 'paymentStatus', 'refundIds'])
    const [, line] = await listTable(transactionView, [details])
    expect(line).toMatch(
      /^tran_ZqCNoNcm_22WeZ-j\s+partially_refunded\s+12\.50 AUD\s+5\.00 AUD\s+ordr_ZqCNoNcm_22WeZ-j\s+2024-05-01\s+Settled\s+rfnd_A1, rfnd_B2$/,
    )
  })

  it('exports refund ids as JSON text in CSV', async () => {
    const [, line] = await csv(transactionView, [details], ['transactionId', 'refundIds'])
    expect(line).toBe('tran_ZqCNoNcm_22WeZ-j,"[""rfnd_A1"",""rfnd_B2""]"')
  })

  it('details fees and the payment method', async () => {
    const text = await table(transactionView, details)
    expect(text).toContain('Service fees     0.35 AUD')
    expect(text).toContain('Payment method   PayTo')
    expect(text).toContain('Account          ****1234')
  })
})

describe('payResultView', () => {
  const complete: PayResult = { kind: 'PayOrderComplete', transaction: paid }
  const challenge: PayResult = { kind: 'ThreeDSAuthorisationRequired', challenge: { threeDSAuthorisationId: '3ds_abc' } }

  it('prints the bare transaction as JSON when paid, and keeps the envelope of a 3DS challenge', async () => {
    const a = options('json')
    await renderRecord(payResultView, complete, a)
    expect(JSON.parse(a.text())).toEqual(paid)
    const b = options('json')
    await renderRecord(payResultView, challenge, b)
    expect(JSON.parse(b.text())).toEqual({ ThreeDSAuthorisationRequired: { threeDSAuthorisationId: '3ds_abc' } })
  })

  it('shows the outcome and the transaction fields in a table', async () => {
    const text = await table(payResultView, complete)
    expect(text).toContain('Outcome            PayOrderComplete')
    expect(text).toContain('Amount             12.50 AUD')
    expect(text).toContain('3DS authorisation  -')
    const challengeText = await table(payResultView, challenge)
    expect(challengeText).toContain('3DS authorisation  3ds_abc')
    expect(challengeText).toContain('Amount             -')
  })
})
