// `profiles add` on a terminal: asks for the environment and base URL when they are missing, and
// checks the base URL before the secret is asked for, so a production profile on plain http is
// refused before anyone types a live key.
import { UsageError } from '../errors/index.js'
import { checkBaseUrl } from '../flags/index.js'
import { canPrompt, promptMessage } from './prompts.js'

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
    throw new ConfigError('A production profile must use https:// (its credential is a live key)', { reason: 'invalid', hint: 'Give the https:// address of the service.' })
  }
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
