// Asking a person for what a command is missing, only when a person is there: stdin and stderr
// are terminals, `CI` is not set (empty, "false" and "0" count as not set) and `--no-input` was
// not given. Prompts write to stderr, never to stdout. Each answer is checked by the same check as its flag, so a prompt cannot let
// through what the flag would refuse. Without a person, the command's own usage error (exit 2,
// naming the flags) stands. Ctrl-C at a prompt is exit 130 (exit-codes.ts: ExitPromptError).
import { UsageError } from '../errors/index.js'
import { checkBban } from '../validate/au.js'

/** What a refused answer shows under the prompt: a usage error's reason, or the message. */
export function promptMessage(error: unknown): string {
  return error instanceof UsageError ? error.reason : error instanceof Error ? error.message : String(error)
}

type Env = Record<string, string | undefined>

/** Both stdin and stderr are terminals. */
export function onTerminal(): boolean {
  return Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY)
}

/** `CI` is set: any value but empty, "false" or "0" (any case). */
export function ciIsSet(env: Env = process.env): boolean {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== 'false' && value !== '0'
}

/** Why nobody can be asked ("CI is set", "--no-input was given", "there is no terminal to ask"), or undefined when someone can. */
export function whyNoPrompt(noInput: boolean | undefined, env: Env = process.env, terminal: boolean = onTerminal()): string | undefined {
  if (noInput) return '--no-input was given'
  if (ciIsSet(env)) return `CI is set (CI=${env.CI?.trim()})`
  if (!terminal) return 'there is no terminal to ask'
  return undefined
}

/** True when a person can be asked. */
export function canPrompt(noInput: boolean | undefined, env: Env = process.env): boolean {
  return whyNoPrompt(noInput, env) === undefined
}

interface Ask {
  flag: string
  message: string
  /** Throws (a UsageError) when the answer would be refused as the flag's value. */
  check?: (answer: string) => unknown
}

async function askOne(ask: Ask): Promise<string> {
  const { input } = await import('@inquirer/prompts')
  const answer = await input(
    {
      message: ask.message,
      validate: (value: string) => {
        if (!value.trim()) return `${ask.flag} is needed`
        try {
          ask.check?.(value.trim())
          return true
        } catch (error) {
          return promptMessage(error)
        }
      },
    },
    { output: process.stderr },
  )
  return answer.trim()
}

/** Fills in the flags of `asks` that are missing, one prompt each, when a person is there. */
export async function askMissing<F extends Record<string, unknown>>(flags: F, asks: Ask[], noInput?: boolean): Promise<F> {
  const missing = asks.filter((ask) => flags[ask.flag.replace(/^--/, '')] === undefined)
  if (missing.length === 0 || !canPrompt(noInput)) return flags
  const filled: Record<string, unknown> = { ...flags }
  for (const ask of missing) filled[ask.flag.replace(/^--/, '')] = await askOne(ask)
  return filled as F
}

/** `orders create` without --data: the amount, its currency and the reference. */
export async function askOrder<F extends { data?: string | undefined; 'no-input'?: boolean | undefined }>(flags: F): Promise<F> {
  if (flags.data !== undefined) return flags
  const { parseCurrency, toMinorUnits } = await import('../../client/money.js')
  const withCurrency = await askMissing(
    flags as F & Record<string, unknown>,
    [{ flag: '--currency', message: 'Currency (ISO 4217, such as AUD):', check: parseCurrency }],
    flags['no-input'],
  )
  const currency = (withCurrency as Record<string, unknown>).currency as string | undefined
  return askMissing(
    withCurrency,
    [
      {
        flag: '--amount',
        message: `Amount${currency ? ` in ${currency.toUpperCase()}` : ''} (such as 12.50):`,
        check: (a) => currency && toMinorUnits(a, currency),
      },
      { flag: '--reference', message: 'Your reference for the order:' },
    ],
    flags['no-input'],
  )
}

/** `payto agree` with no account identifier: asks for the BSB and account number. */
export async function askAgreementAccount<F extends Record<string, unknown> & { 'no-input'?: boolean | undefined }>(
  flags: F,
  identifierFlags: string[],
): Promise<F> {
  if (identifierFlags.some((flag) => flags[flag] !== undefined)) return flags
  return askMissing(
    flags,
    [
      { flag: '--name', message: "Customer's name (as on the account):" },
      { flag: '--bban', message: "Customer's BSB and account number (such as 062-000 12345678):", check: (a: string) => checkBban(a, '--bban') },
    ].filter((ask) => flags[ask.flag.slice(2)] === undefined),
    flags['no-input'],
  )
}
