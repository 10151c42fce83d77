// Where `webhooks listen` gets the secret that checks signatures, and when it refuses to start
// without one (it fails closed):
// - --secret (or `-` for stdin, or PAYFAC_WEBHOOK_SECRET), else the secret of the subscription it
//   creates or is given (`--subscription`), as the API answers it;
// - against a local emulator (a local profile on a loopback address), else the emulator's
//   control plane (`GET /__emulator/webhooks/<id>`);
// - else it does not start: exit 2, saying how to give one. `--skip-verify` starts without one,
//   loudly, and is refused against production (exit 3) and beside a secret (exit 2).
import type { PayfacClient } from '../../client/client.js'
import { isLiteralLoopback, isLocalhostName } from '../../client/loopback.js'
import { ConfigError } from '../../config/errors.js'
import type { Environment } from '../../config/profiles.js'
import { UsageError } from '../errors/index.js'
import { WEBHOOK_SECRET_ENV } from '../flags/secret.js'
import { CONTROL_PATH, controlHeaders } from '../flags/emulator.js'

const HOW_TO_GIVE = `Give the subscription's secret with --secret (--secret - reads it from stdin; or set ${WEBHOOK_SECRET_ENV}); payfac webhooks get <id> --show-secret shows it`

/** Refusals that need no request: --skip-verify beside a secret or on production; production without a secret. */
export function checkSecretChoice(
  options: { secret?: string | undefined; skipVerify?: boolean | undefined; subscriptionId?: string | undefined },
  environment: Environment,
): void {
  if (options.skipVerify && options.secret !== undefined) {
    throw new UsageError(
      '--skip-verify and a secret were both given',
      `Leave out --skip-verify to check signatures with the secret (or unset ${WEBHOOK_SECRET_ENV})`,
    )
  }
  if (options.skipVerify && environment === 'production') {
    throw new ConfigError('--skip-verify is never allowed against production: anyone could forge a delivery to your handler.', { hint: HOW_TO_GIVE })
  }
  if (environment === 'production' && options.secret === undefined && options.subscriptionId === undefined) throw missingSecret(environment)
}

/** The refusal when no secret could be found. */
export function missingSecret(environment: Environment): UsageError {
  const skip = environment === 'production' ? '' : '; or, to try a handler without checks, --skip-verify'
  return new UsageError('webhooks listen checks every signature and has no secret to check them with', `${HOW_TO_GIVE}${skip}`)
}

/** True for a local profile whose base URL is this machine. */
export function isLocalEmulator(settings: { environment: Environment; baseUrl: string }): boolean {
  if (settings.environment !== 'local' || !URL.canParse(settings.baseUrl)) return false
  const host = new URL(settings.baseUrl).hostname
  return isLiteralLoopback(host) || isLocalhostName(host)
}

/** The subscription's secret from a local emulator's control plane; undefined when not local or not found. */
export async function secretFromEmulator(
  client: PayfacClient,
  settings: { environment: Environment; baseUrl: string },
  subscriptionId: string,
): Promise<string | undefined> {
  if (!isLocalEmulator(settings)) return undefined
  try {
    const path = `${CONTROL_PATH}/webhooks/${encodeURIComponent(subscriptionId)}`
    const answer = await client.request<{ secret?: unknown }>({ method: 'GET', path, headers: controlHeaders(undefined) })
    return typeof answer.body?.secret === 'string' && answer.body.secret !== '' ? answer.body.secret : undefined
  } catch {
    return undefined
  }
}

/** What `--skip-verify` says at start, on stderr. */
export function skipVerifyWarning(url: string, forwardTo: string | undefined): string {
  const target = forwardTo ? ` and forwarded to ${forwardTo}` : ''
  return `WARNING: --skip-verify: signatures are NOT checked. Anything that can reach ${url} can send a forged delivery, and it will be accepted${target}. Use it only to try a handler locally.`
}
