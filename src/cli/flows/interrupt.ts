// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one aborts a signal, so that the
// command stops at a safe point (a wait stops at once; a request in flight is let finish and its
// result recorded) and says how to resume; a second one ends the process at once (exit 130, or
// 143 when it is a SIGTERM).
//
// conf's atomic writer hooks every signal (when-exit): it runs its clean-ups, then sends the same
// signal to this process again, expecting it to die. That echo comes within milliseconds of the
// first signal; a person's second Ctrl-C does not, so a repeat within ECHO_MS is not counted.

export interface Interrupts {
  signal: AbortSignal
  /**
   * Removes the handlers (call it in `finally`). After a signal they stay, so that the echo
   * cannot kill the process while it reports the interruption (they hold no event-loop handle).
   */
  dispose(): void
}

/** A repeat of the signal within this time is an echo, not a second Ctrl-C. */
const ECHO_MS = 300

export function watchInterrupts(target: NodeJS.Process = process, now: () => number = Date.now): Interrupts {
  const controller = new AbortController()
  let firstAt = 0
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      if (now() - firstAt > ECHO_MS) target.exit(name === 'SIGTERM' ? 143 : 130)
      return
    }
    firstAt = now()
    controller.abort(name)
  }
  target.on('SIGINT', onSignal)
  target.on('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    dispose() {
      if (controller.signal.aborted) return
      target.off('SIGINT', onSignal)
      target.off('SIGTERM', onSignal)
    },
  }
}

/** Quotes an argument for a POSIX shell when it needs it, so a printed command can be pasted back. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg
  return `'${arg.replace(/'/g, `'\\''`)}'`
}

/** `payfac payto status ptagr_… --poll`, with the arguments quoted for a shell. */
export function commandLine(bin: string, args: string[]): string {
  return [bin, ...args.map(shellQuote)].join(' ')
}
