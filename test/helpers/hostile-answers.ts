// A hostile test double of the service: a tiny HTTP server on 127.0.0.1:0 that answers each
// request from a script with whatever bytes it is told to (HTML for JSON, a body cut short, a
// Content-Length it never sends, `{}` to a create), and records what arrived. Not the emulator:
// the emulator only says what the contract says.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'

import { RECORDING_SECRET_KEY } from './command-harness.js'
import { commandEnv } from './emulator-env.js'
import { type CommandResult, runCommand } from './run-command.js'
import { makeTempConfigDir, type TempConfigDir } from './tmp-config.js'

export interface ArrivedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: string
}

export interface HostileAnswer {
  status?: number
  /** Sent as given; `content-type` defaults to application/json unless set (or null to leave it out). */
  headers?: Record<string, string | null>
  /** The body: a string or bytes as they are, or any other value as JSON. */
  body?: unknown
  /**
   * Send the headers and this much of the body, then drop the connection (a body cut short).
   * With `hold`, send the headers and nothing else, and keep the connection open until the
   * server closes.
   */
  cut?: number | 'hold'
  /** Send the body chunked, without a Content-Length. */
  chunked?: boolean
}

export type HostileScript = (request: ArrivedRequest) => HostileAnswer

export interface HostileService {
  url: string
  /** Everything that arrived since the start (or the last `forget()`), in order. */
  arrived: ArrivedRequest[]
  answer(script: HostileScript): void
  forget(): void
  close(): Promise<void>
}

export async function startHostileService(script: HostileScript = () => ({ status: 200, body: {} })): Promise<HostileService> {
  let current = script
  const arrived: ArrivedRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const request = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      arrived.push(request)
      const answer = current(request)
      const bytes =
        answer.body === undefined
          ? Buffer.alloc(0)
          : typeof answer.body === 'string'
            ? Buffer.from(answer.body)
            : answer.body instanceof Uint8Array
              ? Buffer.from(answer.body)
              : Buffer.from(JSON.stringify(answer.body))
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      for (const [name, value] of Object.entries(answer.headers ?? {})) {
        if (value === null) delete headers[name.toLowerCase()]
        else headers[name.toLowerCase()] = value
      }
      if (answer.cut === 'hold') {
        res.writeHead(answer.status ?? 200, headers)
        res.flushHeaders()
        return
      }
      if (answer.cut !== undefined) {
        // Declares the whole length, sends part of it, and hangs up.
        res.writeHead(answer.status ?? 200, { ...headers, 'content-length': String(bytes.byteLength) })
        res.write(bytes.subarray(0, answer.cut), () => res.socket?.destroy())
        return
      }
      res.writeHead(answer.status ?? 200, headers)
      if (answer.chunked) {
        res.write(bytes)
        res.end()
        return
      }
      res.end(bytes)
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    arrived,
    answer: (next) => (current = next),
    forget: () => void (arrived.length = 0),
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections()
        server.close(() => ok())
      }),
  }
}

/**
 * A hostile service for a test file (started before its tests, closed after, its log of arrived
 * requests forgotten before each test) and payfac run in-process against it, from a config folder
 * of its own named by `prefix`.
 */
export function useHostileAnswers(prefix: string): {
  readonly service: HostileService
  payfac: (...argv: string[]) => Promise<CommandResult>
  changes: () => ArrivedRequest[]
} {
  let started: HostileService | undefined
  let config: TempConfigDir | undefined
  beforeAll(async () => {
    started = await startHostileService()
    config = makeTempConfigDir(prefix)
  })
  afterAll(async () => {
    await started?.close()
    config?.cleanup()
  })
  beforeEach(() => started?.forget())
  const service = () => {
    if (!started || !config) throw new Error('useHostileAnswers(): the service runs only inside the tests and their hooks')
    return { service: started, dir: config.dir }
  }
  return {
    get service() {
      return service().service
    },
    payfac: (...argv) => runCommand(argv, { env: commandEnv(service().dir, service().service.url, RECORDING_SECRET_KEY) }),
    changes: () => service().service.arrived.filter((r) => r.method !== 'GET'),
  }
}
