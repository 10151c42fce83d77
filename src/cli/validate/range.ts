// The checks of the month-end range flags when they are parsed: a real calendar day for
// --from/--to, a --last such as 7d, a --split of at least a minute. The range itself is made
// from them by range/range.ts.
import { UsageError } from '../errors/index.js'
import { checkDateInput } from './dates.js'

/** A date or timestamp flag value, checked for shape (./dates.ts) and for a real calendar day. */
export function checkCalendarDate(input: string, flag: string): string {
  const value = checkDateInput(input, flag)
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const probe = new Date(Date.UTC(y, m - 1, d))
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
    throw new UsageError(`${flag}: ${value.slice(0, 10)} is not a day of the calendar`, 'Check the day of the month, for example 2026-02-28')
  }
  return value
}

/** `24h`, `7d`, `2w`, `1m` (calendar months) before `now`. */
export function startOfLast(input: string, now: Date): Date {
  const match = /^(\d{1,4})(h|d|w|m)$/.exec(input.trim())
  if (!match || Number(match[1]) === 0) {
    throw new UsageError(`--last takes a period such as 24h, 7d, 2w or 1m (got "${input}")`, 'h hours, d days, w weeks, m calendar months')
  }
  const n = Number(match[1])
  const unit = match[2]
  if (unit === 'm') {
    const start = new Date(now)
    start.setUTCMonth(start.getUTCMonth() - n)
    return start
  }
  const hours = unit === 'h' ? n : unit === 'd' ? n * 24 : n * 24 * 7
  return new Date(now.getTime() - hours * 3_600_000)
}

/** Checks the parse of `--last` at flag time (the start depends on `now`, computed later). */
export function checkLast(input: string): string {
  startOfLast(input, new Date())
  return input.trim()
}

/** The smallest part payfac asks for: one minute (the floor of halving too). */
export const MIN_PART_MS = 60_000

/** Refuses a `--split` below one minute (checked when the flag is parsed). */
export function checkPartMs(partMs: number, given: string): number {
  if (!Number.isFinite(partMs) || partMs < MIN_PART_MS) {
    throw new UsageError(`--split ${given.trim()} is shorter than the smallest part, 1m`, 'Give --split 1m or more, such as 1d or 7d')
  }
  return partMs
}
