// Getting a credential from the user without it ever being on the command line, and showing
// profiles without their secrets.
import type { Profile } from '../../config/index.js'
import type { ProfileRow } from '../../output/views/profiles.js'
import { UsageError } from '../errors/index.js'
import { readStdin } from '../files/input.js'
import { canPrompt } from './prompts.js'

/** Reads the credential from stdin (`--credential-stdin`) or a hidden prompt on a terminal. */
export async function readCredential(fromStdin: boolean, noInput?: boolean): Promise<string> {
  let credential: string
  if (fromStdin) {
    credential = (await readStdin()).trim()
  } else if (canPrompt(noInput)) {
    const { password } = await import('@inquirer/prompts')
    credential = (await password({ message: 'Credential (input hidden):', mask: false }, { output: process.stderr })).trim()
  } else {
    throw new UsageError('No credential given and no terminal to ask on (or CI / --no-input)', 'Pipe it in with --credential-stdin, for example: printenv KEY | payfac profiles add …')
  }
  if (!credential) throw new UsageError('The credential is empty')
  if (/\s/.test(credential)) throw new UsageError('The credential contains white space', 'Check what was piped in: it should be the key alone')
  return credential
}

/** Asks which kind a credential is, when its prefix does not say. */
export async function askCredentialKind(kinds: readonly string[]): Promise<string> {
  if (!(process.stdin.isTTY && process.stderr.isTTY)) {
    throw new UsageError('The kind of this credential cannot be told from its prefix', `Give --credential-kind (one of ${kinds.join(', ')})`)
  }
  const { select } = await import('@inquirer/prompts')
  return select({ message: 'Which kind of credential is this?', choices: kinds.map((value) => ({ value })) }, { output: process.stderr })
}

/** A profile as shown to people: the credential masked, never whole. */
export function profileRow(profile: Profile, active: boolean, source: 'stored' | 'built-in', mask: (key: string) => string): ProfileRow {
  return {
    name: profile.name,
    active,
    source,
    environment: profile.environment,
    baseUrl: profile.baseUrl,
    credentialKind: profile.credentialKind,
    credential: mask(profile.credential),
    merchantId: profile.merchantId,
    marketplaceId: profile.marketplaceId,
    customerId: profile.customerId,
  }
}
