// Flag factories and small checks shared by the money-side topics (sources, tokens, pay plans,
// transactions, payouts, invoices, settlement, disputes, refunds). The --merchant-id list filter
// is in filters.ts.
import * as Flags from '@oclif/core/flags'

import { parseCurrency } from '../../client/money.js'
import type { ResolvedSettings } from '../../config/index.js'
import { UsageError } from '../errors/index.js'
import { asUsage, checkPrefix } from './index.js'
import { rangeFlags } from './range.js'
import { findPreviousGenerationFields } from '../validate/index.js'
import { sanitizeLine } from '../../output/sanitize.js'

/** `--amount` and `--currency` as a list filter: each needs the other. */
export function amountFilterFlags(what: string) {
  return {
    amount: Flags.string({
      description: `Only ${what} of exactly this amount in major units, such as 12.50 (sent in minor units).`,
      dependsOn: ['currency'],
    }),
    currency: Flags.string({
      description: 'The currency of --amount (ISO 4217, such as AUD).',
      dependsOn: ['amount'],
      parse: async (input) => asUsage(() => parseCurrency(input), '--currency'),
    }),
  }
}

/**
 * `--payout`, or `--currency --from --to`, of the settlement list and report. Which of them must
 * be given is checked by `settlementQuery()` (requests/money.ts), before anything is sent.
 */
export function settlementFlags() {
  return {
    payout: Flags.string({ description: 'Entries of this payout (payoutId).' }),
    currency: Flags.string({
      description: 'Entries in this currency (ISO 4217, such as AUD); with --from and --to.',
      parse: async (input) => asUsage(() => parseCurrency(input), '--currency'),
    }),
    ...rangeFlags('Entries'),
    type: Flags.string({
      description: 'Only entries of this type, such as Payment, Refund or ServiceFee (repeatable; a filter the emulator defines).',
      multiple: true,
    }),
    'transaction-id': Flags.string({
      description: 'Only entries of these transactions (repeatable; a filter the emulator defines).',
      multiple: true,
      parse: async (input) => checkPrefix(input, 'tran', '--transaction-id'),
    }),
  }
}

/**
 * Operations that act for one customer (saving a source, pay plan offers and plans) need one:
 * a customer JWT fixes it, otherwise the Customer-Id header must be sent. Refused before sending.
 */
export function requireCustomerContext(settings: Pick<ResolvedSettings, 'credentialKind' | 'context'>, what: string): void {
  if (settings.credentialKind === 'customer-jwt' || settings.context.customerId) return
  throw new UsageError(
    `${what} acts for one customer, and none is chosen`,
    'Give --customer-id cust_… (the Customer-Id header), or set customerId on the profile',
  )
}

/** For bodies whose shape the contract does not show: a warning line on stderr per previous-generation field. */
export function warnPreviousGeneration(body: unknown, flag = '--data'): void {
  for (const [path, old, now] of findPreviousGenerationFields(body)) {
    process.stderr.write(
      `Warning: ${flag} uses "${old}" (at ${sanitizeLine(path)}), a field of the previous interface generation; version 3.0 calls it "${now}".\n`,
    )
  }
}
