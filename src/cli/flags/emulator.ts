// Flags and paths of the `payfac emulator …` control commands. The control plane lives under
// /__emulator on the emulator's base URL (the resolved profile's); it needs no credential, and
// every call may name a namespace with the Emulator-Namespace header. An emulator that listens
// beyond loopback wants its control token: PAYFAC_EMULATOR_TOKEN is sent as Emulator-Control-Token.
import path from 'node:path'

import * as Flags from '@oclif/core/flags'

import { LOCAL_BASE_URL, LOCAL_PORT } from '../../well-known.js'
import { UsageError } from '../errors/index.js'
import { checkedBy } from './checked.js'
import { waitMs } from '../validate/durations.js'

export const CONTROL_PATH = '/__emulator'

const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
const DURATION = /^\d+(\.\d+)?(ms|s|m|h|d)?$/

/** `--namespace`: which emulator namespace the call acts on (Emulator-Namespace header). */
export const namespaceFlag = Flags.string({
  description: 'Emulator namespace to act on (Emulator-Namespace header); default: the default namespace.',
  parse: async (input) => namespaceFlagParse(input),
})

function namespaceFlagParse(input: string): string {
  const value = input.trim()
  if (!NAMESPACE.test(value))
    throw new UsageError(`--namespace takes 1 to 64 letters, digits, ".", "-" or "_" (got "${input}")`, 'For example --namespace ci-run-42')
  return value
}

/** `--port` of `emulator status`, `wait` and `stop`: which background emulator (default: the only one). */
export const recordPortFlag = Flags.integer({
  description: 'The port of the background emulator (emulator start --detach) to act on; default: the only one.',
  min: 1,
  max: 65_535,
})

/** The flags of `emulator start`: where it listens, what it starts from, and --detach with its own. */
export function emulatorStartFlags() {
  return {
    port: Flags.integer({ description: 'Port to listen on; 0 picks a free port.', default: LOCAL_PORT, min: 0, max: 65_535 }),
    host: Flags.string({
      description: 'Address to listen on. Other than loopback, the control plane needs a control token (printed at start).',
      default: '127.0.0.1',
    }),
    'control-token': Flags.string({
      description: 'Require this Emulator-Control-Token header on /__emulator requests (default: one is generated when --host is not loopback).',
      env: EMULATOR_TOKEN_ENV,
    }),
    state: Flags.string({ description: 'Keep the state in this JSON file (loaded at start, saved after every change).' }),
    log: Flags.boolean({ description: 'Log one line per request to stderr (with --detach: to the log file).', default: false }),
    fixtures: Flags.string({ description: 'JSON file of records to add to the seed (merchants, customers, agreements, subscriptions, balances, tokens).' }),
    seed: Flags.string({ description: 'Seed of the random draws of standing fault rules, so that a run can be repeated.' }),
    'rate-limit': Flags.integer({ description: 'Answer 429 with Retry-After beyond this many requests per second (per namespace).', min: 1 }),
    strict: Flags.boolean({
      description:
        'Hold requests to the contract: refuse fields the emulator does not know and decimal item quantities (400), instead of accepting and reporting them.',
      default: false,
    }),
    'strict-https': Flags.boolean({ description: 'Refuse webhook urls that are not https, loopback http included.', default: false }),
    'allow-remote-webhooks': Flags.boolean({
      description: 'Deliver webhooks to public hosts other than this machine (off by default: the emulator never reaches out unless asked).',
      default: false,
    }),
    'allow-private-webhooks': Flags.boolean({
      description: 'With --allow-remote-webhooks, deliver to private, link-local, CGNAT and cloud metadata addresses too.',
      default: false,
    }),
    detach: Flags.boolean({
      description:
        'Run in the background: return once it answers, print the export PAYFAC_BASE_URL line, and keep a record for emulator status, wait and stop.',
      default: false,
    }),
    'log-file': Flags.string({
      description: 'With --detach: append its output here (default: <port>.log, or <run id>.log with --port 0, in the emulators folder of the config folder).',
      dependsOn: ['detach'],
    }),
    namespace: Flags.string({
      description: 'With --detach: the namespace the run is for (made before it returns, shown by emulator status).',
      dependsOn: ['detach'],
      parse: async (input) => namespaceFlagParse(input),
    }),
    timeout: Flags.string({
      description: 'With --detach: give up (exit 7) when it does not answer within this long, such as 30s.',
      default: '60s',
      parse: checkedBy((input) => waitMs(input, '--timeout')),
    }),
    instance: Flags.string({ description: 'The background run this process is (set by --detach).', hidden: true }),
  }
}

/** The flags of `emulator start` that shape what the emulator allows (emulatorOptions). */
export interface IntegratorFlagValues {
  seed?: string | undefined
  'rate-limit'?: number | undefined
  strict: boolean
  'strict-https': boolean
  'allow-remote-webhooks': boolean
  'allow-private-webhooks': boolean
}

/** The flags of `emulator start` that a background run is given as they are. */
export function forwardedStartFlags(flags: IntegratorFlagValues & { state?: string | undefined; log: boolean; fixtures?: string | undefined }): string[] {
  const args: string[] = []
  // Files are made absolute: the run resolves them as this shell would.
  if (flags.state !== undefined) args.push('--state', path.resolve(flags.state))
  if (flags.fixtures !== undefined) args.push('--fixtures', path.resolve(flags.fixtures))
  if (flags.seed !== undefined) args.push('--seed', flags.seed)
  if (flags['rate-limit'] !== undefined) args.push('--rate-limit', String(flags['rate-limit']))
  for (const name of ['log', 'strict', 'strict-https', 'allow-remote-webhooks', 'allow-private-webhooks'] as const) if (flags[name]) args.push(`--${name}`)
  return args
}

/** The environment variable that holds an emulator's control token (`emulator start --control-token`). */
export const EMULATOR_TOKEN_ENV = 'PAYFAC_EMULATOR_TOKEN'

/** The headers of a control call: the namespace, when one is named, and the control token, when set. */
export function controlHeaders(namespace: string | undefined, env: Record<string, string | undefined> = process.env): Record<string, string> {
  const token = env[EMULATOR_TOKEN_ENV]?.trim()
  return { ...(namespace ? { 'Emulator-Namespace': namespace } : {}), ...(token ? { 'Emulator-Control-Token': token } : {}) }
}

/** The integrator options of `emulator start` from its flags (fixtures apart); refuses --allow-private-webhooks alone. */
export function emulatorOptions(flags: IntegratorFlagValues) {
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
