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

  constructor(request: OutgoingRequest) {
    super(`Dry run: ${request.method} ${request.path} was not sent`)
    this.request = request
  }
}

export function isDryRunStop(error: unknown): error is DryRunStop {
  return error instanceof Error && error.name === 'DryRunStop' && 'request' in error
}

/** What a dry run prints on stdout. */
export function dryRunReport(stop: DryRunStop): Record<string, unknown> {
  const { method, url, headers, body } = stop.request
  return { dryRun: true, sent: false, request: { method, url, headers, body: body ?? null } }
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
