// Payment tokens: the answer of `POST /tokens` (contract: Resources → Payment token (PayTo); the
// saved-source variant from the field notes), a token record (`GET /tokens/{id}`, field notes), and
// a surcharge quote (fields the emulator defines).
import type { TokenResult } from '../../client/resources/tokens.js'
import type { PaymentToken } from '../../client/schemas/tokens.js'
import { defineView, type Column } from '../view.js'

type Loose = Record<string, unknown>
const field = (r: TokenResult, name: string): unknown => (r.token as Loose)[name]
const amountCurrency = (r: TokenResult) => (field(r, 'amount') as { currency?: string } | undefined)?.currency

const t = {
  paymentTokenId: { key: 'paymentTokenId', header: 'Payment token', get: (r) => field(r, 'paymentTokenId') },
  amount: { key: 'amount', header: 'Amount', kind: 'money', get: (r) => field(r, 'amount') },
  agreementUid: { key: 'agreementUid', header: 'Agreement', get: (r) => field(r, 'agreementUid') },
  accountIdentifierHint: { key: 'accountIdentifierHint', header: 'Account', get: (r) => field(r, 'accountIdentifierHint') },
  surchargeAmount: { key: 'surchargeAmount', header: 'Surcharge', kind: 'minor', get: (r) => field(r, 'surchargeAmount'), currency: amountCurrency },
  kind: { key: 'kind', header: 'Kind' },
  paymentSourceId: { key: 'paymentSourceId', header: 'Source', get: (r) => field(r, 'paymentSourceId') },
} satisfies Record<string, Column<TokenResult>>

/** A made token; JSON prints the bare token (its envelope key removed). */
export const tokenResultView = defineView<TokenResult>({
  name: 'payment token',
  columns: [t.paymentTokenId, t.amount, t.agreementUid, t.accountIdentifierHint],
  detail: [t.paymentTokenId, t.kind, t.amount, t.surchargeAmount, t.agreementUid, t.accountIdentifierHint, t.paymentSourceId],
  json: (r) => r.token,
})

const currencyOf = (r: PaymentToken) => r.amount?.currency
const p = {
  paymentTokenId: { key: 'paymentTokenId', header: 'Payment token' },
  amount: { key: 'amount', header: 'Amount', kind: 'money' },
  method: { key: 'method', header: 'Method' },
  payType: { key: 'payType', header: 'Pay type' },
  status: { key: 'status', header: 'Status' },
} satisfies Record<string, Column<PaymentToken>>

export const paymentTokenView = defineView<PaymentToken>({
  name: 'payment token',
  columns: [p.paymentTokenId, p.amount, p.method, p.payType, p.status],
  detail: [
    p.paymentTokenId,
    p.amount,
    { key: 'surchargeAmount', header: 'Surcharge', kind: 'minor', currency: currencyOf },
    p.method,
    p.payType,
    { key: 'payPlanVariant', header: 'Pay plan variant' },
    { key: 'paymentSourceId', header: 'Source' },
    { key: 'accountIdentifierHint', header: 'Account' },
    { key: 'customerId', header: 'Customer' },
    p.status,
    { key: 'createdAt', header: 'Created', kind: 'date' },
    { key: 'expiresAt', header: 'Expires', kind: 'date' },
  ],
})

interface SurchargeQuote extends Loose {
  amount?: { minorCurrencyUnits: number; currency: string }
}
const quoteCurrency = (q: SurchargeQuote) => q.amount?.currency
const q = {
  paymentMethodType: { key: 'paymentMethodType', header: 'Method' },
  amount: { key: 'amount', header: 'Amount', kind: 'money' },
  surchargeAmount: { key: 'surchargeAmount', header: 'Surcharge', kind: 'minor', currency: quoteCurrency },
  totalAmount: { key: 'totalAmount', header: 'Total', kind: 'money' },
} satisfies Record<string, Column<SurchargeQuote>>

export const surchargeQuoteView = defineView<SurchargeQuote>({
  name: 'surcharge quote',
  columns: [q.paymentMethodType, q.amount, q.surchargeAmount, q.totalAmount],
  detail: [{ key: 'merchantId', header: 'Merchant' }, q.paymentMethodType, q.amount, q.surchargeAmount, q.totalAmount],
})
