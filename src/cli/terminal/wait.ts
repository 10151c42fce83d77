// Waiting for something to reach a state (`--poll`): a pure polling loop, and a small progress
// renderer for stderr. The loop takes its clock, its sleep and the read of the state as
// arguments, so tests drive it without timers; the renderer takes its stream and clock.
//
// Used by `payto agree --poll`, `payto status --poll` and the PayTo flows (cli/flows/).
import { setTimeout as delay } from 'node:timers/promises'
import { sanitizeLine } from '../../output/sanitize.js'
import { unicodeAllowed } from '../../output/terminal.js'

/** Where a poll stands after one read. */
export type PollState = 'pending' | 'done' | 'failed'

export interface PollUpdate<R> {
  status: string
  record: R
  elapsedMs: number
  /** The status differs from the previous read (always true for the first read). */
  changed: boolean
}

export interface PollOptions<R> {
  /** Reads the current record; receives the abort signal so that a read in flight can be cut short. */
  read: (signal?: AbortSignal) => Promise<R>
  /** The record's status as shown to a person, and whether it ends the wait. */
  classify: (record: R) => { status: string; state: PollState }
  intervalMs: number
  timeoutMs: number
  /** Called after every read. */
  onUpdate?: ((update: PollUpdate<R>) => void) | undefined
  /** Stops the wait (Ctrl-C): the result is then `interrupted`. */
  signal?: AbortSignal | undefined
  /** Milliseconds since some fixed point. Default: performance.now(). */
  now?: (() => number) | undefined
  /** Waits `ms`, rejecting when the signal aborts. Default: node's timers/promises setTimeout. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined
}

export type PollResult<R> =
  | { outcome: 'done' | 'failed' | 'timeout'; status: string; record: R; elapsedMs: number; reads: number }
  /** Stopped by the signal; `record` and `status` are those of the last read, if there was one. */
  | { outcome: 'interrupted'; status: string | undefined; record: R | undefined; elapsedMs: number; reads: number }

const defaultSleep = async (ms: number, signal?: AbortSignal) => {
  await delay(ms, undefined, signal ? { signal } : undefined)
}

/**
 * Reads at once, then every `intervalMs`, until the record is done or failed, the time is up
 * (one last read happens at the deadline), or the signal aborts. Errors of `read` are thrown as
 * they are, except when the signal has aborted (then the result is `interrupted`).
 */
export async function poll<R>(options: PollOptions<R>): Promise<PollResult<R>> {
  const now = options.now ?? (() => performance.now())
  const sleep = options.sleep ?? defaultSleep
  const { signal } = options
  const start = now()
  const elapsed = () => Math.max(0, now() - start)
  let last: { status: string; record: R } | undefined
  let reads = 0
  const interrupted = (): PollResult<R> => ({ outcome: 'interrupted', status: last?.status, record: last?.record, elapsedMs: elapsed(), reads })

  for (;;) {
    if (signal?.aborted) return interrupted()
    let record: R
    try {
      record = await options.read(signal)
    } catch (error) {
      if (signal?.aborted) return interrupted()
      throw error
    }
    reads++
    const { status, state } = options.classify(record)
    const changed = last === undefined || last.status !== status
    last = { status, record }
    const elapsedMs = elapsed()
    options.onUpdate?.({ status, record, elapsedMs, changed })
    if (state !== 'pending') return { outcome: state, status, record, elapsedMs, reads }
    const remaining = options.timeoutMs - elapsedMs
    if (remaining <= 0) return { outcome: 'timeout', status, record, elapsedMs, reads }
    try {
      await sleep(Math.min(options.intervalMs, remaining), signal)
    } catch (error) {
      if (signal?.aborted) return interrupted()
      throw error
    }
  }
}

/** `850ms`, `12s`, `3m 05s`, `1h 02m`: short enough for a spinner line. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  const seconds = Math.floor(ms / 1000)
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`
}

/** What the progress renderer writes to: process.stderr, or a fake in tests. */
export interface ProgressStream {
  write(text: string): unknown
  isTTY?: boolean | undefined
}

export interface Progress {
  /** The latest status; on a terminal it is redrawn with the time elapsed, piped it is one line per change. */
  update(status: string): void
  /** Clears the spinner line (on a terminal) and stops redrawing. Safe to call twice. */
  stop(): void
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

export interface ProgressOptions {
  /** What is waited for, such as "Agreement ptagr_… → Active". */
  label: string
  /** Spinner (true) or one line per status change (false). Default: the stream is a terminal and TERM is not dumb. */
  interactive?: boolean | undefined
  /** Milliseconds since some fixed point. Default: performance.now(). */
  now?: (() => number) | undefined
  /** Redraw period of the spinner. Default 100 ms. */
  frameMs?: number | undefined
}

/**
 * A spinner on a terminal (`⠋ Agreement ptagr_… → Active: Pending (12s)`, redrawn in place), or
 * plain lines when piped (`Agreement ptagr_… → Active: Pending (0s)`, one per status change).
 */
export function progress(stream: ProgressStream, options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now())
  const interactive = options.interactive ?? (Boolean(stream.isTTY) && process.env.TERM !== 'dumb')
  const start = now()
  let status: string | undefined
  let frame = 0
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  // The status is the service's word: shown inert. A locale that is not UTF-8 spins in ASCII.
  const line = () => sanitizeLine(`${options.label}: ${status ?? 'checking'} (${formatElapsed(now() - start)})`)
  const frames = unicodeAllowed(process.env) ? FRAMES : ['|', '/', '-', '\\']
  const draw = () => {
    if (stopped) return
    stream.write(`\r\u001b[2K${frames[frame++ % frames.length]} ${line()}`)
  }
  if (interactive) {
    draw()
    timer = setInterval(draw, options.frameMs ?? 100)
    timer.unref()
  }
  return {
    update(next) {
      if (stopped) return
      const changed = next !== status
      status = next
      if (interactive) draw()
      else if (changed) stream.write(`${line()}\n`)
    },
    stop() {
      if (stopped) return
      stopped = true
      if (timer) clearInterval(timer)
      if (interactive) stream.write('\r\u001b[2K')
    },
  }
}
