// Shared flag factories. Each checks its input when oclif parses it, so a bad value is a usage
// error (exit 2) before any request is built. Only light modules are imported here: this file is
// loaded for every command, including `--help`.
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { InvalidInputError } from '../../client/errors.js'
import { parseCurrency, toMinorUnits } from '../../client/money.js'
import { UsageError } from '../errors/index.js'
import { timeoutFlag, walkFlags } from './lists.js'
import { checkDateInput, wireTime } from '../validate/dates.js'
import { checkPrefix } from '../validate/ids.js'
import { checkedBy } from './checked.js'
import { MIN_INTERVAL_MS, intervalMs, waitMs } from '../validate/durations.js'
import { checkBaseUrl } from '../validate/urls.js'

/** The prefix check of identifiers (../validate/ids.ts), where the flag factories have always offered it. */
export { checkPrefix }

const GLOBAL = 'GLOBAL'

/**
 * `-o/--output json|csv|jsonl|table` (the habit of aws, kubectl and az): another spelling of
 * --json, --csv and --jsonl (the base command turns it into them). On the commands that write a file, `-o` stays
 * `--out` and the format is spelt `--output`.
 */
export function outputFormatFlag(short = true) {
  return Flags.string({
    ...(short ? { char: 'o' as const } : {}),
    description: 'Output format: json (as --json), csv (as --csv), jsonl (as --jsonl) or table (the default on a terminal).',
    helpGroup: GLOBAL,
    options: ['json', 'csv', 'jsonl', 'table'],
  })
}

/** Output flags every command has. */
export const outputFlags = {
  output: outputFormatFlag(),
  json: Flags.boolean({ description: 'Print JSON (the bare record, or an array for lists).', helpGroup: GLOBAL, exclusive: ['csv'] }),
  csv: Flags.boolean({ description: 'Print CSV (nested fields as dot-path columns).', helpGroup: GLOBAL, exclusive: ['json'] }),
  jsonl: Flags.boolean({
    description: 'Print JSON Lines: one compact JSON object a line, streamed (a list, an --all walk, a report, bulk results).',
    helpGroup: GLOBAL,
    exclusive: ['json', 'csv', 'query', 'ids'],
  }),
  columns: Flags.string({
    description: 'Comma-separated columns to show: dot paths of the JSON record (table and CSV); checked before anything is sent.',
    helpGroup: GLOBAL,
    parse: async (input) => (await import('../validate/columns.js')).checkColumnsFlag(input),
  }),
  wide: Flags.boolean({ description: 'Show every column and whole cells, however wide the terminal.', helpGroup: GLOBAL }),
  query: Flags.string({
    description: 'A JMESPath expression applied to the JSON output (implies --json); a string result prints as plain text.',
    helpGroup: GLOBAL,
    exclusive: ['csv'],
    parse: async (input) => checkQueryFlag(input),
  }),
  ids: Flags.boolean({ char: 'q', description: 'Print only the ids, one a line.', helpGroup: GLOBAL, exclusive: ['json', 'csv', 'query'] }),
  'no-input': Flags.boolean({ description: 'Never ask on the terminal: missing input is an error (also when CI is set).', helpGroup: GLOBAL }),
}

/** A JMESPath syntax error is a usage error naming --query (the library loads only when the flag is used). */
async function checkQueryFlag(input: string): Promise<string> {
  const { checkQuery } = await import('../../output/query.js')
  try {
    return checkQuery(input)
  } catch (error) {
    throw new UsageError((error as Error).message, 'For example --query orderId, or --query "[].orderId" for a list')
  }
}

/** Flags every command that calls the service has. */
export const apiFlags = {
  ...outputFlags,
  profile: Flags.string({ description: 'Profile to use (see `payfac profiles list`).', helpGroup: GLOBAL }),
  'base-url': Flags.string({
    description: 'Base URL of the service, overriding the profile.',
    helpGroup: GLOBAL,
    parse: async (input) => checkBaseUrl(input, '--base-url'),
  }),
  'merchant-id': Flags.string({
    description: 'Act for this merchant (Merchant-Id header).',
    helpGroup: GLOBAL,
    parse: async (input) => checkPrefix(input, 'mcht', '--merchant-id'),
  }),
  'marketplace-id': Flags.string({
    description: 'Act for this marketplace (Marketplace-Id header).',
    helpGroup: GLOBAL,
    parse: async (input) => checkPrefix(input, 'mktp', '--marketplace-id'),
  }),
  'customer-id': Flags.string({
    description: 'Act for this customer (Customer-Id header).',
    helpGroup: GLOBAL,
    parse: async (input) => checkPrefix(input, 'cust', '--customer-id'),
  }),
  debug: Flags.boolean({ description: 'Log each request and response on stderr, secrets redacted.', helpGroup: GLOBAL }),
  timeout: timeoutFlag,
  'dry-run': Flags.boolean({ description: 'Print the first request that would change something, as JSON, and send nothing (exit 0).', helpGroup: GLOBAL }),
  yes: Flags.boolean({
    char: 'y',
    description:
      'Confirm on production what the command sends that is not a read, without a prompt (needed when CI is set, with --no-input, or without a terminal).',
    helpGroup: GLOBAL,
  }),
}

/** A required positional identifier with a prefix check. */
export function idArg(prefix: string, description: string) {
  const what = description.replace(/\s*\(.*$/, '').replace(/\.$/, '')
  return Args.string({ description, required: true, parse: async (input) => checkPrefix(input, prefix, what) })
}

/** A flag holding an identifier with a prefix check. */
export function idFlag<R extends boolean = false>(prefix: string, description: string, options: { required?: R } = {}) {
  return Flags.string({ description, required: options.required, parse: async (input: string, _ctx, flag) => checkPrefix(input, prefix, `--${flag.name}`) })
}

/** A repeatable flag of identifiers with a prefix check. */
export function idsFlag(prefix: string, description: string) {
  return Flags.string({ description, multiple: true, parse: async (input: string, _ctx, flag) => checkPrefix(input, prefix, `--${flag.name}`) })
}

/** `--amount 12.50 --currency AUD`; combine them with `moneyFrom()`. */
export function moneyFlags(options: { required?: boolean; amountDescription?: string } = {}) {
  return {
    amount: Flags.string({
      description: options.amountDescription ?? 'Amount in major units, such as 12.50 (converted exactly by the currency).',
      required: options.required ?? false,
      dependsOn: ['currency'],
    }),
    currency: Flags.string({
      description: 'ISO 4217 currency code, such as AUD.',
      required: options.required ?? false,
      parse: async (input) => asUsage(() => parseCurrency(input), '--currency'),
    }),
  }
}

/** Exact conversion of `--amount` in the currency's minor units. */
export function minorUnitsFrom(amount: string, currency: string, flag = '--amount'): number {
  return asUsage(() => toMinorUnits(amount, currency), flag)
}

/** Money from `--amount` and `--currency`. */
export function moneyFrom(amount: string, currency: string, flag = '--amount') {
  return { minorCurrencyUnits: minorUnitsFrom(amount, currency, flag), currency: parseCurrency(currency) }
}

/**
 * `--limit --page --sort --all --max` of every list command. With `sortFields`, `--sort` takes
 * only those fields (the ones the list is known to sort by).
 */
export function paginationFlags(options: { sortFields?: readonly string[] } = {}) {
  return {
    limit: Flags.integer({ description: 'Records per page, 1 to 500.', min: 1, max: 500, helpGroup: 'PAGINATION' }),
    // The contract's page is an int32: a page beyond it is refused here, not sent.
    page: Flags.integer({ description: 'Page number, from 1.', min: 1, max: 2_147_483_647, helpGroup: 'PAGINATION', exclusive: ['all'] }),
    sort: Flags.string({
      description: 'Sort fields, comma-separated; a leading - sorts descending (e.g. -createdAt).',
      helpGroup: 'PAGINATION',
      parse: async (input) => {
        if (!/^-?[A-Za-z][\w.]*(,-?[A-Za-z][\w.]*)*$/.test(input)) {
          throw new UsageError(`--sort takes comma-separated field names, each optionally preceded by - (got "${input}")`)
        }
        const unknown = input
          .split(',')
          .map((f) => f.replace(/^-/, ''))
          .find((f) => options.sortFields && !options.sortFields.includes(f))
        if (unknown !== undefined) {
          throw new UsageError(`--sort: this list does not sort by "${unknown}"`, `Sort by ${options.sortFields?.join(', ')}`)
        }
        return input
      },
    }),
    all: Flags.boolean({ description: 'Walk every page, streaming records as they arrive.', helpGroup: 'PAGINATION' }),
    max: Flags.integer({ description: 'Stop after this many records (walks pages as needed).', min: 1, helpGroup: 'PAGINATION' }),
    ...walkFlags(),
  }
}

/** `--data` for a whole request body: JSON text, `@file`, or `-` for stdin. Read it with `readData()`. */
export function dataFlag(description = 'The whole request body as JSON: text, @file, or - for stdin.', exclusive: string[] = []) {
  return Flags.string({ description, exclusive })
}

/** Repeatable `--metadata key=value`. Combine with `metadataFrom()`. */
export function metadataFlag(description = 'Metadata as key=value (repeatable).') {
  return Flags.string({
    description,
    multiple: true,
    parse: async (input) => {
      const at = input.indexOf('=')
      if (at <= 0) throw new UsageError(`--metadata takes key=value (got "${input}")`, 'For example --metadata channel=web')
      return input
    },
  })
}

export function metadataFrom(pairs: string[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined
  const out: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    out[pair.slice(0, at)] = pair.slice(at + 1)
  }
  return out
}

/** `--poll/--wait`, `--interval`, `--timeout`, with durations such as 3s, 500ms, 10m. */
export function waitFlags(defaults: { interval?: string; timeout?: string } = {}) {
  return {
    interval: Flags.string({
      description: `Time between polls, such as 3s or 500ms (${MIN_INTERVAL_MS}ms to 24h).`,
      default: defaults.interval ?? '3s',
      parse: checkedBy(intervalMs),
    }),
    timeout: Flags.string({
      description: 'Give up waiting after this long, such as 10m (exit 8); 1ms to 24h.',
      default: defaults.timeout ?? '10m',
      parse: checkedBy((input) => waitMs(input, '--timeout')),
    }),
  }
}

/** A date flag: `YYYY-MM-DD` (sent as its midnight UTC, a date-time as the contract's filters take) or an ISO 8601 timestamp (sent as given). */
export function dateFlag(description: string) {
  return Flags.string({
    description: `${description} (YYYY-MM-DD, midnight UTC, or an ISO 8601 timestamp).`,
    parse: async (input, _ctx, flag) => wireTime(checkDate(input, `--${flag.name}`)),
  })
}

/** A date flag's check; see validate/dates.ts (parseDateInput, checkDateRange) for reuse. */
export function checkDate(input: string, what: string): string {
  return checkDateInput(input, what)
}

/** Runs a client-side check and turns its InvalidInputError into a usage error naming the flag. */
export function asUsage<T>(fn: () => T, flag: string): T {
  try {
    return fn()
  } catch (error) {
    if (error instanceof InvalidInputError) throw new UsageError(`${flag}: ${error.message}`, error.hint)
    throw error
  }
}
