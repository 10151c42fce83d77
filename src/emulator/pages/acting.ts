// How a page acts: as the merchant of the record it shows, through the same functions the API's
// handlers run (so the same rules, events, webhooks and settlement entries follow), and then
// settles as the front door does after a request (agreement changes, deliveries, the state file).
import { EmulatorError } from '../api-error.js'
import type { Namespace } from '../namespaces.js'
import { rulesOf, type RawRequest } from '../pipeline.js'
import type { HandlerContext } from '../route.js'
import { lookup, markChanged } from '../store.js'

export interface PageRequest {
  ns: Namespace
  raw: RawRequest
  url: URL
  method: string
  /** The namespace's name when it is not `default` (kept in every link and form of a page). */
  namespace: string | undefined
  /** The posted form's fields (empty for a GET). */
  form: Record<string, string>
}

/** The handler context of a merchant's server acting for one order's customer. */
export function merchantContext(req: PageRequest, merchantId: string, customerId: string | null): HandlerContext {
  const merchant = lookup(req.ns.store.merchants, merchantId)
  return {
    store: req.ns.store,
    clock: req.ns.clock,
    ids: req.ns.deps.ids,
    principal: { kind: 'merchant', merchantId, via: 'secretKey' },
    scope: { marketplaceId: merchant?.marketplaceId ?? null, merchantId, customerId, customerDelegateId: null },
    requestId: req.ns.deps.ids.next('req'),
    baseUrl: req.raw.baseUrl ?? 'http://127.0.0.1',
    rules: rulesOf(req.ns.deps),
  }
}

/** Runs a change made by a page, then what follows any change. An EmulatorError is answered, not thrown. */
export function act<T>(req: PageRequest, ctx: HandlerContext, change: () => T): { ok: true; value: T } | { ok: false; error: EmulatorError } {
  try {
    return { ok: true, value: change() }
  } catch (error) {
    if (error instanceof EmulatorError) return { ok: false, error }
    throw error
  } finally {
    markChanged(req.ns.store)
    req.ns.settle(ctx.requestId)
    req.ns.persist()
  }
}

/**
 * A form post from another site is refused: a page elsewhere could otherwise pay or approve for
 * the customer. Browsers send `Origin` (and `Sec-Fetch-Site`) on every form post.
 */
export function fromOtherSite(raw: RawRequest): boolean {
  const origin = raw.headers.origin
  const host = raw.headers.host
  if (origin !== undefined && (host === undefined || origin.toLowerCase() !== `http://${host.toLowerCase()}`)) return true
  const site = raw.headers['sec-fetch-site']?.toLowerCase()
  return site === 'cross-site' || site === 'same-site'
}
