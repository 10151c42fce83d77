// SIGINT (Ctrl-C), SIGTERM and SIGHUP (the terminal closed), handled alike for the whole process.
// main() installs the handler once. A signal ends the process at once with 130 (SIGINT), 143
// (SIGTERM) or 129 (SIGHUP: unhandled, it ended payfac at once, its credential command's group
// left running in a session of its own and its temporary files left behind), after the clean-ups
// registered here have run (temporary files removed), with `Interrupted (SIGINT).` on stderr, or
// under --json the line `{"error": {...}}` (stdout never carries an error). A command that
// can stop at a safe point (a wait, a payment flow, a server) holds a deferral through
// watchInterrupts(): the first signal then only aborts its AbortSignal and the command reports
// the interruption itself; a second signal ends the process as above.
//
// conf's atomic writer hooks the signals too (when-exit): it runs its own clean-ups and sends the
// same signal again, expecting the process to die. That echo arrives within milliseconds; a
// person's second Ctrl-C does not, so a repeat within ECHO_MS is ignored.
//
// Exiting waits for every one of libuv's threads still at work (uv_library_shutdown joins them).
// A read of stdin redirected from a device (/dev/kmsg), or of a file on a mount that stopped
// answering, waits in the kernel for ever: payfac said "Interrupted" and never ended. While such a
// read is under way (holdThreadRead), a signal runs the clean-ups and the exit handlers as an exit
// would, then ends the process by the signal itself: the shell sees 130, 143 or 129 all the same.
import { ReadStream } from 'node:fs'

export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const
export type HandledSignal = keyof typeof SIGNAL_EXIT
export const HANDLED_SIGNALS = Object.keys(SIGNAL_EXIT) as HandledSignal[]

/** A repeat of a signal within this time is an echo, not a second Ctrl-C. */
export const ECHO_MS = 300

const cleanups = new Set<() => void>()
let threadReads = 0
const deferrals = new Set<symbol>()
let received: { name: HandledSignal; at: number } | undefined

export function exitCodeForSignal(name: string): 129 | 130 | 143 {
  return name === 'SIGTERM' || name === 'SIGHUP' ? SIGNAL_EXIT[name] : SIGNAL_EXIT.SIGINT
}

/** The first signal this process received, if any (it decides the exit code of an interruption). */
export function receivedSignal(): HandledSignal | undefined {
  return received?.name
}

/**
 * Registers a synchronous clean-up to run if the process ends by a signal or exits before the
 * work is done (for example removing a temporary file); call the returned function once the work
 * is finished or has cleaned up after itself.
 */
export function addCleanup(cleanup: () => void): () => void {
  cleanups.add(cleanup)
  return () => void cleanups.delete(cleanup)
}

/** Runs every registered clean-up once; one failing does not stop the others. */
export function runCleanups(): void {
  const pending = [...cleanups]
  cleanups.clear()
  for (const cleanup of pending) {
    try {
      cleanup()
    } catch {
      // A clean-up is best effort: the process is ending either way.
    }
  }
}

/** While held, the first signal does not end the process: its holder stops at a safe point. */
export function deferSignals(): () => void {
  const token = Symbol('deferral')
  deferrals.add(token)
  return () => void deferrals.delete(token)
}

/**
 * Counts `stream` as a read in libuv's threads (a ReadStream: process.stdin when stdin is a file or
 * a device, or a file opened by payfac) until it ends, fails or closes. Other streams are not.
 */
export function holdThreadRead(stream: NodeJS.ReadableStream): void {
  if (!(stream instanceof ReadStream) || stream.destroyed) return
  threadReads++
  let held = true
  const release = () => {
    if (!held) return
    held = false
    threadReads--
  }
  stream.once('end', release)
  stream.once('error', release)
  stream.once('close', release)
}

/**
 * Ends the process for `signal` (130 or 143); the clean-ups have run. With a read in libuv's
 * threads under way, by the signal itself after the exit handlers (see above).
 */
export function exitForSignal(target: Pick<NodeJS.Process, 'exit'>, signal: HandledSignal): void {
  const code = exitCodeForSignal(signal)
  if (threadReads > 0 && target === process && process.platform !== 'win32') {
    process.exitCode = code
    // What exit() runs before it waits for the threads: every 'exit' listener (clean-ups, children ended).
    process.emit('exit', code)
    // Without a listener, the signal's default action comes back: the kernel ends the process.
    for (const name of HANDLED_SIGNALS) process.removeAllListeners(name)
    process.kill(process.pid, signal)
  }
  target.exit(code)
}

/** Records a signal: the first one, an echo of it, or a repeat (a second Ctrl-C). */
export function noteSignal(name: HandledSignal, now: number): 'first' | 'echo' | 'repeat' {
  if (!received) {
    received = { name, at: now }
    return 'first'
  }
  return now - received.at <= ECHO_MS ? 'echo' : 'repeat'
}

type SignalTarget = Pick<NodeJS.Process, 'on' | 'off' | 'exit'> & { stderr?: { write(text: string): unknown } }

/** Whether this process says an interruption as a JSON line (installSignalHandling's `json`). */
let jsonErrors = false

/**
 * Ends the process now for `signal`, as a signal no command defers does: the clean-ups, the
 * `Interrupted` line, exit 130, 143 or 129. For a command that finds it cannot reach its safe
 * point (its output waits for a reader that stopped reading).
 */
export function endForSignal(signal: HandledSignal): void {
  runCleanups()
  process.stderr.write(interruptedLine(signal, jsonErrors))
  exitForSignal(process, signal)
}

/**
 * Installs the process-wide handler (once; later calls do nothing); returns its removal, for tests.
 * Clean-ups also run on a plain `exit`, so that a path that exits early leaves nothing behind.
 */
export function installSignalHandling(target: SignalTarget = process, now: () => number = Date.now, options: { json?: boolean } = {}): () => void {
  if (installedOn.has(target)) return () => {}
  if (target === process) jsonErrors = options.json === true
  const onSignal = (signal: HandledSignal) => {
    const kind = noteSignal(signal, now())
    if (kind === 'echo') return
    if (kind === 'first' && deferrals.size > 0) return
    runCleanups()
    if (kind === 'first') target.stderr?.write(interruptedLine(signal, options.json === true))
    exitForSignal(target, signal)
  }
  const handlers = HANDLED_SIGNALS.map((name) => [name, () => onSignal(name)] as const)
  for (const [name, handler] of handlers) target.on(name, handler)
  target.on('exit', runCleanups)
  installedOn.add(target)
  return () => {
    for (const [name, handler] of handlers) target.off(name, handler)
    target.off('exit', runCleanups)
    installedOn.delete(target)
  }
}

const installedOn = new Set<unknown>()

/** `Interrupted (SIGINT).`, or under --json the one error line stderr carries then. */
export function interruptedLine(signal: HandledSignal, json: boolean): string {
  const message = `Interrupted (${signal})`
  if (!json) return `${message}.\n`
  return `${JSON.stringify({ error: { code: exitCodeForSignal(signal), type: 'InterruptedError', message } })}\n`
}

/** Whether the command line asks for JSON (--json, --jsonl, --query): errors are then one JSON line on stderr. */
export function wantsJsonErrors(argv: readonly string[]): boolean {
  // `-o json` / `--output json` (flags/output-format.ts) too.
  return argv.some(
    (arg, i) => /^--(json|jsonl|query)(=|$)/.test(arg) || /^(--output=|-o=?)json/.test(arg) || ((arg === '-o' || arg === '--output') && argv[i + 1] === 'json'),
  )
}

/** Forgets received signals, deferrals and clean-ups (tests only). */
export function resetSignalState(): void {
  received = undefined
  threadReads = 0
  deferrals.clear()
  cleanups.clear()
}
