// Pay plan variants and their schedules: the variants real integrations use (field notes) and how
// the emulator splits a financed amount into instalments for each (payplans.ts uses both).
import type { Money } from '../../client/money.js'
import type { Instalment } from '../account-records.js'
import { unprocessable } from '../api-error.js'
import { addDays, isoDate } from '../clock.js'

export interface VariantSpec {
  frequency: 'Weekly' | 'Fortnightly' | 'Monthly' | 'Deferred'
  description: string
  /** Instalments after the initial payment: when (days or calendar months after the start) and weight. */
  parts: Array<{ days?: number; months?: number; weight: number }>
}

const every = (count: number, stepDays: number) => Array.from({ length: count }, (_v, i) => ({ days: i * stepDays, weight: 1 }))

/** The variants real integrations use (field notes), with the emulator's schedule for each. */
export function variantSpec(name: string): VariantSpec | undefined {
  const fixed: Record<string, VariantSpec> = {
    payplan_fortnight_25_25_25_25: { frequency: 'Fortnightly', description: '4 payments of 25 %, every two weeks from today', parts: every(4, 14) },
    payplan_4_weekly_payments: { frequency: 'Weekly', description: '4 weekly payments from today', parts: every(4, 7) },
    payplan_8_weekly_payments: { frequency: 'Weekly', description: '8 weekly payments from today', parts: every(8, 7) },
    payplan_26_fortnightly_payments: { frequency: 'Fortnightly', description: '26 fortnightly payments from today', parts: every(26, 14) },
    payplan_52_weekly_payments: { frequency: 'Weekly', description: '52 weekly payments from today', parts: every(52, 7) },
    payplan_fortnight_0_100: { frequency: 'Deferred', description: 'Nothing today, everything in two weeks', parts: [{ days: 14, weight: 1 }] },
    payplan_4_week_0_100: { frequency: 'Deferred', description: 'Nothing today, everything in four weeks', parts: [{ days: 28, weight: 1 }] },
    payplan_7_week_0_100: { frequency: 'Deferred', description: 'Nothing today, everything in seven weeks', parts: [{ days: 49, weight: 1 }] },
    payplan_30_days_0_100: { frequency: 'Deferred', description: 'Nothing today, everything in 30 days', parts: [{ days: 30, weight: 1 }] },
  }
  if (Object.hasOwn(fixed, name)) return fixed[name]
  const monthly = /^payplan_(\d{1,2})_monthly_payments$/.exec(name)
  const count = monthly ? Number(monthly[1]) : 0
  if (count >= 2 && count <= 12 && String(count) === monthly?.[1]) {
    return {
      frequency: 'Monthly',
      description: `${count} monthly payments from today`,
      parts: Array.from({ length: count }, (_v, i) => ({ months: i, weight: 1 })),
    }
  }
  return undefined
}

export const PAYPLAN_VARIANTS: readonly string[] = [
  'payplan_fortnight_25_25_25_25',
  'payplan_4_weekly_payments',
  'payplan_8_weekly_payments',
  'payplan_26_fortnightly_payments',
  'payplan_52_weekly_payments',
  ...Array.from({ length: 11 }, (_v, i) => `payplan_${i + 2}_monthly_payments`),
  'payplan_fortnight_0_100',
  'payplan_4_week_0_100',
  'payplan_7_week_0_100',
  'payplan_30_days_0_100',
]

function addMonths(date: Date, months: number): Date {
  const y = date.getUTCFullYear()
  const m = date.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return new Date(Date.UTC(y, m, Math.min(date.getUTCDate(), lastDay)))
}

/**
 * The schedule of a plan starting `start`: the initial payment (when not zero) today, then the
 * financed amount (amount − initial payment) split by the variant's weights; cents left over by
 * the split go to the earliest instalments, so the instalments add up to the amount exactly.
 */
export function schedule(variant: string, amount: Money, initialPayment: number, start: Date): Instalment[] {
  const spec = variantSpec(variant)
  if (!spec) throw unprocessable('unknown_pay_plan_variant', `Unknown pay plan variant "${variant}"; known: ${PAYPLAN_VARIANTS.join(', ')}`)
  if (initialPayment > amount.minorCurrencyUnits) {
    throw unprocessable('invalid_initial_payment', 'The initial payment is more than the amount')
  }
  const financed = amount.minorCurrencyUnits - initialPayment
  if (financed < spec.parts.length) {
    throw unprocessable('nothing_to_finance', `After the initial payment, ${financed} is left: too little for ${spec.parts.length} instalment(s)`)
  }
  const totalWeight = spec.parts.reduce((s, p) => s + p.weight, 0)
  const shares = spec.parts.map((p) => Math.floor((financed * p.weight) / totalWeight))
  let left = financed - shares.reduce((s, v) => s + v, 0)
  for (let i = 0; left > 0; i = (i + 1) % shares.length, left--) shares[i] = (shares[i] as number) + 1
  const out: Instalment[] = []
  if (initialPayment > 0) {
    out.push({
      number: 0,
      kind: 'InitialPayment',
      dayOffset: 0,
      dueOn: isoDate(start),
      amount: { minorCurrencyUnits: initialPayment, currency: amount.currency },
    })
  }
  spec.parts.forEach((p, i) => {
    const due = p.months !== undefined ? addMonths(start, p.months) : addDays(start, p.days ?? 0)
    out.push({
      number: i + 1,
      kind: 'Instalment',
      dayOffset: Math.round((due.getTime() - Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate())) / 86_400_000),
      dueOn: isoDate(due),
      amount: { minorCurrencyUnits: shares[i] as number, currency: amount.currency },
    })
  })
  return out
}
