// Pay plan offers, pay plans, eligibility and parameters. The contract shows the offer request
// only; the records' fields are those the emulator defines (a missing one shows as -, and JSON
// prints whatever came).
import { formatMoney } from '../../client/money.js'
import type { PayPlan, PayPlanOffer } from '../../client/schemas/payplans.js'
import { isMoney } from '../flatten.js'
import { defineView, type Column } from '../view.js'

type Loose = Record<string, unknown>
const currencyOf = (r: Loose) => (isMoney(r.amount) ? r.amount.currency : undefined)
const count = (r: Loose) => (Array.isArray(r.instalments) ? r.instalments.filter((i: Loose) => i.kind !== 'InitialPayment').length : undefined)

/** `dueOn amount` for each instalment, on one line. */
function schedule(r: Loose): string {
  if (!Array.isArray(r.instalments) || r.instalments.length === 0) return '-'
  return r.instalments
    .map((i: Loose) =>
      [i.dueOn, isMoney(i.amount) ? formatMoney(i.amount) : undefined, typeof i.status === 'string' ? `(${i.status})` : undefined].filter(Boolean).join(' '),
    )
    .join('; ')
}

const c = {
  status: { key: 'status', header: 'Status' },
  amount: { key: 'amount', header: 'Amount', kind: 'money' },
  initialPayment: { key: 'initialPayment', header: 'Initial payment', kind: 'minor', currency: currencyOf },
  financedAmount: { key: 'financedAmount', header: 'Financed', kind: 'money' },
  payPlanVariant: { key: 'payPlanVariant', header: 'Variant' },
  instalmentCount: { key: 'instalmentCount', header: 'Instalments', get: count },
  schedule: { key: 'instalments', header: 'Schedule', display: (_v, r) => schedule(r) },
  customerId: { key: 'customerId', header: 'Customer' },
  merchantId: { key: 'merchantId', header: 'Merchant' },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<Loose>>

const offerId: Column<Loose> = { key: 'offerId', header: 'Offer' }
const expiresAt: Column<Loose> = { key: 'expiresAt', header: 'Expires', kind: 'date' }

export const payPlanOfferView = defineView<PayPlanOffer>({
  name: 'pay plan offer',
  columns: [offerId, c.status, c.amount, c.initialPayment, c.payPlanVariant, c.instalmentCount, expiresAt],
  detail: [
    offerId,
    c.status,
    c.customerId,
    c.merchantId,
    c.amount,
    c.initialPayment,
    c.financedAmount,
    c.payPlanVariant,
    c.instalmentCount,
    c.schedule,
    c.createdAt,
    expiresAt,
    { key: 'payPlanId', header: 'Pay plan' },
  ],
})

const payPlanId: Column<Loose> = { key: 'payPlanId', header: 'Pay plan' }
const paymentTokenId: Column<Loose> = { key: 'paymentTokenId', header: 'Payment token' }

export const payPlanView = defineView<PayPlan>({
  name: 'pay plan',
  columns: [payPlanId, c.status, c.customerId, c.amount, c.payPlanVariant, { key: 'outstandingAmount', header: 'Outstanding', kind: 'money' }, c.createdAt],
  detail: [
    payPlanId,
    c.status,
    offerId,
    c.customerId,
    c.merchantId,
    c.amount,
    c.initialPayment,
    c.financedAmount,
    c.payPlanVariant,
    c.instalmentCount,
    c.schedule,
    { key: 'paidAmount', header: 'Paid', kind: 'money' },
    { key: 'outstandingAmount', header: 'Outstanding', kind: 'money' },
    paymentTokenId,
    { key: 'orderId', header: 'Order' },
    { key: 'transactionId', header: 'Transaction' },
    c.createdAt,
  ],
})

/** `POST /payplans/max`: what the customer may still borrow. */
export const eligibilityView = defineView<Loose>({
  name: 'eligibility',
  columns: [
    c.customerId,
    { key: 'eligible', header: 'Eligible', display: (v) => (v === true ? 'yes' : v === false ? 'no' : '-') },
    { key: 'maxAmount', header: 'Maximum', kind: 'money' },
    { key: 'outstanding', header: 'Outstanding', kind: 'money' },
    { key: 'limit', header: 'Limit', kind: 'money' },
    { key: 'reason', header: 'Reason' },
  ],
})

/** The rows of a parameters answer: its `parameters` array, or the answer itself. */
export function payPlanParametersOf(answer: unknown): Loose[] {
  if (Array.isArray(answer)) return answer as Loose[]
  const rows = (answer as Loose | undefined)?.parameters
  return Array.isArray(rows) ? (rows as Loose[]) : answer && typeof answer === 'object' ? [answer as Loose] : []
}

export const payPlanParameterView = defineView<Loose>({
  name: 'pay plan parameters',
  columns: [
    c.payPlanVariant,
    { key: 'frequency', header: 'Frequency' },
    { key: 'instalmentCount', header: 'Instalments' },
    { key: 'firstDueOn', header: 'First due', kind: 'date' },
    { key: 'lastDueOn', header: 'Last due', kind: 'date' },
    { key: 'feeAmount', header: 'Fee', kind: 'money' },
    { key: 'totalAmount', header: 'Total', kind: 'money' },
  ],
  detail: [
    c.payPlanVariant,
    { key: 'description', header: 'Description' },
    { key: 'frequency', header: 'Frequency' },
    { key: 'instalmentCount', header: 'Instalments' },
    c.schedule,
  ],
})
