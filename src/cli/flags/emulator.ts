// Flags and paths of the `payfac emulator …` control commands. The control plane lives under
// /__emulator on the emulator's base URL (the resolved profile's); it needs no credential, and
// every call may name a namespace with the Emulator-Namespace header. An emulator that listens
// beyond loopback wants its control token: PAYFAC_EMULATOR_TOKEN is sent as Emulator-Control-Token.
import * as Flags from '@oclif/core/flags'

import { LOCAL_BASE_URL } from '../../well-known.js'
import { UsageError } from '../errors/index.js'

export const CONTROL_PATH = '/__emulator'

const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
const DURATION = /^\d+(\.\d+)?(ms|s|m|h|d)?$/

/** `--namespace`: which emulator namespace the call acts on (Emulator-Namespace header). */
export const namespaceFlag = Flags.string({
  description: 'Emulator namespace to act on (Emulator-Namespace header); default: the default namespace.',
  parse: async (input) => {
    const value = input.trim()
    if (!NAMESPACE.test(value))
      throw new UsageError(`--namespace takes 1 to 64 letters, digits, ".", "-" or "_" (got "${input}")`, 'For example --namespace ci-run-42')
    return value
  },
})

/** The environment variable that holds an emulator's control token (`emulator start --control-token`). */
export const EMULATOR_TOKEN_ENV = 'PAYFAC_EMULATOR_TOKEN'

/** The headers of a control call: the namespace, when one is named, and the control token, when set. */
export function controlHeaders(namespace: string | undefined, env: Record<string, string | undefined> = process.env): Record<string, string> {
  const token = env[EMULATOR_TOKEN_ENV]?.trim()
  return { ...(namespace ? { 'Emulator-Namespace': namespace } : {}), ...(token ? { 'Emulator-Control-Token': token } : {}) }
}

/** The integrator options of `emulator start` from its flags (fixtures apart); refuses --allow-private-webhooks alone. */
export function emulatorOptions(flags: {
  seed?: string | undefined
  'rate-limit'?: number | undefined
  strict: boolean
  'strict-https': boolean
  'allow-remote-webhooks': boolean
  'allow-private-webhooks': boolean
}) {
  if (flags['allow-private-webhooks'] && !flags['allow-remote-webhooks']) {
    throw new UsageError('--allow-private-webhooks widens --allow-remote-webhooks and needs it', 'Give both: --allow-remote-webhooks --allow-private-webhooks')
  }
  return {
    ...(flags.seed !== undefined ? { faultSeed: flags.seed } : {}),
    ...(flags['rate-limit'] ? { rateLimit: flags['rate-limit'] } : {}),
    strict: flags.strict,
    strictHttps: flags['strict-https'],
    allowRemoteWebhooks: flags['allow-remote-webhooks'],
    allowPrivateWebhooks: flags['allow-private-webhooks'],
  }
}

/** What `emulator start` says on stderr when other machines can reach it; the token only when it was generated. */
export function exposedWarning(address: string, generatedToken: string | undefined): string {
  const lines = [
    `Warning: the emulator listens on ${address}, so other machines can reach it (its keys and webhook secrets are not secret).`,
    `The control plane (/__emulator) needs the header Emulator-Control-Token; payfac emulator commands send ${EMULATOR_TOKEN_ENV}.`,
  ]
  if (generatedToken) lines.push(`Control token (shown once): ${generatedToken}`)
  return lines.join('\n')
}

/**
 * What `emulator start` says on stderr when it is not where the built-in `local` profile looks
 * (http://127.0.0.1:4010): the lines that point payfac at it. '' at the usual address.
 */
export function baseUrlExport(url: string): string {
  if (url === LOCAL_BASE_URL) return ''
  return `The local profile looks at ${LOCAL_BASE_URL}; point payfac at this emulator with:\nexport PAYFAC_BASE_URL=${url}\n`
}

/**
 * A port `emulator start` could not take (the emulator's ListenError), as a usage error whose
 * hint names another port and the PAYFAC_BASE_URL that goes with it. Other errors pass unchanged.
 */
export function listenRefused(error: unknown, port: number, host: string): unknown {
  if (!(error instanceof Error) || error.name !== 'ListenError') return error
  const next = port > 0 && port < 65_535 ? port + 1 : 4011
  const where = host.includes(':') ? `[${host}]` : host
  return new UsageError(
    error.message,
    `Choose another port and point payfac at it: --port ${next}, then export PAYFAC_BASE_URL=http://${where}:${next}; or --port 0 for a free one, and export the URL it prints`,
  )
}

/** Checks a clock advance such as 90s, 10m, 2h or 1d (sent as given; the emulator reads it). */
export function checkAdvance(input: string): string {
  const value = input.trim()
  if (!DURATION.test(value) || Number.parseFloat(value) <= 0) {
    throw new UsageError(`--advance takes a duration such as 90s, 10m, 2h or 1d (got "${input}")`)
  }
  return value
}

/** An event name: PascalCase, such as TransactionPaid. */
export function checkEventType(input: string): string {
  const value = input.trim()
  if (!/^[A-Z][A-Za-z0-9]*$/.test(value)) throw new UsageError(`"${input}" is not an event name (PascalCase, such as TransactionPaid)`)
  return value
}

const FAULT_PART =
  /^(503|500|reset|drop-after-commit|commit-then-status\s*=\s*50[0234]|(empty|malformed)-page\s*=\s*\d+|429(\s*;\s*retry-after\s*=\s*\d+)?|latency\s*=\s*\d+)$/i

/** A fault as the Emulator-Fault header takes it: 503, 500, 429;retry-after=<s>, latency=<ms>, reset, drop-after-commit or commit-then-status=<status>. */
export function checkFault(input: string): string {
  const parts = input.split(',').map((p) => p.trim())
  if (parts.length === 0 || parts.some((p) => !FAULT_PART.test(p))) {
    throw new UsageError(
      `--add takes a fault such as 503, 500, 429;retry-after=2, latency=500, reset, drop-after-commit, commit-then-status=503, empty-page=3 or malformed-page=3 (got "${input}")`,
      'latency may go with one other fault: "latency=800,503"',
    )
  }
  return parts.join(',')
}

/** A probability from 0 to 1. */
export function checkProbability(input: string): string {
  const value = Number(input)
  if (input.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`--probability takes a number from 0 to 1 (got "${input}")`, 'For example --probability 0.25')
  }
  return input.trim()
}
