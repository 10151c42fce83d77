// `profiles add` on a terminal: asks for the environment and base URL when they are missing, and
// checks the base URL before the secret is asked for, so a production profile on plain http is
// refused before anyone types a live key.
import { UsageError } from '../errors/index.js'
import { checkBaseUrl } from '../validate/urls.js'
import { canPrompt, promptMessage, whyNoPrompt } from './prompts.js'

const ENVIRONMENTS = ['sandbox', 'production', 'local'] as const

interface TargetFlags {
  environment?: string | undefined
  'base-url'?: string | undefined
  'no-input'?: boolean | undefined
}

/** Refuses a base URL that is not http(s), holds a user or password, or is plain http to another machine for production. */
export async function checkTarget(environment: string, baseUrl: string): Promise<void> {
  const { ConfigError, isLoopbackUrl } = await import('../../config/index.js')
  checkBaseUrl(baseUrl, '--base-url')
  if (environment === 'production' && new URL(baseUrl).protocol === 'http:' && !isLoopbackUrl(baseUrl)) {
    throw new ConfigError('A production profile must use https:// (its credential is a live key)', {
      reason: 'invalid',
      hint: 'Give the https:// address of the service.',
    })
  }
}

/** The usage line `profiles add` shows when it has no name and nobody to ask. */
export const PROFILES_ADD_USAGE =
  'payfac profiles add NAME --environment sandbox|production|local --base-url URL [--credential-stdin | --credential-command CMD] [--use]'

/**
 * The profile's name: the argument, or asked for on a terminal (letters, digits, - and _, as the
 * store accepts). Without a terminal a missing name is a usage error that shows the usage.
 */
export async function profileName(name: string | undefined, noInput: boolean | undefined): Promise<string> {
  if (name !== undefined) return name
  const why = whyNoPrompt(noInput)
  if (why !== undefined) throw new UsageError(`profiles add needs a NAME for the profile (not asked: ${why})`, `Usage: ${PROFILES_ADD_USAGE}`)
  const { LOCAL_PROFILE_NAME, PROFILE_NAME_PATTERN } = await import('../../config/index.js')
  const { input } = await import('@inquirer/prompts')
  const answer = await input(
    {
      message: 'Profile name (letters, digits, - and _):',
      validate: (value: string) => {
        if (value.trim() === LOCAL_PROFILE_NAME) return `"${LOCAL_PROFILE_NAME}" is the built-in profile; choose another name`
        return PROFILE_NAME_PATTERN.test(value.trim()) || 'A name is 1 to 64 letters, digits, "-" or "_", starting with a letter or digit'
      },
    },
    { output: process.stderr },
  )
  return answer.trim()
}

/** The environment and base URL: from the flags, or asked for on a terminal; checked either way. */
export async function profileTarget(flags: TargetFlags): Promise<{ environment: string; baseUrl: string }> {
  let environment = flags.environment
  let baseUrl = flags['base-url']
  if ((environment === undefined || baseUrl === undefined) && canPrompt(flags['no-input'])) {
    const { input, select } = await import('@inquirer/prompts')
    const output = { output: process.stderr }
    environment ??= await select({ message: 'Environment:', choices: ENVIRONMENTS.map((value) => ({ value })) }, output)
    const chosen = environment
    baseUrl ??= await input(
      {
        message: 'Base URL of the service:',
        validate: async (value: string) => {
          try {
            await checkTarget(chosen, value.trim())
            return true
          } catch (error) {
            return promptMessage(error)
          }
        },
      },
      output,
    )
  }
  if (environment === undefined || baseUrl === undefined) {
    throw new UsageError('A profile needs --environment and --base-url', 'For example --environment sandbox --base-url https://sandbox.example.com')
  }
  await checkTarget(environment, baseUrl.trim())
  return { environment, baseUrl: baseUrl.trim() }
}
