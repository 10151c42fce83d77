// Flag factories of the month-end commands: a date range (`--from/--to` or `--last`), its split
// into parts (`--split`), and the marketplace fan-out (`--each-merchant`, `--merchants`,
// `--concurrency`). The checks run when oclif parses, so a bad value is exit 2 before sending.
import * as Flags from '@oclif/core/flags'

import { concurrencyFlag } from './lists.js'
import { durationMs } from '../validate/durations.js'
import { checkCalendarDate, checkLast, checkPartMs } from '../validate/range.js'
import { MONTH_ZONE, monthBounds } from '../validate/dates.js'
import { checkedBy } from './checked.js'

/**
 * `--month YYYY-MM` and `--last-month`: a calendar month in UTC (the contract's zone), sent as the
 * range's two bounds. `over` names the flags a month replaces (they cannot be given with it).
 */
export function monthFlags(over: string[] = ['created-after', 'created-before']) {
  return {
    month: Flags.string({
      description: `Only records created in this calendar month, YYYY-MM (months in ${MONTH_ZONE}: 2026-10 is 2026-10-01T00:00Z up to 2026-11-01T00:00Z).`,
      exclusive: [...over, 'last-month'],
      parse: checkedBy(monthBounds, { trim: true }),
    }),
    'last-month': Flags.boolean({
      description: `Only records created in the calendar month before this one (months in ${MONTH_ZONE}).`,
      exclusive: [...over, 'month'],
    }),
  }
}

/** `--from`, `--to`, `--last` and `--split` for records created in a range. */
export function rangeFlags(what: string) {
  return {
    from: Flags.string({
      description: `${what} created at or after this date or timestamp (YYYY-MM-DD is midnight UTC; sent as createdAfter).`,
      parse: async (input) => checkCalendarDate(input, '--from'),
    }),
    to: Flags.string({
      description: `${what} created before this date or timestamp (exclusive; sent as createdBefore).`,
      parse: async (input) => checkCalendarDate(input, '--to'),
    }),
    last: Flags.string({
      description: 'Instead of --from/--to: the period up to now, such as 24h, 7d, 2w or 1m (calendar months).',
      exclusive: ['from', 'to'],
      parse: async (input) => checkLast(input),
    }),
    ...monthFlags(['from', 'to', 'last']),
    split: Flags.string({
      description:
        'Ask for the range in parts of at most this long (such as 7d or 12h; at least 1m, at most 1,000 parts), merged in order; stderr says how many parts are sent. Without it, a range the service refuses as too large is halved until it is taken.',
      parse: checkedBy(splitMs),
    }),
  }
}

/** `--split` in milliseconds (accepts d for days besides ms, s, m, h). */
export function splitMs(input: string | undefined): number | undefined {
  if (input === undefined) return undefined
  return checkPartMs(
    durationMs(
      input.replace(/(\d+)d$/, (_, n: string) => `${Number(n) * 24}h`),
      '--split',
    ),
    input,
  )
}

/** `--each-merchant`, `--merchants` and `--concurrency`: run a read command once per sub-merchant. */
export function fanOutFlags() {
  return {
    'each-merchant': Flags.boolean({
      description: 'Marketplace credential: run once for every merchant of the marketplace (Merchant-Id each time); rows gain a merchantId column.',
      helpGroup: 'MARKETPLACE',
      exclusive: ['merchants'],
    }),
    merchants: Flags.string({
      description: 'Marketplace credential: run once for each of these merchants: mcht_… ids separated by commas, or @file with one id a line.',
      helpGroup: 'MARKETPLACE',
    }),
    concurrency: concurrencyFlag,
  }
}
