// Filter flags that share their names with the global context flags.
//
// Some list operations filter by `merchantId` / `marketplaceId` (service tokens, customers). Their
// commands define their own repeatable `--merchant-id` / `--marketplace-id`: oclif lets a
// command's own flag replace the base flag of the same name. `takeFilterIds()` then moves the
// values out of the parsed flags, so that the settings never read them as the `Merchant-Id` /
// `Marketplace-Id` context headers (the profile and environment still give the context).
import { idsFlag } from './flags.js'

export type ContextFilterName = 'merchant-id' | 'marketplace-id'

/** `--merchant-id` as a repeatable filter of merchant ids (replacing the context flag). */
export function merchantFilterFlag(description = 'Only records of these merchants (repeatable); here a filter, not the Merchant-Id header.') {
  return idsFlag('mcht', description)
}

/** `--marketplace-id` as a repeatable filter of marketplace ids (replacing the context flag). */
export function marketplaceFilterFlag(description = 'Only records of these marketplaces (repeatable); here a filter, not the Marketplace-Id header.') {
  return idsFlag('mktp', description)
}

/**
 * The values of a filter flag that shadows a context flag, removed from the parsed flags so
 * that they are not sent as a context header. Call it before building the client.
 */
export function takeFilterIds(flags: object, name: ContextFilterName): string[] | undefined {
  const record = flags as Record<string, unknown>
  const value = record[name]
  delete record[name]
  if (value === undefined) return undefined
  return (Array.isArray(value) ? value : [value]).map(String)
}
