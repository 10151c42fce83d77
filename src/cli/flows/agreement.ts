// Waiting for a PayTo agreement to become Active: the contract's step "poll GET
// /payto/agreement?token= every few seconds until status is Active". Shared by `payto agree
// --poll`, `payto status --poll`, `payto pay` and `payto save`.
//
// `Active` is the only status the contract names. The emulator also names `Pending`, and four
// states an agreement does not come back from: `Declined`, `Cancelled`, `Suspended`, `Expired`
// (docs/emulator.md, PayTo). Any other status is taken as still pending.
import type { Agreement, PayfacClient } from '../../client/index.js'
import { InterruptedError, RefusedError, WaitTimeoutError } from '../errors/index.js'
import { durationMs } from '../validate/durations.js'
import { type ProgressStream, formatElapsed, poll, progress } from '../terminal/wait.js'
import { commandLine, watchInterrupts } from '../runtime/interrupt.js'

/** Statuses after which waiting is pointless, and what each means for a person. */
export const AGREEMENT_ENDED: Readonly<Record<string, string>> = {
  Declined: 'the customer declined it',
  Cancelled: 'it was cancelled',
  Suspended: 'it is suspended',
  Expired: 'it expired',
}

export function classifyAgreement(agreement: Agreement): { status: string; state: 'pending' | 'done' | 'failed' } {
  const status = agreement.status
  if (status === 'Active') return { status, state: 'done' }
  if (Object.hasOwn(AGREEMENT_ENDED, status)) return { status, state: 'failed' }
  return { status, state: 'pending' }
}

export interface AgreementWaitOptions {
  intervalMs: number
  timeoutMs: number
  /** The command that carries on waiting, named by the timeout and interrupt errors. */
  resume: string
  /** Stops the wait; without one, Ctrl-C and SIGTERM are watched for the time of the wait. */
  signal?: AbortSignal | undefined
  stderr?: ProgressStream | undefined
  now?: (() => number) | undefined
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined
}

/** `--interval` and `--timeout` as milliseconds. */
export function waitTimes(flags: { interval: string; timeout: string }): { intervalMs: number; timeoutMs: number } {
  return { intervalMs: Math.max(1, durationMs(flags.interval, '--interval')), timeoutMs: durationMs(flags.timeout, '--timeout') }
}

/**
 * Polls the agreement until it is Active and returns it. Throws RefusedError when it ended
 * (exit 6), WaitTimeoutError when the time ran out (exit 8) and InterruptedError on Ctrl-C
 * (exit 130); the last two name `resume`.
 */
export async function waitUntilActive(client: Pick<PayfacClient, 'payto'>, token: string, options: AgreementWaitOptions): Promise<Agreement> {
  const interrupts = options.signal ? undefined : watchInterrupts()
  const signal = options.signal ?? interrupts?.signal
  const spinner = progress(options.stderr ?? process.stderr, { label: `Waiting for agreement ${token}`, now: options.now })
  try {
    const result = await poll({
      read: (s) => client.payto.agreement(token, { signal: s }),
      classify: classifyAgreement,
      intervalMs: options.intervalMs,
      timeoutMs: options.timeoutMs,
      signal,
      now: options.now,
      sleep: options.sleep,
      onUpdate: (update) => spinner.update(update.status),
    })
    spinner.stop()
    const after = formatElapsed(result.elapsedMs)
    if (result.outcome === 'done') return result.record
    if (result.outcome === 'failed') {
      throw new RefusedError(
        `Agreement ${token} is ${result.status}: ${AGREEMENT_ENDED[result.status] ?? 'it cannot become Active'}. Send a new agreement to take a payment.`,
      )
    }
    if (result.outcome === 'timeout') throw new WaitTimeoutError(`Agreement ${token} is still ${result.status} after ${after}`, options.resume)
    throw new InterruptedError(`Interrupted while waiting for agreement ${token} (${result.status ?? 'not read yet'} after ${after})`, options.resume)
  } finally {
    spinner.stop()
    interrupts?.dispose()
  }
}

/** `payfac payto status <token> --poll`, keeping the profile and base URL flags given to this command. */
export function statusResume(bin: string, token: string, flags: { profile?: string | undefined; 'base-url'?: string | undefined }): string {
  const args = ['payto', 'status', token, '--poll']
  if (flags.profile) args.push('--profile', flags.profile)
  if (flags['base-url']) args.push('--base-url', flags['base-url'])
  return commandLine(bin, args)
}
