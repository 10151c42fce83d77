// Dates and date ranges given on the command line: `YYYY-MM-DD` or an ISO 8601 timestamp with a
// zone, checked for being a real day (2026-02-30 is refused, 2028-02-29 accepted), and ranges
// checked for their order, and bounded: from 1970-01-01 to 2100-12-31 (the calendar day as written).
// Others reuse parseDateInput() for their own range flags.
import { UsageError } from '../errors/index.js'

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

export interface ParsedDate {
  /** The text as given (trimmed): what is sent. */
  value: string
  /** The instant it names (a date alone: midnight UTC), for comparing. */
  epochMs: number
  dateOnly: boolean
}

type DateProblem = 'shape' | 'day' | 'time' | 'range'

/** The first and last days a date flag takes (its written calendar day, whatever its zone). */
export const FIRST_DAY = '1970-01-01'
export const LAST_DAY = '2100-12-31'

function readDate(input: string): ParsedDate | DateProblem {
  const value = input.trim()
  const match = DATE_ONLY.exec(value) ?? TIMESTAMP.exec(value)
  if (!match) return 'shape'
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return 'day'
  const written = value.slice(0, 10)
  if (written < FIRST_DAY || written > LAST_DAY) return 'range'
  const dateOnly = match.length === 4
  if (!dateOnly) {
    const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)]
    if (hour > 23 || minute > 59 || second > 59) return 'time'
    const zone = match[7] as string
    if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 14 || Number(zone.slice(-2)) > 59)) return 'time'
  }
  const epochMs = Date.parse(dateOnly ? `${value}T00:00:00Z` : value)
  return Number.isNaN(epochMs) ? 'shape' : { value, epochMs, dateOnly }
}

/** The date or timestamp `input`, or undefined when it is not one or names no real day or time. */
export function parseDateInput(input: string): ParsedDate | undefined {
  const read = readDate(input)
  return typeof read === 'string' ? undefined : read
}

/** The date as given, or a usage error naming `what` and what is wrong with it. */
export function checkDateInput(input: string, what: string): string {
  const read = readDate(input)
  if (read === 'day') {
    throw new UsageError(`${what}: ${input.trim().slice(0, 10)} is not a day of the calendar`, 'Write a real day as YYYY-MM-DD, for example 2026-02-28')
  }
  if (read === 'range') {
    throw new UsageError(`${what}: ${input.trim().slice(0, 10)} is out of range: dates run from ${FIRST_DAY} to ${LAST_DAY}`, 'For example 2026-11-01')
  }
  if (read === 'time') throw new UsageError(`${what}: ${input.trim()} is not a time of day`, 'Hours run 00 to 23, minutes and seconds 00 to 59')
  if (read === 'shape') {
    throw new UsageError(
      `${what} must be a date YYYY-MM-DD or an ISO 8601 timestamp with a zone (got "${input}")`,
      'For example 2026-11-01 or 2026-11-01T09:30:00Z',
    )
  }
  return read.value
}

/**
 * A date or timestamp as a request sends it. The contract's filters take a date-time, and the
 * OpenAPI document payfac makes says so (ISO 8601 with a time), so a date alone is sent as its
 * midnight UTC, the instant payfac has always meant by it: `2026-11-01` → `2026-11-01T00:00:00.000Z`.
 * A timestamp goes as given.
 */
export function wireTime(value: string): string {
  const text = value.trim()
  return DATE_ONLY.test(text) ? `${text}T00:00:00.000Z` : value
}

/** A due-date filter (a Date field): a midnight-UTC timestamp as its day, anything else as given. */
export function wireDay(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T00:00(?::00(?:\.0+)?)?Z$/.exec(value.trim())
  return match ? (match[1] as string) : value
}

/** Refuses a range whose start is not before its end (both given). */
export function checkDateRange(from: string | undefined, to: string | undefined, names: [string, string]): void {
  if (from === undefined || to === undefined) return
  const start = parseDateInput(from)
  const end = parseDateInput(to)
  if (start && end && start.epochMs >= end.epochMs) {
    throw new UsageError(`${names[0]} ${from} is not before ${names[1]} ${to}`, 'Give the earlier date first')
  }
}

/** Query fields that open and close a range, as list queries name them. */
const QUERY_RANGES: Array<[string, string]> = [
  ['createdAfter', 'createdBefore'],
  ['createdFromInclusive', 'createdToExclusive'],
  ['expiresAtFromInclusive', 'expiresAtToExclusive'],
  ['updatedAfter', 'updatedBefore'],
]

/** Checks every range of a list query (`createdAfter` before `createdBefore` …). */
export function checkQueryRanges(query: Record<string, unknown>, flagName: (field: string) => string = kebabFlag): void {
  for (const [open, close] of QUERY_RANGES) {
    const from = query[open]
    const to = query[close]
    if (typeof from === 'string' && typeof to === 'string') checkDateRange(from, to, [flagName(open), flagName(close)])
  }
}

function kebabFlag(field: string): string {
  return `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
}

// ---------------------------------------------------------------------------------------------
// Calendar months: `--month 2026-10` and `--last-month`. The contract gives every timestamp in
// UTC and names no other zone for the service's day, so a month runs from midnight UTC on its
// first day up to midnight UTC on the first day of the next (half-open, like --from/--to).

/** The zone months are cut in (named in each flag's help). */
export const MONTH_ZONE = 'UTC'

/** A month as its first day and the first day of the next, both YYYY-MM-DD (midnight UTC). */
export interface MonthBounds {
  from: string
  to: string
}

function firstDay(year: number, month: number): string {
  // month is 1-based and may be 13 (January of the next year).
  const y = month > 12 ? year + 1 : year
  const m = month > 12 ? 1 : month
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`
}

/** `2026-10` as [2026-10-01, 2026-11-01), or a usage error naming `what`. */
export function monthBounds(input: string, what = '--month'): MonthBounds {
  const match = /^(\d{4})-(\d{2})$/.exec(input.trim())
  const year = Number(match?.[1])
  const month = Number(match?.[2])
  if (!match || month < 1 || month > 12) {
    throw new UsageError(
      `${what} takes a calendar month as YYYY-MM (got "${input}")`,
      'For example --month 2026-10, or --last-month for the month before this one',
    )
  }
  const bounds = { from: firstDay(year, month), to: firstDay(year, month + 1) }
  if (bounds.from < FIRST_DAY || bounds.from > LAST_DAY) {
    throw new UsageError(`${what}: ${input.trim()} is out of range: dates run from ${FIRST_DAY} to ${LAST_DAY}`, 'For example --month 2026-10')
  }
  return bounds
}

/** The calendar month before the one `now` falls in (in UTC). */
export function lastMonthBounds(now: Date): MonthBounds {
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth() + 1
  const previous = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 }
  return { from: firstDay(previous.year, previous.month), to: firstDay(year, month) }
}

/** What `--month`/`--last-month` ask for, or undefined when neither is given. */
export function monthOf(f: { month?: string | undefined; 'last-month'?: boolean | undefined }, now: Date): MonthBounds | undefined {
  if (f.month !== undefined && f['last-month']) throw new UsageError('--month and --last-month cannot be combined', 'Give one of them')
  if (f.month !== undefined) return monthBounds(f.month)
  return f['last-month'] ? lastMonthBounds(now) : undefined
}

/** The pairs of query fields a month fills, the first one a list query has (its keys present). */
const MONTH_FIELDS: Array<[string, string]> = [
  ['createdAfter', 'createdBefore'],
  ['createdFromInclusive', 'createdToExclusive'],
]

/**
 * A list query with `--month`/`--last-month` turned into its creation range, each bound sent as a
 * date-time (wireTime: `2026-10-01T00:00:00.000Z`). A query that already
 * has a creation bound is a usage error (the flags are exclusive too, so this is the last guard).
 */
export function withMonth<Q extends Record<string, unknown>>(query: Q, flags: unknown, now: Date): Q {
  const month = monthOf((flags ?? {}) as { month?: string; 'last-month'?: boolean }, now)
  if (!month) return query
  const [open, close] = MONTH_FIELDS.find(([a]) => a in query) ?? MONTH_FIELDS[0]!
  const [from, to] = [wireTime(month.from), wireTime(month.to)]
  // A request builder that already turned the month into its range (settlement list).
  if (query[open] === from && query[close] === to) return query
  if (query[open] !== undefined || query[close] !== undefined) {
    throw new UsageError('--month and --last-month give the whole range: leave out the other date flags', 'For example --month 2026-10')
  }
  return { ...query, [open]: from, [close]: to }
}
