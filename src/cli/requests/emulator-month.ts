// `payfac emulator month --month 2026-10 | --last-month`: which calendar month the fixture fills,
// checked before anything is sent (a month not over yet, or before the seeded merchants exist, is
// exit 2). The emulator checks again against its own clock (a namespace's clock may run ahead).
import { UsageError } from '../errors/index.js'
import { monthOf } from '../validate/dates.js'

/** The first month the emulator's month fixture fills (its seeded merchants are made on 2025-01-01). */
export const FIRST_FIXTURE_MONTH = '2025-01'

/** `YYYY-MM` of `--month`/`--last-month` (the month before this machine's, in UTC), or undefined. */
export function fixtureMonth(f: { month?: string | undefined; 'last-month'?: boolean | undefined }, now: Date): string | undefined {
  const bounds = monthOf(f, now)
  if (!bounds) return undefined
  const month = bounds.from.slice(0, 7)
  if (Date.parse(`${bounds.to}T00:00:00Z`) > now.getTime()) {
    throw new UsageError(
      `--month ${month} is not over yet: the emulator fills whole months that have ended (this machine's clock reads ${now.toISOString().slice(0, 10)})`,
      'Give an earlier month, --last-month, or --days for the days up to now',
    )
  }
  if (month < FIRST_FIXTURE_MONTH) {
    throw new UsageError(
      `--month ${month} is before ${FIRST_FIXTURE_MONTH}, when the emulator's seeded merchants are made`,
      `Give ${FIRST_FIXTURE_MONTH} or later`,
    )
  }
  return month
}

/** The most differences the fixture seeds (each on a transaction of its own). */
export const MAX_FIXTURE_MISMATCHES = 5

/** `--mismatch` as the control plane takes it: one kind, or a list of up to five. */
export function fixtureMismatches(kinds: string[] | undefined): string | string[] | undefined {
  if (kinds === undefined) return undefined
  if (kinds.length > MAX_FIXTURE_MISMATCHES) {
    throw new UsageError(
      `--mismatch is given ${kinds.length} times; the month seeds at most ${MAX_FIXTURE_MISMATCHES} differences`,
      'Give --mismatch at most 5 times',
    )
  }
  return kinds.length === 1 ? kinds[0] : kinds
}
