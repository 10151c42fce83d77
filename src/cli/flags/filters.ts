// List filters by merchant and marketplace.
//
// Some list operations filter by `merchantId` / `marketplaceId` (service tokens, customers,
// webhook subscriptions, transactions, refunds). Their commands take repeatable `--merchant` /
// `--marketplace` filters, whose values go to the query only, never to the `Merchant-Id` /
// `Marketplace-Id` context headers (which still come from `--merchant-id`, the profile or the
// environment). Until 0.2 these filters were spelled `--merchant-id` / `--marketplace-id` and
// replaced the context flags on those commands: the old spelling still works there, with a
// deprecation warning, so those commands leave the context flags out (`withoutContextFlags`).
import * as Flags from '@oclif/core/flags'

import { apiFlags, checkPrefix } from './index.js'

type ContextFlagName = 'merchant-id' | 'marketplace-id'

/** A repeatable filter of ids; a bad prefix is a usage error naming the flag. */
function idFilterFlag(name: string, prefix: string, oldName: ContextFlagName, description: string) {
  return Flags.string({
    description,
    multiple: true,
    // The old name, for one release: oclif says it is deprecated when it is used.
    aliases: [oldName],
    deprecateAliases: true,
    parse: async (input) => checkPrefix(input, prefix, `--${name}`),
  })
}

/** `--merchant`: a repeatable filter of merchant ids (its old name `--merchant-id` is kept for a release). */
export function merchantFilterFlag(description: string) {
  return idFilterFlag('merchant', 'mcht', 'merchant-id', description)
}

/** `--marketplace`: a repeatable filter of marketplace ids (its old name `--marketplace-id` is kept for a release). */
export function marketplaceFilterFlag(description: string) {
  return idFilterFlag('marketplace', 'mktp', 'marketplace-id', description)
}

/** The global flags of a command that calls the service, less the context flags its filters still answer to by their old names. */
export function withoutContextFlags(...names: ContextFlagName[]): Omit<typeof apiFlags, ContextFlagName> {
  const flags: Record<string, unknown> = { ...apiFlags }
  for (const name of names) delete flags[name]
  return flags as Omit<typeof apiFlags, ContextFlagName>
}
