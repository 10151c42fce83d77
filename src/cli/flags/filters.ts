// List filters that share their names with the global context flags.
//
// Some list operations filter by `merchantId` / `marketplaceId` (service tokens, customers,
// webhook subscriptions, transactions, refunds). Their commands define their own repeatable
// `--merchant-id` / `--marketplace-id`: oclif lets a command's own flag replace the base flag of
// the same name. `takeFilterIds()` then moves the values out of the parsed flags, so that the
// settings never read them as the `Merchant-Id` / `Marketplace-Id` context headers (the profile
// and the environment still give the context). The values go to the query only.
import * as Flags from '@oclif/core/flags'

import { checkPrefix } from './index.js'

/** The context flags a command may replace with a filter of the same name. */
export type ContextFilterName = 'merchant-id' | 'marketplace-id'

const PREFIX: Record<ContextFilterName, string> = { 'merchant-id': 'mcht', 'marketplace-id': 'mktp' }

/** A repeatable filter of ids named like a context flag; a bad prefix is a usage error naming the flag. */
function contextFilterFlag(name: ContextFilterName, description: string) {
  return Flags.string({ description, multiple: true, parse: async (input) => checkPrefix(input, PREFIX[name], `--${name}`) })
}

/** `--merchant-id` as a repeatable filter of merchant ids (replacing the context flag). */
export function merchantFilterFlag(description: string) {
  return contextFilterFlag('merchant-id', description)
}

/** `--marketplace-id` as a repeatable filter of marketplace ids (replacing the context flag). */
export function marketplaceFilterFlag(description: string) {
  return contextFilterFlag('marketplace-id', description)
}

/**
 * The values of a filter flag that replaces a context flag, removed from the parsed flags so
 * that they are not sent as a context header. Call it before `this.client()`.
 */
export function takeFilterIds(flags: object, name: ContextFilterName): string[] | undefined {
  const record = flags as Record<string, unknown>
  const value = record[name]
  delete record[name]
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value : [value]).map(String)
}
