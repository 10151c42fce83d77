// Who a money operation is made for, so that its identity does not depend on which key was used
// or on a redundant --merchant-id: the Merchant-Id context when given; else what the service
// shows the key can see (`GET /merchants?limit=2`): one merchant is the key's own merchant; a
// marketplace's key (or several merchants sharing one marketplace) acts for the marketplace;
// when the service does not tell (a 4xx, no merchants), the key itself. Asked once per key and
// service, then kept in the config folder (config/key-scopes.ts).
import { ApiError, ConnectionError } from '../../client/errors.js'
import { credentialFingerprint } from '../../config/operations.js'
import type { ResolvedSettings } from '../../config/resolve.js'
import type { ActingFor, ServiceIdentity } from '../../config/operations.js'

const MARKETPLACE_KINDS = new Set(['marketplace-api-key', 'platform-jwt'])

/**
 * The party acted for; costs one read the first time a key is seen without a merchant context
 * (none when `ask` is false: then what is known without asking).
 */
export async function resolveActingFor(settings: ResolvedSettings, configDir: string, signal?: AbortSignal, ask = true): Promise<ActingFor> {
  const { actingForOf, canonicalOrigin } = await import('../../config/operations.js')
  const context = settings.context
  if (context.merchantId) return actingForOf(context, settings.credential)
  const marketplaceKey = MARKETPLACE_KINDS.has(settings.credentialKind)
  if (marketplaceKey && context.marketplaceId) return actingForOf(context, settings.credential, `marketplace:${context.marketplaceId}`)
  const { readKeyScope, writeKeyScope } = await import('../../config/key-scopes.js')
  const origin = canonicalOrigin(settings.baseUrl)
  const fingerprint = credentialFingerprint(settings.credential)
  const known = readKeyScope(configDir, origin, fingerprint)
  if (known || !ask) return actingForOf(context, settings.credential, known)
  const party = await askService(settings, marketplaceKey, signal)
  if (party && !party.startsWith('key:')) writeKeyScope(configDir, origin, fingerprint, party)
  return actingForOf(context, settings.credential, party)
}

async function askService(settings: ResolvedSettings, marketplaceKey: boolean, signal: AbortSignal | undefined): Promise<string | undefined> {
  const { createClient } = await import('../../client/index.js')
  // No context headers: the question is what the key itself can see.
  const client = createClient({ baseUrl: settings.baseUrl, credential: settings.credential, ...(signal ? { signal } : {}) })
  let items: Array<Record<string, unknown>>
  try {
    items = (await client.merchants.list({ limit: 2 })).items as Array<Record<string, unknown>>
  } catch (error) {
    // Unreachable or failing (network, 429, 5xx): nothing can be sent anyway; said as it is.
    if (error instanceof ConnectionError || (error instanceof ApiError && (error.status >= 500 || error.status === 429))) throw error
    // Not allowed to list merchants (4xx), or an answer that is not a list: the key itself is the party.
    return `key:${credentialFingerprint(settings.credential)}`
  }
  const ids = items.map((m) => m.merchantId).filter((id): id is string => typeof id === 'string')
  const marketplaces = new Set(items.map((m) => m.marketplaceId).filter((id): id is string => typeof id === 'string'))
  const marketplace = marketplaces.size === 1 ? [...marketplaces][0] : undefined
  if (marketplaceKey) return marketplace ? `marketplace:${marketplace}` : undefined
  if (ids.length === 1) return `merchant:${ids[0]}`
  return marketplace ? `marketplace:${marketplace}` : undefined
}

/** The config folder and the identity of what `settings` act on (one read the first time a key is seen). */
export async function operationIdentity(
  settings: ResolvedSettings,
  signal?: AbortSignal,
  ask = true,
): Promise<{ configDir: string; identity: ServiceIdentity }> {
  const [{ serviceIdentity }, { resolveConfigDir }] = await Promise.all([import('../../config/operations.js'), import('../../config/store.js')])
  const configDir = resolveConfigDir()
  return { configDir, identity: serviceIdentity(settings.baseUrl, await resolveActingFor(settings, configDir, signal, ask)) }
}
