// The emulator's web pages, before the API's pipeline: the customer's side (`/checkout/…`:
// pay-by-link, 3DS challenge, PayTo approval) and the inspector (`/__emulator/ui`). A page's
// namespace is named by `?namespace=` (a browser sends no Emulator-Namespace header), or by the
// header; a page answers HTML, never an ApiError body.
import type { Namespaces } from '../namespaces.js'
import type { RawRequest } from '../pipeline.js'
import { fromOtherSite, type PageRequest } from './acting.js'
import { checkoutPage } from './checkout.js'
import { formFields, problemPage, type PageResponse } from './html.js'
import { INSPECTOR_PATH, inspectorRoute } from './inspector.js'
import { CHECKOUT_PREFIX, PAY_BY_LINK_PATH, PAYTO_PATH, THREE_DS_PATH } from './links.js'
import { payToPage } from './payto-approval.js'
import { threeDSPage } from './three-ds.js'

/** Whether a path is one of the pages (said without allocating for the API's paths). */
export function isPagePath(pathname: string): boolean {
  return pathname === '/favicon.ico' || pathname.startsWith(`${CHECKOUT_PREFIX}/`) || pathname === INSPECTOR_PATH || pathname.startsWith(`${INSPECTOR_PATH}/`)
}

export function handlePage(namespaces: Namespaces, raw: RawRequest, url: URL): PageResponse {
  const method = raw.method.toUpperCase()
  // A browser asks every origin for an icon: a quiet "none", kept out of the request log.
  if (url.pathname === '/favicon.ico') return { status: 204, headers: { 'Cache-Control': 'max-age=86400' }, body: '' }
  let req: PageRequest
  try {
    const name = url.searchParams.get('namespace') ?? raw.headers['emulator-namespace']
    const ns = namespaces.resolve(name)
    req = { ns, raw, url, method, namespace: ns.name === 'default' ? undefined : ns.name, form: method === 'POST' ? formFields(raw.body) : {} }
  } catch {
    return problemPage(400, 'No such namespace', 'The namespace in this link is not a valid name.')
  }
  const path = url.pathname
  if (path === INSPECTOR_PATH || path.startsWith(`${INSPECTOR_PATH}/`)) return inspectorRoute(namespaces, req, path.slice(INSPECTOR_PATH.length))
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return problemPage(405, 'Not allowed', 'These pages take GET and form posts only.')
  if (method === 'POST' && fromOtherSite(raw)) return problemPage(403, 'Refused', 'This form was sent from another site, so it was not acted on.')
  const match = /^(\/checkout\/[a-z0-9]+)\/([^/]+)\/?$/.exec(path)
  let id: string | undefined
  try {
    id = match ? decodeURIComponent(match[2] as string) : undefined
  } catch {
    id = undefined
  }
  if (match && id !== undefined) {
    if (match[1] === PAY_BY_LINK_PATH) return checkoutPage(req, id)
    if (match[1] === THREE_DS_PATH) return threeDSPage(req, id)
    if (match[1] === PAYTO_PATH) return payToPage(req, id)
  }
  return problemPage(404, 'Page not found', 'There is no page here.')
}
