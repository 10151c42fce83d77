// `--secret` of the webhook commands: the value itself, `-` for the first line of stdin, or,
// when the flag is left out, the environment variable PAYFAC_WEBHOOK_SECRET, so that a secret
// need not appear on a command line (where `ps` and shell history show it).
import * as Flags from '@oclif/core/flags'

import { UsageError } from '../errors/index.js'
import { readStdin } from '../files/input.js'

export const WEBHOOK_SECRET_ENV = 'PAYFAC_WEBHOOK_SECRET'

export function webhookSecretFlag(description: string) {
  return Flags.string({ description: `${description} Give - to read it from stdin; left out, ${WEBHOOK_SECRET_ENV} is used.` })
}

export interface SecretSources {
  /** False when stdin carries something else (a body to check). */
  stdinFree: boolean
  required: boolean
  env?: Record<string, string | undefined>
  stdin?: NodeJS.ReadStream
}

/** The webhook secret from `--secret`, stdin (`-`) or PAYFAC_WEBHOOK_SECRET; undefined when none and not required. */
export async function webhookSecret(flag: string | undefined, sources: SecretSources): Promise<string | undefined> {
  const stdin = sources.stdin ?? process.stdin
  if (flag === '-') {
    if (!sources.stdinFree) throw new UsageError('--secret - reads stdin, but stdin carries the body here', `Set ${WEBHOOK_SECRET_ENV} instead`)
    if (stdin.isTTY) throw new UsageError('--secret - reads stdin, but stdin is a terminal', `Pipe the secret in, or set ${WEBHOOK_SECRET_ENV}`)
    const line = (await readStdin(stdin, '--secret -')).split(/\r?\n/)[0]?.trim() ?? ''
    if (!line) throw new UsageError('--secret -: stdin held no secret')
    return line
  }
  if (flag !== undefined) {
    if (!flag.trim()) throw new UsageError('--secret must not be empty')
    return flag
  }
  const fromEnv = (sources.env ?? process.env)[WEBHOOK_SECRET_ENV]?.trim()
  if (fromEnv) return fromEnv
  if (sources.required) throw new UsageError('No webhook secret given', `Give --secret, or set ${WEBHOOK_SECRET_ENV}`)
  return undefined
}
