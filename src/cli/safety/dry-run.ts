// `--dry-run`: the client's intercept hook stops the first request that would change something
// (anything but GET, HEAD and OPTIONS) before it leaves; the command ends there and prints that request.
// Reads (GET) are made as usual when the service answers them: they change nothing, and some
// requests are built from them (a refund's currency). A read that cannot reach the service in a
// dry run is skipped by the helpers that make it (`readForDryRun`).
import type { OutgoingRequest } from '../../client/transport.js'
import { ConnectionError, TimeoutError } from '../../client/errors.js'
import { sanitizeLine } from '../../output/sanitize.js'

/** Thrown by the intercept hook in a dry run; the command's catch prints it and exits 0. */
export class DryRunStop extends Error {
  override name = 'DryRunStop'
  readonly request: OutgoingRequest
  /** Why the real run would be refused (the repeat checks: dry-run-checks.ts), if it would. */
  readonly refusals: readonly string[]

  constructor(request: OutgoingRequest, refusals: readonly string[] = []) {
    super(`Dry run: ${request.method} ${request.path} was not sent`)
    this.request = request
    this.refusals = [...refusals]
  }
}

export function isDryRunStop(error: unknown): error is DryRunStop {
  return error instanceof Error && error.name === 'DryRunStop' && 'request' in error
}

/** What a dry run prints on stdout. */
export function dryRunReport(stop: DryRunStop): Record<string, unknown> {
  const { method, url, headers, body } = stop.request
  const report: Record<string, unknown> = { dryRun: true, sent: false, request: { method, url, headers, body: body ?? null } }
  // Added only when the real run would be refused: the report keeps its shape otherwise.
  if (stop.refusals.length > 0) report.wouldBeRefused = stop.refusals.join('; ')
  return report
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Anything but a read (GET, HEAD, OPTIONS): what a dry run never sends and production confirms. */
export function changes(method: string): boolean {
  return !READS.has(method.toUpperCase())
}

/**
 * A read a command makes before it sends; in a dry run, a service that cannot be reached makes
 * it undefined (said on stderr) instead of failing.
 */
export async function readForDryRun<T>(dryRun: boolean, what: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read()
  } catch (error) {
    if (!dryRun || !(error instanceof ConnectionError || error instanceof TimeoutError)) throw error
    process.stderr.write(`${sanitizeLine(`Dry run: could not read ${what} (${error.message}); its checks are skipped.`)}\n`)
    return undefined
  }
}
