// The HTTP side of `payfac webhooks listen`: a node:http server that a slow or greedy sender
// cannot hold open or fill up. Limits (docs: "What payfac trusts"):
// - a body over MAX_BODY_BYTES is answered 413: at once, unread, when Content-Length says so;
//   as soon as it passes the cap otherwise; the connection then closes;
// - the request head must arrive within HEADERS_TIMEOUT_MS and the whole request within
//   REQUEST_TIMEOUT_MS; a connection idle for IDLE_TIMEOUT_MS is closed;
// - at most MAX_CONNECTIONS connections at once (more are refused by the server).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { UsageError } from '../errors/index.js'
import { MAX_WEBHOOK_BODY_BYTES } from './webhooks-verify.js'

/** Largest delivery body read; a bigger one is answered 413. */
export const MAX_BODY_BYTES = MAX_WEBHOOK_BODY_BYTES
export const HEADERS_TIMEOUT_MS = 10_000
export const REQUEST_TIMEOUT_MS = 30_000
/** Longer than a forward may take (10 s), so a connection waiting for its answer is not idle. */
export const IDLE_TIMEOUT_MS = 30_000
export const MAX_CONNECTIONS = 100

export type Receive = (req: IncomingMessage, res: ServerResponse) => void

/** The server, with its limits set; `receive` gets every request. */
export function receiverServer(receive: Receive): Server {
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 }, receive)
  server.maxConnections = MAX_CONNECTIONS
  server.setTimeout(IDLE_TIMEOUT_MS, (socket) => socket.destroy())
  return server
}

/** Answers `status` with a JSON body; with `close`, the connection ends after it (the rest of the body unread). */
export function answerJson(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.headersSent) return
  res.writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) }).end(JSON.stringify(body))
}

/**
 * The body, or undefined when it is over the cap: then 413 has been answered and the connection
 * is closing. A declared Content-Length over the cap is refused before a byte of the body is read.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, limit = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  const tooLarge = () => {
    answerJson(res, 413, { error: `body too large: at most ${limit} bytes` }, true)
    req.pause()
    res.once('finish', () => req.socket.destroySoon())
  }
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    tooLarge()
    return Promise.resolve(undefined)
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      req.off('data', onData)
      chunks.length = 0
      tooLarge()
      resolve(undefined)
    }
    req.on('data', onData)
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

export function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UsageError(`--port ${port} is taken on ${host}`, 'Choose another port, or --port 0 for a free one'))
      else if (error.code === 'EACCES') reject(new UsageError(`--port ${port} needs privileges on ${host}`, 'Choose a port above 1023, or --port 0'))
      else reject(error)
    }
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    server.closeIdleConnections()
    setTimeout(() => server.closeAllConnections(), 1000).unref()
  })
}
