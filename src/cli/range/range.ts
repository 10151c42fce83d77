// Date ranges of the month-end commands: `--from/--to` (dates or timestamps) or `--last 7d`, turned
// into a half-open interval [from, to), and split into parts when one call cannot take it all.
// Pure: `now` is passed in, nothing is sent.
import { UsageError } from '../errors/index.js'
import { MIN_PART_MS, checkCalendarDate, checkPartMs, startOfLast } from '../validate/range.js'
import { monthOf, wireTime } from '../validate/dates.js'

export interface RangeFlagValues {
  from?: string | undefined
  to?: string | undefined
  last?: string | undefined
  month?: string | undefined
  'last-month'?: boolean | undefined
}

/**
 * A half-open interval; `fromText`/`toText` are what is sent when it is not split: what the user
 * wrote, a date alone as its midnight UTC (validate/dates.ts, wireTime).
 */
export interface DateRange {
  from: Date
  to: Date
  fromText: string
  toText: string
}

/** The instant a checked date flag names: a date is midnight UTC. */
export function instantOf(value: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
}

/**
 * The range the flags give, or undefined when none is given. Half a range (only --from or only
 * --to) and a range that ends before it starts are usage errors.
 */
export function resolveRange(f: RangeFlagValues, now: Date): DateRange | undefined {
  const month = monthOf(f, now)
  if (month) {
    if (f.from !== undefined || f.to !== undefined || f.last !== undefined) {
      throw new UsageError(`${f.month === undefined ? '--last-month' : '--month'} cannot be combined with --from, --to or --last`, 'A month is the whole range')
    }
    return { from: instantOf(month.from), to: instantOf(month.to), fromText: wireTime(month.from), toText: wireTime(month.to) }
  }
  if (f.last !== undefined) {
    if (f.from !== undefined || f.to !== undefined) throw new UsageError('--last cannot be combined with --from or --to', 'Give --last 30d, or --from and --to')
    const from = startOfLast(f.last, now)
    return { from, to: now, fromText: from.toISOString(), toText: now.toISOString() }
  }
  if (f.from === undefined && f.to === undefined) return undefined
  if (f.from === undefined || f.to === undefined) {
    throw new UsageError(
      `A range needs both --from and --to (missing ${f.from === undefined ? '--from' : '--to'})`,
      'Or give --last 30d for the 30 days up to now',
    )
  }
  const from = instantOf(checkCalendarDate(f.from, '--from'))
  const to = instantOf(checkCalendarDate(f.to, '--to'))
  if (from.getTime() >= to.getTime()) {
    throw new UsageError(`The range is reversed or empty: --from ${f.from} is not before --to ${f.to}`, '--from is inclusive and --to exclusive; swap them')
  }
  return { from, to, fromText: wireTime(f.from.trim()), toText: wireTime(f.to.trim()) }
}

/** The most parts one command sends, whether cut by --split or by halving a refused range. */
export const MAX_PARTS = 1000

/**
 * `[from, to)` cut into consecutive parts of at most `partMs` (the last may be shorter). A part
 * under a minute, or more than MAX_PARTS parts, is a usage error: nothing is sent.
 */
export function splitRange(range: DateRange, partMs: number | undefined, given = `${partMs}ms`): DateRange[] {
  const span = range.to.getTime() - range.from.getTime()
  if (partMs === undefined) return [range]
  checkPartMs(partMs, given)
  if (span <= partMs) return [range]
  const count = Math.ceil(span / partMs)
  if (count > MAX_PARTS) {
    const smallest = Math.ceil(span / MAX_PARTS / MIN_PART_MS)
    const hint = smallest % 1440 === 0 ? `${smallest / 1440}d` : smallest % 60 === 0 ? `${smallest / 60}h` : `${smallest}m`
    throw new UsageError(
      `--split ${given.trim()} cuts the range into ${count.toLocaleString('en')} parts; at most ${MAX_PARTS.toLocaleString('en')} are sent`,
      `Give --split ${hint} or more, or a shorter range`,
    )
  }
  const parts: DateRange[] = []
  for (let start = range.from.getTime(); start < range.to.getTime(); start += partMs) {
    const from = new Date(start)
    const to = new Date(Math.min(start + partMs, range.to.getTime()))
    parts.push({ from, to, fromText: from.toISOString(), toText: to.toISOString() })
  }
  return parts
}

/** Halves a range (for a service that refuses it as too large); undefined below one minute. */
export function halve(range: DateRange): [DateRange, DateRange] | undefined {
  const span = range.to.getTime() - range.from.getTime()
  if (span < 120_000) return undefined
  const middle = new Date(range.from.getTime() + Math.floor(span / 2 / 1000) * 1000)
  return [
    { from: range.from, to: middle, fromText: range.fromText, toText: middle.toISOString() },
    { from: middle, to: range.to, fromText: middle.toISOString(), toText: range.toText },
  ]
}

/** Whether a record's timestamp falls in the part (so that no record is taken from two parts). */
export function inPart(createdAt: unknown, part: DateRange): boolean {
  if (typeof createdAt !== 'string') return true
  const t = Date.parse(createdAt)
  return Number.isNaN(t) || (t >= part.from.getTime() && t < part.to.getTime())
}
