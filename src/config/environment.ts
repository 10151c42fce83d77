// Which environment a command is really talking to, and why. Pure: no I/O.
//
// The environment decides the production guard, so it follows the values in effect, not only
// a profile's label:
//   - no profile (PAYFAC_API_KEY alone): inferred from the key and the address;
//   - a profile whose address or credential was replaced (PAYFAC_BASE_URL, PAYFAC_API_KEY,
//     --base-url): inferred from the values in effect, except that a production label is never
//     lowered;
//   - a profile with its own values: its label, except that a `local` or `sandbox` label on an
//     address that is not this machine, with a credential that names no environment (a JWT, a
//     token), counts as production.
// Inference: a live_ key is production; an address on this machine (loopback) is local; a
// sandbox_ key is sandbox; anything else is production. The contract names no sandbox address,
// so an address alone never makes sandbox.
import { isLoopbackUrl, keyEnvironment, type Environment } from './profiles.js'

export interface EnvironmentDecision {
  environment: Environment
  /** Why, in words, for `whoami` and `doctor`: "profile prod says production". */
  reason: string
}

export interface EnvironmentFacts {
  /** The profile in use (name and label), or undefined for an env-only setup. */
  profile?: { name: string; environment: Environment } | undefined
  /** The address or the credential in effect did not come from the profile. */
  replaced: boolean
  credential: string
  baseUrl: string
  /** Where the address and the credential came from: "PAYFAC_BASE_URL", "--base-url", "profile dev". */
  urlOrigin: string
  credentialOrigin: string
}

/** The environment of a key and an address alone (see the rules above). */
export function inferEnvironment(credential: string, baseUrl: string): Environment {
  return inferred(credential, baseUrl, '', '').environment
}

export function decideEnvironment(facts: EnvironmentFacts): EnvironmentDecision {
  const { profile, credential, baseUrl } = facts
  const guess = inferred(credential, baseUrl, facts.urlOrigin, facts.credentialOrigin)
  if (!profile) return guess
  const says = `profile ${profile.name} says ${profile.environment}`
  if (profile.environment === 'production') return { environment: 'production', reason: says }
  if (facts.replaced) {
    const by = [facts.urlOrigin, facts.credentialOrigin].filter((origin) => !origin.startsWith('profile ')).join(' and ')
    return { environment: guess.environment, reason: `${by} replace${by.includes(' and ') ? '' : 's'} the values of profile ${profile.name}: ${guess.reason}` }
  }
  if (!isLoopbackUrl(baseUrl) && keyEnvironment(credential) === undefined) {
    return { environment: 'production', reason: `${says}, but ${hostOf(baseUrl)} is not this machine and the credential names no environment` }
  }
  return { environment: profile.environment, reason: says }
}

function inferred(credential: string, baseUrl: string, urlOrigin: string, credentialOrigin: string): EnvironmentDecision {
  const from = (origin: string) => (origin ? ` (${origin})` : '')
  const keyEnv = keyEnvironment(credential)
  if (keyEnv === 'live') return { environment: 'production', reason: `the credential${from(credentialOrigin)} is a live_ key` }
  if (isLoopbackUrl(baseUrl)) return { environment: 'local', reason: `${hostOf(baseUrl)}${from(urlOrigin)} is this machine` }
  if (keyEnv === 'sandbox') return { environment: 'sandbox', reason: `the credential${from(credentialOrigin)} is a sandbox_ key` }
  return { environment: 'production', reason: `${hostOf(baseUrl)}${from(urlOrigin)} is not this machine and the credential names no environment` }
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url
}
