// Builds pay plan request bodies from parsed flags. Pure: no I/O, no client.
import { formatMoney, toMinorUnits } from '../../client/money.js'
import type { PayPlanOfferRequest } from '../../client/schemas/payplans.js'
import { UsageError } from '../errors/index.js'
import { asUsage, moneyFrom } from '../flags/index.js'
import { checkNonEmpty, refusePreviousGenerationFields } from '../validate/index.js'

/** Pay plan variants of the field notes, besides `payplan_N_monthly_payments` for N = 2 to 12. */
export const PAY_PLAN_VARIANTS = [
  'payplan_fortnight_25_25_25_25',
  'payplan_4_weekly_payments',
  'payplan_8_weekly_payments',
  'payplan_26_fortnightly_payments',
  'payplan_52_weekly_payments',
  'payplan_fortnight_0_100',
  'payplan_4_week_0_100',
  'payplan_7_week_0_100',
  'payplan_30_days_0_100',
] as const

export function isPayPlanVariant(value: string): boolean {
  if ((PAY_PLAN_VARIANTS as readonly string[]).includes(value)) return true
  return /^payplan_([2-9]|1[0-2])_monthly_payments$/.test(value)
}

export function checkVariant(input: string, flag = '--variant'): string {
  const value = input.trim()
  if (!isPayPlanVariant(value)) {
    throw new UsageError(
      `${flag}: "${input}" is not a pay plan variant`,
      `Use one of ${PAY_PLAN_VARIANTS.join(', ')}, or payplan_N_monthly_payments for N from 2 to 12`,
    )
  }
  return value
}

export interface OfferFlagValues {
  amount?: string | undefined
  currency?: string | undefined
  'initial-payment'?: string | undefined
  variant?: string | undefined
}

/**
 * The offer body (contract: `amount`, `initialPayment` in minor units, `payPlanVariant`; the
 * customer travels in the Customer-Id header). The initial payment may be zero, never more than
 * the amount.
 */
export function offerBody(data: Record<string, unknown> | undefined, f: OfferFlagValues): PayPlanOfferRequest {
  if (data) {
    refusePreviousGenerationFields(data)
    // Checked against the contract's strict schema by the client before it is sent.
    return data as PayPlanOfferRequest
  }
  if (!f.amount || !f.currency || !f.variant) {
    throw new UsageError('An offer needs --amount, --currency and --variant (or the whole body with --data)')
  }
  const amount = moneyFrom(f.amount, f.currency)
  return { amount, initialPayment: initialPaymentOf(f['initial-payment'], amount), payPlanVariant: checkVariant(f.variant) }
}

/** `POST /payplans` from an offer (body not shown by the contract; the emulator's field `offerId`). */
export function payPlanBody(offer: string | undefined): Record<string, unknown> {
  if (!offer) throw new UsageError('A pay plan needs --offer (the id of a successful offer), or the whole body with --data')
  return { offerId: checkNonEmpty(offer, '--offer').trim() }
}

/** The initial payment in minor units: zero allowed, never more than the amount. */
function initialPaymentOf(text: string | undefined, amount: { minorCurrencyUnits: number; currency: string }): number {
  const initialPayment = asUsage(() => toMinorUnits(text ?? '0', amount.currency, { allowZero: true }), '--initial-payment')
  if (initialPayment > amount.minorCurrencyUnits) {
    throw new UsageError(`--initial-payment ${text} is more than the amount (${formatMoney(amount)})`)
  }
  return initialPayment
}

/**
 * `POST /payplans/parameters` (beta; body not shown): the emulator's {amount, initialPayment?,
 * payPlanVariants?}. Without --variant the service answers for every variant.
 */
export function parametersBody(f: {
  amount?: string | undefined
  currency?: string | undefined
  'initial-payment'?: string | undefined
  variant?: string[] | undefined
}): Record<string, unknown> {
  if (!f.amount || !f.currency) throw new UsageError('Pay plan parameters need --amount and --currency (or the whole body with --data)')
  const amount = moneyFrom(f.amount, f.currency)
  return {
    amount,
    ...(f['initial-payment'] === undefined ? {} : { initialPayment: initialPaymentOf(f['initial-payment'], amount) }),
    ...(f.variant?.length ? { payPlanVariants: f.variant.map((v) => checkVariant(v)) } : {}),
  }
}
