// Ctrl-C (SIGINT), SIGTERM and SIGHUP during a long command: the first one aborts a signal, so
// that the command stops at a safe point (a wait stops at once; a request in flight is let finish
// and its result recorded) and says how to resume; a second one ends the process at once (exit 130
// for SIGINT, 143 for SIGTERM, 129 for SIGHUP), after the process-wide clean-ups
// (./signals.ts) have run.
// While a watch is active, the process-wide handler leaves the first signal to it.
//
// conf's atomic writer hooks every signal (when-exit): it runs its clean-ups, then sends the same
// signal to this process again, expecting it to die. That echo comes within milliseconds of the
// first signal; a person's second Ctrl-C does not, so a repeat within ECHO_MS is not counted.
import { deferSignals, ECHO_MS, exitForSignal, HANDLED_SIGNALS, type HandledSignal, runCleanups } from './signals.js'

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
  const onSignal = (name: HandledSignal) => {
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
  const handlers = HANDLED_SIGNALS.map((name) => [name, () => onSignal(name)] as const)
  for (const [name, handler] of handlers) target.on(name, handler)
  return {
    signal: controller.signal,
    dispose() {
      release()
      if (controller.signal.aborted) return
      for (const [name, handler] of handlers) target.off(name, handler)
    },
  }
}

/** Waits for SIGINT, SIGTERM or SIGHUP, for a command that runs until stopped (a server); gives its name. */
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
