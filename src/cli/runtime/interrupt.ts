// Ctrl-C (SIGINT) and SIGTERM during a long command: the first one aborts a signal, so that the
// command stops at a safe point (a wait stops at once; a request in flight is let finish and its
// result recorded) and says how to resume; a second one ends the process at once (exit 130 for
// SIGINT, 143 for SIGTERM), after the process-wide clean-ups (./signals.ts) have run.
// While a watch is active, the process-wide handler leaves the first signal to it.
//
// conf's atomic writer hooks every signal (when-exit): it runs its clean-ups, then sends the same
// signal to this process again, expecting it to die. That echo comes within milliseconds of the
// first signal; a person's second Ctrl-C does not, so a repeat within ECHO_MS is not counted.
import { deferSignals, ECHO_MS, exitForSignal, runCleanups } from './signals.js'

export interface Interrupts {
  signal: AbortSignal
  /**
   * Removes the handlers (call it in `finally`). After a signal they stay, so that the echo
   * cannot kill the process while it reports the interruption (they hold no event-loop handle).
   */
  dispose(): void
}

export function watchInterrupts(target: NodeJS.Process = process, now: () => number = Date.now): Interrupts {
  const controller = new AbortController()
  const release = deferSignals()
  let firstAt = 0
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => {
    if (controller.signal.aborted) {
      if (now() - firstAt > ECHO_MS) {
        runCleanups()
        exitForSignal(target, name)
      }
      return
    }
    firstAt = now()
    controller.abort(name)
  }
  // Bound by name: a signal emitted without its name as argument is still told apart.
  const onInt = () => onSignal('SIGINT')
  const onTerm = () => onSignal('SIGTERM')
  target.on('SIGINT', onInt)
  target.on('SIGTERM', onTerm)
  return {
    signal: controller.signal,
    dispose() {
      release()
      if (controller.signal.aborted) return
      target.off('SIGINT', onInt)
      target.off('SIGTERM', onTerm)
    },
  }
}

/** Waits for SIGINT or SIGTERM, for a command that runs until stopped (a server); gives its name. */
export async function stopSignal(): Promise<NodeJS.Signals> {
  const interrupts = watchInterrupts()
  try {
    await new Promise((resolve) => interrupts.signal.addEventListener('abort', resolve, { once: true }))
    return interrupts.signal.reason as NodeJS.Signals
  } finally {
    interrupts.dispose()
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
