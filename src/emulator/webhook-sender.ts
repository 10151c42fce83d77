// How the emulator sends one webhook delivery: node:http or node:https, to an address judged by
// webhook-targets.ts at delivery time. The delivery engine (deliveries.ts) schedules and logs.
import type { LookupAddress } from 'node:dns'
import { request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { targetRefusal } from './webhook-targets.js'

/** How much of a receiver's answer the log keeps. */
export const RESPONSE_SNIPPET_BYTES = 1024

/** What a sender reports back: the answer, or why there was none. */
export interface SendResult {
  status?: number
  body?: string
  error?: string
}

export type Sender = (url: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<SendResult>

/** How the sender finds the addresses of a name (node:dns by default; tests give their own). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>

export interface SenderOptions {
  allowRemote?: boolean
  allowPrivate?: boolean
  /** The emulator listens beyond this machine (webhook-targets.ts). */
  exposed?: boolean
  resolve?: Resolve
  /** Makes the request (node:http or node:https by the URL's protocol by default; tests give their own). */
  request?: (url: URL, options: RequestOptions) => ClientRequest
}

const systemResolve: Resolve = async (hostname) => (await import('node:dns')).promises.lookup(hostname, { all: true, verbatim: true })

/**
 * POSTs with node:http or node:https; an answer must be complete within `timeoutMs`. The target
 * is judged by the address it resolves to, now (webhook-targets.ts), and the connection goes to
 * that very address (a pinned lookup), so DNS cannot answer one address for the check and
 * another for the connection.
 */
export function httpSender(options: SenderOptions = {}): Sender & { abortAll(): void } {
  const open = new Set<ClientRequest>()
  const policy = { allowRemote: options.allowRemote ?? false, allowPrivate: options.allowPrivate ?? false, exposed: options.exposed ?? false }
  const resolve = options.resolve ?? systemResolve
  const sender = async (url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      return { error: `not a URL: ${url}` }
    }
    const host = target.hostname.replace(/^\[|\]$/g, '')
    // A name that is not this machine's is refused before it is even looked up, unless remote delivery is allowed.
    if (!policy.allowRemote && !isLoopbackHost(host))
      return { error: `not sent: ${host} is not this machine (start the emulator with --allow-remote-webhooks to deliver there)` }
    let address: LookupAddress
    if (isIP(host)) address = { address: host, family: isIP(host) }
    else {
      let found: LookupAddress[]
      try {
        found = await resolve(host)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        return { error: `not sent: ${host} could not be resolved${code ? ` (${code})` : ''}` }
      }
      if (found.length === 0) return { error: `not sent: ${host} could not be resolved` }
      // Every address the name has must pass: a connection may go to any of them.
      for (const each of found) {
        const refusal = targetRefusal(host, each.address, policy)
        if (refusal) return { error: refusal }
      }
      address = found[0] as LookupAddress
    }
    const refusal = targetRefusal(host, address.address, policy)
    if (refusal) return { error: refusal }
    return post(target, address, headers, body, timeoutMs)
  }
  const post = (target: URL, address: LookupAddress, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> =>
    new Promise((resolve) => {
      const payload = Buffer.from(body, 'utf8')
      const make =
        options.request ?? ((url: URL, requestOptions: RequestOptions) => (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, requestOptions))
      let settled = false
      const finish = (result: SendResult) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        open.delete(req)
        resolve(result)
      }
      const pinned = (_name: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (lookupOptions?.all) callback(null, [address])
        else callback(null, address.address, address.family)
      }
      const req = make(target, {
        method: 'POST',
        agent: false,
        lookup: pinned as unknown as RequestOptions['lookup'],
        headers: { ...headers, 'Content-Length': String(payload.length), Connection: 'close' },
      })
      open.add(req)
      const timer = setTimeout(() => {
        finish({ error: `no answer within ${timeoutMs / 1000} s` })
        req.destroy()
      }, timeoutMs)
      req.on('response', (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_SNIPPET_BYTES) chunks.push(chunk.subarray(0, RESPONSE_SNIPPET_BYTES - size))
          size += chunk.length
        })
        res.on('end', () => finish({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', (error) => finish({ status: res.statusCode ?? 0, error: error.message }))
      })
      req.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ? `${error.code}: ${error.message}` : error.message }))
      req.end(payload)
    })
  return Object.assign(sender, {
    abortAll() {
      for (const req of open) req.destroy()
      open.clear()
    },
  })
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts deliveries go to unless remote delivery is allowed. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}
