// One attempt's abort signal: aborted by its deadline or by any of the caller's signals (with that
// signal's reason). The listeners on the caller's signals go when the attempt is disarmed, so a
// client that sends many requests (a report in many parts) does not pile them up.

export interface Attempt {
  readonly signal: AbortSignal
  /** The deadline fired (not the caller). */
  timedOut(): boolean
  /** One of the caller's signals fired. */
  callerAborted(): boolean
  /** Stops the deadline only: a streamed body keeps following the caller's signals. */
  stopDeadline(): void
  /** Stops the deadline and lets go of the caller's signals. */
  disarm(): void
}

export function armAttempt(signals: AbortSignal[], setDeadline: (onExpiry: () => void, ms: number) => () => void, timeoutMs: number): Attempt {
  const timer = new AbortController()
  let timedOut = false
  const stopDeadline = setDeadline(() => {
    timedOut = true
    timer.abort(new Error('timeout'))
  }, timeoutMs)
  const follow = () => {
    const source = signals.find((given) => given.aborted)
    if (source && !timer.signal.aborted) timer.abort(source.reason)
  }
  for (const given of signals) given.addEventListener('abort', follow)
  follow()
  return {
    signal: timer.signal,
    timedOut: () => timedOut,
    callerAborted: () => signals.some((given) => given.aborted),
    stopDeadline,
    disarm: () => {
      stopDeadline()
      for (const given of signals) given.removeEventListener('abort', follow)
    },
  }
}
