// Loan statement entry queries from parsed flags. Pure: no I/O, no client.
import { UsageError } from '../errors/index.js'
import { monthOf, wireDay, wireTime } from '../validate/dates.js'

export interface EntriesFlagValues {
  loan?: string | undefined
  'loan-settlement'?: string | undefined
  currency?: string | undefined
  from?: string | undefined
  to?: string | undefined
  'date-field'?: string | undefined
  month?: string | undefined
  'last-month'?: boolean | undefined
}

/**
 * The query of the entries list and report. `--from`/`--to` bound the creation time
 * (`createdAfter`/`createdBefore`, date-times) or, with `--date-field due`, the due date
 * (`dueAfter`/`dueBefore`, days, as the due date is a Date).
 */
export function entriesQueryFromFlags(given: EntriesFlagValues, now = new Date()): Record<string, string | undefined> {
  const month = monthOf(given, now)
  const f = month ? { ...given, from: month.from, to: month.to } : given
  const due = f['date-field'] === 'due'
  return {
    loanId: f.loan,
    loanSettlementId: f['loan-settlement'],
    currency: f.currency,
    [due ? 'dueAfter' : 'createdAfter']: f.from === undefined ? undefined : due ? wireDay(f.from) : wireTime(f.from),
    [due ? 'dueBefore' : 'createdBefore']: f.to === undefined ? undefined : due ? wireDay(f.to) : wireTime(f.to),
  }
}

/** The report needs --loan or --loan-settlement, or else --currency with a whole range (--from and --to). */
export function checkEntriesReportFlags(f: EntriesFlagValues): void {
  if (f.loan || f['loan-settlement']) return
  if (f.currency && ((f.from && f.to) || f.month || f['last-month'])) return
  throw new UsageError(
    'The entries report needs --loan or --loan-settlement, or else --currency with --from and --to',
    'For example --currency AUD --from 2026-01-01 --to 2026-02-01',
  )
}

/** The rows of a report answer: the answer itself when it is an array, else its one array field. */
export function reportRows(answer: unknown): unknown[] | undefined {
  if (Array.isArray(answer)) return answer
  if (!answer || typeof answer !== 'object') return undefined
  const arrays = Object.values(answer).filter(Array.isArray)
  return arrays.length === 1 ? (arrays[0] as unknown[]) : undefined
}
