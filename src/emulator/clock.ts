// The emulator's notion of "now". Every time-driven rule (PayTo agreement activation, token and
// session expiry, payout availability) reads this clock, never Date.now(), so tests and the
// `AdvanceClock` simulation can move time forward without waiting.

export interface Clock {
  /** The current emulator time. */
  now(): Date
  /** Moves emulator time forward by `seconds` (may be fractional, never negative). */
  advance(seconds: number): void
  /** How far emulator time is ahead of the clock's base, in milliseconds (persisted with --state). */
  offsetMs(): number
  /**
   * Moves emulator time back by `seconds`: only for the control plane's month fixture, which
   * first empties the store, so that the month it builds ends now.
   */
  rewind?(seconds: number): void
}

/** Wall-clock time plus an offset that only grows. */
export function realClock(initialOffsetMs = 0): Clock {
  let offset = initialOffsetMs
  return {
    now: () => new Date(Date.now() + offset),
    advance(seconds) {
      offset += toMs(seconds)
    },
    rewind(seconds) {
      offset -= toMs(seconds)
    },
    offsetMs: () => offset,
  }
}

/** A clock that stands still unless advanced: for tests. */
export function fakeClock(start: Date | string = '2025-01-01T00:00:00.000Z'): Clock {
  const base = new Date(start).getTime()
  if (Number.isNaN(base)) throw new Error(`fakeClock: "${String(start)}" is not a date`)
  let offset = 0
  return {
    now: () => new Date(base + offset),
    advance(seconds) {
      offset += toMs(seconds)
    },
    rewind(seconds) {
      offset -= toMs(seconds)
    },
    offsetMs: () => offset,
  }
}

function toMs(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`Cannot advance the clock by ${seconds} seconds`)
  return Math.round(seconds * 1000)
}

/** Timestamp of the contract: ISO 8601, UTC, milliseconds. */
export function timestamp(date: Date): string {
  return date.toISOString()
}

/** Date of the contract: YYYY-MM-DD (UTC). */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10)
}

export function addSeconds(date: Date | string, seconds: number): Date {
  return new Date(new Date(date).getTime() + seconds * 1000)
}

export function addDays(date: Date | string, days: number): Date {
  return addSeconds(date, days * 86_400)
}
