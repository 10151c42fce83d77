// A local HTTP server on port 0 that records every request and answers from a script, for tests
// that assert exactly what went on the wire.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: string
  json: unknown
}

export interface ScriptedAnswer {
  status?: number
  headers?: Record<string, string>
  body?: unknown
}

export type Responder = (request: RecordedRequest) => ScriptedAnswer

export interface RecordingServer {
  url: string
  requests: RecordedRequest[]
  respond(responder: Responder): void
  close(): Promise<void>
}

export async function startRecordingServer(responder: Responder = () => ({ status: 200, body: {} })): Promise<RecordingServer> {
  let current = responder
  const requests: RecordedRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const url = new URL(req.url ?? '/', 'http://localhost')
      let json: unknown
      try {
        json = body ? JSON.parse(body) : undefined
      } catch {
        json = undefined
      }
      const recorded = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, json }
      requests.push(recorded)
      const answer = current(recorded)
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {})
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers })
      res.end(text)
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (next) => (current = next),
    close: () => new Promise((ok) => server.close(() => ok())),
  }
}
