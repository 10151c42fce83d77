// Building a request before it is sent: the full URL, the headers (credential, context headers,
// the caller's own), the encoded body and what a debug line shows of it, the request as the
// intercept hook sees it (credential redacted), and the bearer values never to be shown. Pure:
// the transport (transport.ts) sends what is built here.
import { FormData } from 'undici'

import { InvalidInputError } from './errors.js'
import type { OutgoingRequest } from './options.js'
import { REDACTED, redactJson, redactUrl } from './redact.js'
import { type Context, type Query, type RawRequest, describeForm, encodeQuery, mergeContext } from './wire.js'

const CONTEXT_HEADERS: ReadonlyArray<[keyof Context, string]> = [
  ['marketplaceId', 'Marketplace-Id'],
  ['merchantId', 'Merchant-Id'],
  ['customerId', 'Customer-Id'],
  ['customerDelegateUserId', 'Customer-Delegate-User-Id'],
]

/** What every request of one client carries: its credential, user agent and default context. */
export interface Sender {
  baseUrl: string
  credential: string
  userAgent: string
  context: Context
}

/** A request's headers and encoded body, plus what the debug line shows of the body. */
export interface Prepared {
  headers: Record<string, string>
  body: unknown
  shownBody: (() => string) | undefined
}

/** The full URL of a request: base URL, path and encoded query. */
export function buildUrl(baseUrl: string, path: string, query?: Query | Record<string, unknown>): string {
  const suffix = path.startsWith('/') ? path : `/${path}`
  let url = `${baseUrl}${suffix}`
  const search = encodeQuery(query)
  if (search) url += (url.includes('?') ? '&' : '?') + search
  return url
}

/** The path for messages: no query string (it may hold a token). */
export function describePath(path: string): string {
  const bare = path.split('?')[0] ?? path
  return bare.startsWith('/') ? bare : `/${bare}`
}

/** Headers and the encoded body of a request, plus what the debug line shows of the body. */
export function prepare(raw: RawRequest, sender: Sender): Prepared {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${sender.credential}`,
    Accept: raw.accept ?? 'application/json',
    'User-Agent': sender.userAgent,
  }
  const context = mergeContext(sender.context, raw.context)
  for (const [field, header] of CONTEXT_HEADERS) {
    const value = context[field]
    if (value !== undefined && value !== '') headers[header] = value
  }
  let body: unknown
  let shownBody: (() => string) | undefined
  const given = raw.body
  if (given === undefined) {
    body = undefined
  } else if (given instanceof FormData) {
    body = given
    shownBody = () => describeForm(given)
  } else if (given instanceof Uint8Array) {
    body = given
    shownBody = () => `<${given.byteLength} bytes>`
  } else {
    body = JSON.stringify(given)
    headers['Content-Type'] = 'application/json'
    shownBody = () => JSON.stringify(redactJson(given))
  }
  for (const [name, value] of Object.entries(raw.headers ?? {})) {
    const existing = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase())
    if (existing) delete headers[existing]
    headers[name] = value
  }
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n\0]/.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new InvalidInputError(
        `The header ${JSON.stringify(name.replace(/[^\x20-\x7e]/g, '?'))} cannot be sent: its name or value holds a forbidden character`,
      )
    }
  }
  return { headers, body, shownBody }
}

/** The request as the intercept hook sees it: URL, headers with the credential redacted, body. */
export function outgoing(raw: RawRequest, sender: Sender): OutgoingRequest {
  const { headers, shownBody } = prepare(raw, sender)
  const shown: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) shown[name] = name.toLowerCase() === 'authorization' ? `Bearer ${REDACTED}` : value
  let body: unknown = shownBody
  if (raw.body !== undefined && !(raw.body instanceof FormData) && !(raw.body instanceof Uint8Array)) body = redactJson(raw.body)
  return { method: raw.method, url: redactUrl(buildUrl(sender.baseUrl, raw.path, raw.query)), path: describePath(raw.path), headers: shown, body }
}

/** The credential and any other bearer value being sent: never to be shown. */
export function secretsOf(headers: Record<string, string>, credential: string): string[] {
  const list = [credential]
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'authorization') {
      const bearer = /^\S+\s+(.+)$/.exec(value)?.[1]
      if (bearer && bearer !== credential) list.push(bearer)
    }
  }
  return list
}
