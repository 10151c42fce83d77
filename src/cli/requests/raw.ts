// Pieces of `payfac api`: method, path with its query, and -H headers.
import { UsageError } from '../errors/index.js'

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

export function checkMethod(input: string): string {
  const method = input.toUpperCase()
  if (!(HTTP_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`METHOD must be one of ${HTTP_METHODS.join(', ')} (got "${input}")`)
  }
  return method
}

/** Splits `/orders?status=paid&orderId=a&orderId=b` into a path and a query whose repeated keys are arrays. */
/** A GET carries no body: `--data` with one is refused rather than sent. */
export function checkBodyAllowed(method: string, data: string | undefined): void {
  if (data !== undefined && method === 'GET') {
    throw new UsageError(`--data cannot be sent with ${method}`, 'Put filters in the query (/orders?status=paid), or use POST, PUT or PATCH')
  }
}

export function splitPath(input: string): { path: string; query: Record<string, string | string[]> } {
  if (!input.startsWith('/')) throw new UsageError(`The path must start with / (got "${input}")`, 'For example: payfac api GET /orders')
  const url = new URL(input, 'http://placeholder.invalid')
  const query: Record<string, string | string[]> = {}
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key)
    query[key] = values.length === 1 ? (values[0] as string) : values
  }
  return { path: url.pathname, query }
}

/** `-H 'Name: value'` pairs as a header record. */
export function parseHeaders(inputs: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const input of inputs ?? []) {
    const at = input.indexOf(':')
    const name = at > 0 ? input.slice(0, at).trim() : ''
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      throw new UsageError(`-H takes "Name: value" (got "${input}")`, "For example -H 'Merchant-Id: mcht_…'")
    }
    headers[name] = input.slice(at + 1).trim()
  }
  return headers
}
