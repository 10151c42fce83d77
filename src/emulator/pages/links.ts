// Where the customer's pages live, as links the API hands out. A page is served by the emulator
// itself, at the origin the caller reached it on. A browser sends no Emulator-Namespace header,
// so a page of another namespace than `default` names it in its query (`?namespace=ci-42`).

/** Paths of the customer's pages (the emulator's own; docs/emulator.md, "Customer pages"). */
export const CHECKOUT_PREFIX = '/checkout'
export const PAY_BY_LINK_PATH = `${CHECKOUT_PREFIX}/paybylink`
export const THREE_DS_PATH = `${CHECKOUT_PREFIX}/3ds`
export const PAYTO_PATH = `${CHECKOUT_PREFIX}/payto`

/** The query that keeps a page in its namespace ('' for the default one). */
export function namespaceQuery(namespace: string | undefined): string {
  const name = namespace?.trim()
  return name && name !== 'default' ? `?namespace=${encodeURIComponent(name)}` : ''
}

/** A page's path (and namespace) under the emulator's base URL. */
export function pageLink(baseUrl: string, namespace: string | undefined, path: string): string {
  return `${baseUrl.replace(/\/$/, '')}${path}${namespaceQuery(namespace)}`
}

/** The path of a page for a record id. */
export function pagePath(prefix: string, id: string, namespace?: string): string {
  return `${prefix}/${encodeURIComponent(id)}${namespaceQuery(namespace)}`
}
