// The production guard: on a production target, anything but a read shows what it will send and
// asks first (on a terminal, once per command run), or needs --yes. Never a prompt when CI is
// set or --no-input is given. Declined or missing confirmation: exit 3, nothing sent.
import { ConfigError } from '../../config/errors.js'
import type { Environment } from '../../config/profiles.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { whyNoPrompt } from '../terminal/prompts.js'

export interface Confirmation {
  /** What the command is about to do, one line (the command and its target). */
  what: string
  /** Label and value lines shown under it: environment, merchant, target, amount. */
  details: Array<[string, string]>
  yes: boolean
  /** Why nobody can be asked (prompts.ts whyNoPrompt), or undefined when a person can be. */
  noPrompt: string | undefined
}

/** Refuses (ConfigError, exit 3) unless --yes or a person at a terminal says yes. */
export async function confirmOnProduction(c: Confirmation): Promise<void> {
  if (c.yes) return
  if (c.noPrompt !== undefined) throw noTerminal(c.what, c.noPrompt)
  const width = Math.max(...c.details.map(([label]) => label.length))
  const lines = c.details.map(([label, value]) => `  ${label.padEnd(width)}  ${sanitizeLine(value)}`)
  process.stderr.write(`About to send on PRODUCTION: ${sanitizeLine(c.what)}\n${lines.join('\n')}\n`)
  const { confirm } = await import('@inquirer/prompts')
  let agreed = false
  try {
    agreed = await confirm({ message: 'Go ahead?', default: false }, { output: process.stderr })
  } catch {
    agreed = false
  }
  if (!agreed) {
    throw new ConfigError('Not confirmed: nothing was sent.', {
      reason: 'production-guard',
      hint: 'Run it again and answer yes, or add --yes when you are sure.',
    })
  }
}

/** The refusal when nobody can be asked: `why` is "there is no terminal to ask", "CI is set (CI=true)", "--no-input was given". */
export function noTerminal(what: string, why = 'there is no terminal to ask'): ConfigError {
  return new ConfigError(`${what} on production needs confirmation, and ${why}: nothing was sent.`, {
    reason: 'production-guard',
    hint: 'Add --yes to confirm it in a script, or --dry-run to see the request without sending it.',
  })
}

/**
 * The one-line notice whenever a production target is used. `reason` (config/environment.ts) is
 * added when a profile is production by something other than its own label, so that a profile
 * labelled local or sandbox is not a surprise there.
 */
export function productionBanner(profileName: string | undefined, environment: string, baseUrl: string, liveKey: boolean, reason?: string): string {
  const who = profileName ? `profile "${profileName}"` : 'PAYFAC_API_KEY (no profile)'
  const raised = profileName !== undefined && reason !== undefined && reason !== `profile ${profileName} says production`
  const why = environment === 'production' ? `environment production${raised ? ` (${reason})` : ''}` : `a live_ credential (environment ${environment})`
  return `PRODUCTION: ${who}, ${why}, ${baseUrl}${liveKey && environment === 'production' ? ' (live key)' : ''}`
}

/**
 * `profiles remove`: a production profile is removed only when confirmed (a terminal, no CI, no
 * --no-input) or with --yes; `--dry-run` says what would be removed. Returns false for a dry run (remove nothing).
 */
export async function confirmProfileRemoval(
  profile: { name: string; environment: Environment; baseUrl: string; credential: string; merchantId?: string | undefined } | undefined,
  flags: { yes: boolean; dryRun: boolean; noInput?: boolean | undefined },
  noPrompt: string | undefined = whyNoPrompt(flags.noInput),
): Promise<boolean> {
  if (flags.dryRun) return false
  if (!profile) return true
  // Loaded here: profiles.ts brings zod, and `profiles remove` imports this file at start-up.
  const [{ decideEnvironment }, { keyEnvironment }] = await Promise.all([import('../../config/environment.js'), import('../../config/profiles.js')])
  const { environment } = decideEnvironment({
    profile,
    replaced: false,
    credential: profile.credential,
    baseUrl: profile.baseUrl,
    urlOrigin: `profile ${profile.name}`,
    credentialOrigin: `profile ${profile.name}`,
  })
  if (environment !== 'production' && keyEnvironment(profile.credential) !== 'live') return true
  const details: Array<[string, string]> = [
    ['environment', 'production'],
    ['target', profile.baseUrl],
  ]
  if (profile.merchantId) details.push(['merchant', profile.merchantId])
  await confirmOnProduction({ what: `removal of profile "${profile.name}" and its credential`, details, yes: flags.yes, noPrompt })
  return true
}
