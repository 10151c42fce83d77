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
    credential = (await readStdin(process.stdin, '--credential-stdin')).trim()
  } else if (canPrompt(noInput)) {
    const { password } = await import('@inquirer/prompts')
    credential = (await password({ message: 'Credential (input hidden):', mask: false }, { output: process.stderr })).trim()
  } else {
    throw new UsageError(
      'No credential given and no terminal to ask on (or CI / --no-input)',
      'Pipe it in with --credential-stdin, for example: printenv KEY | payfac profiles add …',
    )
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

/** A profile as shown to people: the credential masked, never whole, and where it is kept. */
export function profileRow(profile: Profile, active: boolean, source: 'stored' | 'built-in', mask: (key: string) => string): ProfileRow {
  const kept = profile.credentialKeychain ? 'keychain' : profile.credentialCommand !== undefined ? 'command' : 'file'
  return {
    name: profile.name,
    active,
    source,
    environment: profile.environment,
    baseUrl: profile.baseUrl,
    credentialKind: profile.credentialKind,
    credential:
      kept === 'file' ? mask(profile.credential ?? '') : kept === 'keychain' ? (profile.credentialMasked ?? '(in the keychain)') : '(printed by a command)',
    credentialStore: kept === 'command' ? `command: ${profile.credentialCommand}` : source === 'built-in' ? 'built-in' : kept,
    merchantId: profile.merchantId,
    marketplaceId: profile.marketplaceId,
    customerId: profile.customerId,
  }
}

/** What `profiles add` says on stderr about where the secret went (once). */
export function savedMessage(saved: { profile: Profile; store: string; noKeychain?: string | undefined }, file: string, madeActive: boolean): string {
  const active = madeActive ? ' and made it active' : ''
  if (saved.store === 'keychain') return `Saved profile "${saved.profile.name}" in ${file}${active}; its credential is in the OS keychain.\n`
  if (saved.store === 'command')
    return `Saved profile "${saved.profile.name}" in ${file}${active}; its credential is printed by \`${saved.profile.credentialCommand}\` each time it is needed.\n`
  const why = saved.noKeychain ? ` No OS keychain could be reached (${saved.noKeychain}), so the credential is in that file (mode 0600).` : ''
  return `Saved profile "${saved.profile.name}" in ${file}${active}.${why}\n`
}

/**
 * The secret for a new profile: run the credential command once (to check it and tell the key's
 * kind; its output is not kept), or read it from stdin or a hidden prompt.
 */
export async function newProfileSecret(flags: {
  'credential-command'?: string | undefined
  'credential-stdin'?: boolean | undefined
  'no-input'?: boolean | undefined
}): Promise<string> {
  const command = flags['credential-command']
  if (command === undefined) return readCredential(Boolean(flags['credential-stdin']), flags['no-input'])
  if (flags['credential-stdin'])
    throw new UsageError(
      '--credential-command and --credential-stdin cannot be used together',
      'Give one: the command that prints the key, or the key on stdin',
    )
  const { runCredentialCommand, splitCommand } = await import('../../config/credential-command.js')
  splitCommand(command)
  return runCredentialCommand(command, { origin: '--credential-command' })
}
