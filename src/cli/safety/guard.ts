// The production guard: on a production target, a command that moves money or destroys
// something shows what it will do and asks first (on a terminal), or needs --yes (without one).
// Declined or missing confirmation: exit 3, nothing sent.
import { ConfigError } from '../../config/errors.js'
import { sanitizeLine } from '../../output/sanitize.js'

export interface Confirmation {
  /** What the command is about to do, one line (the command and its target). */
  what: string
  /** Label and value lines shown under it: environment, merchant, target, amount. */
  details: Array<[string, string]>
  yes: boolean
  /** Both stdin and stderr are terminals. */
  interactive: boolean
}

/** Refuses (ConfigError, exit 3) unless --yes or a person at a terminal says yes. */
export async function confirmOnProduction(c: Confirmation): Promise<void> {
  if (c.yes) return
  if (!c.interactive) throw noTerminal(c.what)
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

export function noTerminal(what: string): ConfigError {
  return new ConfigError(`${what} on production needs confirmation, and there is no terminal to ask: nothing was sent.`, {
    reason: 'production-guard',
    hint: 'Add --yes to confirm it in a script, or --dry-run to see the request without sending it.',
  })
}

/** The one-line notice whenever a production target is used. */
export function productionBanner(profileName: string | undefined, environment: string, baseUrl: string, liveKey: boolean): string {
  const who = profileName ? `profile "${profileName}"` : 'PAYFAC_API_KEY (no profile)'
  const why = environment === 'production' ? 'environment production' : `a live_ credential (environment ${environment})`
  return `PRODUCTION: ${who}, ${why}, ${baseUrl}${liveKey && environment === 'production' ? ' (live key)' : ''}`
}

/**
 * `profiles remove`: a production profile is removed only when confirmed (a terminal) or with
 * --yes; `--dry-run` says what would be removed. Returns false for a dry run (remove nothing).
 */
export async function confirmProfileRemoval(
  profile: { name: string; environment: string; baseUrl: string; merchantId?: string | undefined } | undefined,
  flags: { yes: boolean; dryRun: boolean },
  interactive: boolean = Boolean(process.stdin.isTTY && process.stderr.isTTY),
): Promise<boolean> {
  if (flags.dryRun) return false
  if (!profile || profile.environment !== 'production') return true
  const details: Array<[string, string]> = [['environment', 'production'], ['target', profile.baseUrl]]
  if (profile.merchantId) details.push(['merchant', profile.merchantId])
  await confirmOnProduction({ what: `removal of profile "${profile.name}" and its credential`, details, yes: flags.yes, interactive })
  return true
}
