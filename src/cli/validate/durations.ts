// Durations as payfac's flags and variables take them (`500ms`, `3s`, `10m`, `1h`, plain
// seconds; a repeat window also in days): checked and turned into milliseconds, or a usage error
// (exit 2) that names the flag or variable.
import { UsageError } from '../errors/index.js'

/** The shortest `--interval`: polling faster only loads the service. */
export const MIN_INTERVAL_MS = 100

/** `--interval` in milliseconds, refused under MIN_INTERVAL_MS and over MAX_WAIT_MS. */
export function intervalMs(input: string, flag = '--interval'): number {
  const ms = readMs(input, flag)
  if (ms < MIN_INTERVAL_MS) throw new UsageError(`${flag} must be at least ${MIN_INTERVAL_MS}ms (got "${input}")`, 'For example --interval 3s')
  if (ms > MAX_WAIT_MS) throw new UsageError(`${flag} must be from ${MIN_INTERVAL_MS}ms to 24h (got "${input}")`, 'For example --interval 3s')
  return ms
}

/**
 * A duration (`500ms`, `3s`, `10m`, `1h`, or plain seconds) in milliseconds, exact (a number
 * of ms past 2^53 is refused). Flags that bound a wait take waitMs instead (1 ms to 24 h).
 */
export function durationMs(input: string, flag: string): number {
  const ms = readMs(input, flag)
  if (!Number.isSafeInteger(ms)) throw new UsageError(`${flag} is too long (got "${input}")`)
  return ms
}

/** The longest wait (`--timeout`, `--interval`, PAYFAC_TIMEOUT): 24 h. The shortest: 1 ms. */
export const MAX_WAIT_MS = 86_400_000

/** A duration that bounds a wait, in ms: from 1 ms to 24 h, else a usage error naming the flag. */
export function waitMs(input: string, flag: string): number {
  const ms = readMs(input, flag)
  if (ms < 1 || ms > MAX_WAIT_MS) throw new UsageError(`${flag} must be from 1ms to 24h (got "${input}")`, 'For example 30s, 10m or 2h')
  return ms
}

/** A duration's milliseconds as written (`500ms`, `3s`, `10m`, `1h`, plain seconds), not yet bounded. */
function readMs(input: string, flag: string): number {
  const match = /^(\d{1,20})(ms|s|m|h)?$/.exec(input.trim())
  if (!match) throw new UsageError(`${flag} takes a duration such as 500ms, 3s, 10m or 1h (got "${input}")`)
  const unit = match[2] ?? 's'
  return Number(match[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000)
}

/** The longest request deadline (`--timeout`, PAYFAC_TIMEOUT): 24 h; the shortest 1 ms. */
export const MAX_REQUEST_TIMEOUT_MS = 86_400_000

/**
 * A request deadline in ms: a duration (`500ms`, `10s`, `2m`, `1h`, or plain seconds) from 1 ms
 * to 24 h. A longer one is refused (a Node timer past 2^31-1 ms fires after 1 ms).
 */
export function requestTimeoutMs(input: string, what: string): number {
  const match = /^(\d{1,20})(ms|s|m|h)?$/.exec(input.trim())
  const ms = match ? Number(match[1]) * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'] : 0
  if (!(ms > 0)) throw new UsageError(`${what} takes a duration above 0 such as 500ms, 10s or 2m (got "${input}")`)
  if (ms > MAX_REQUEST_TIMEOUT_MS) throw new UsageError(`${what} must be from 1ms to 24h (got "${input}")`, 'For example 30s or 2m')
  return ms
}

/** A window: `0` (off), a whole number with ms, s, m, h or d, or plain seconds. A UsageError (exit 2) naming `what` otherwise. */
export function parseRepeatWindow(input: string, what: string): number {
  const text = input.trim()
  const days = /^(\d+)d$/.exec(text)
  try {
    return days ? durationMs(`${Number(days[1]) * 24}h`, what) : durationMs(text, what)
  } catch {
    throw new UsageError(`${what} takes a duration such as 24h, 90m, 2d, or 0 to turn the check off (got "${input}")`)
  }
}
