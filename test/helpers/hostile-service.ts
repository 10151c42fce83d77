// A hostile test double of the service (not the emulator): a small HTTP server on 127.0.0.1:0
// whose routes answer as a broken or malicious service would: junk with 200, bodies that break
// off, drip a byte at a time or never end, the same list page for ever.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type HostileRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => void

export interface HostileService {
  url: string
  /** `METHOD /path?query` of every request, in order. */
  requests: string[]
  /** Bytes written by endless bodies, and whether the client went away. */
  endless: { bytes: number; closed: boolean }
  close(): Promise<void>
}

/** The environment that points payfac at `url` with a sandbox key and an empty config dir. */
export function hostileEnv(url: string, configDir: string): Record<string, string> {
  return { PAYFAC_BASE_URL: url, PAYFAC_API_KEY: 'sandbox_sk_hostileService000001', PAYFAC_CONFIG_DIR: configDir, PAYFAC_PROFILE: '' }
}

export async function startHostileService(routes: Record<string, HostileRoute>): Promise<HostileService> {
  const requests: string[] = []
  const timers = new Set<NodeJS.Timeout>()
  const endless = { bytes: 0, closed: false }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    requests.push(`${req.method} ${url.pathname}${url.search}`)
    const route = routes[url.pathname]
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, errorCode: 'not_found', message: 'No such route' }))
      return
    }
    // The helpers below register their timers here, so that close() stops them.
    Object.assign(res, { timers, endless })
    route(req, res, url)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    endless,
    async close() {
      for (const timer of timers) clearInterval(timer)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

type Res = ServerResponse & { timers?: Set<NodeJS.Timeout>; endless?: { bytes: number; closed: boolean } }

/** A whole answer. */
export const answer =
  (status: number, contentType: string | undefined, body: string | Buffer = ''): HostileRoute =>
  (_req, res) => {
    res.writeHead(status, contentType ? { 'content-type': contentType } : {})
    res.end(status === 204 ? undefined : body)
  }

/** Declares `declared` bytes, sends `sent`, then drops the connection `afterMs` later. */
export const dropAfter =
  (contentType: string, sent: string | Buffer, declared: number, afterMs = 300): HostileRoute =>
  (_req, res: Res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': String(declared) })
    res.write(sent, () => {
      const timer = setTimeout(() => res.socket?.destroy(), afterMs)
      res.timers?.add(timer)
    })
  }

/** Sends `first`, then one byte every `everyMs` for as long as the client listens. */
export const drip =
  (contentType: string, first: string, everyMs: number): HostileRoute =>
  (_req, res: Res) => {
    res.writeHead(200, { 'content-type': contentType })
    res.write(first)
    const timer = setInterval(() => res.write('x'), everyMs)
    res.timers?.add(timer)
    res.on('close', () => clearInterval(timer))
  }

/** 64 KiB chunks of `unit` for as long as the client reads (never ends by itself). */
export const endlessBody =
  (contentType: string, unit: string): HostileRoute =>
  (_req, res: Res) => {
    const chunk = Buffer.from(unit.repeat(Math.ceil(65_536 / unit.length)).slice(0, 65_536))
    res.writeHead(200, { 'content-type': contentType })
    const state = res.endless as { bytes: number; closed: boolean }
    let open = true
    res.on('close', () => {
      open = false
      state.closed = true
    })
    const pump = () => {
      while (open && state.bytes < 2 ** 31) {
        state.bytes += chunk.length
        if (!res.write(chunk)) {
          res.once('drain', pump)
          return
        }
      }
    }
    pump()
  }
