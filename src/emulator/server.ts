// The HTTP side: node:http, nothing else. Reads each body (up to MAX_BODY_BYTES), hands the
// request to the app, writes the answer. `close()` stops listening and ends every open
// connection, idle or not, so that tests and Ctrl-C never hang on keep-alive sockets.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { EmulatorError } from './api-error.js'
import type { EmulatorApp } from './app.js'
import type { FrontResponse } from './front.js'
import { MAX_JSON_BODY_BYTES } from './body-limits.js'
import { type EdgePolicy, edgePolicy, generateControlToken, isExposedAddress, screenRequest } from './edge-guard.js'
import { type EmulatorInstance, instanceRoute } from './instance.js'
import { rejectRequest } from './pipeline.js'
import { StreamBody } from './route.js'

/** Largest request body accepted: a multipart upload, above the 10 MB of a merchant file. */
export const MAX_BODY_BYTES = 12 * 1024 * 1024

/** The cap of one request: a multipart upload may be large; any other body is JSON (body-limits.ts). */
export function bodyLimit(contentType: string | undefined): number {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'multipart/form-data' ? MAX_BODY_BYTES : MAX_JSON_BODY_BYTES
}

export interface RunningServer {
  server: Server
  url: string
  port: number
  host: string
  /** True when the bound address is not loopback (other machines can reach it). */
  exposed: boolean
  /** The control token the control plane requires (given, or generated because exposed); undefined when none. */
  controlToken: string | undefined
  close(): Promise<void>
}

export interface ListenOptions {
  port: number
  host: string
  log?: (line: string) => void
  /** Required on every control-plane request when given; generated when the address is exposed and none is given. */
  controlToken?: string | undefined
  /** A background run (`emulator start --detach`): its proof and shutdown routes (instance.ts). */
  instance?: EmulatorInstance | undefined
}

function headerMap(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  const headers = req.headers
  for (const name in headers) {
    const value = headers[name]
    out[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/** The body of a request that sent none. */
const NO_BODY = Buffer.alloc(0)

function send(
  res: ServerResponse,
  answer: { status: number; headers: Record<string, string>; body: string | Buffer | StreamBody; events?: FrontResponse['events'] },
): void {
  if (answer.events) {
    // Server-sent events: the first text, then whatever comes, until the client goes.
    res.writeHead(answer.status, answer.headers)
    res.write(typeof answer.body === 'string' ? answer.body : '')
    const stop = answer.events((text) => res.write(text))
    res.once('close', stop)
    return
  }
  if (answer.body instanceof StreamBody) {
    res.writeHead(answer.status, answer.headers)
    streamPieces(res, answer.body.pieces()[Symbol.iterator]())
    return
  }
  // A text body goes as text: node:http then writes the head and the body in one piece (one
  // system call), and the text is not copied into a buffer first.
  const body = answer.body
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.length) })
  res.end(body)
}

/** Size of the two buffers a streamed body is written through (the first write is small, so the first byte goes at once). */
const STREAM_BUFFER_BYTES = 64 * 1024
const STREAM_FIRST_BYTES = 1024

/**
 * Writes a streamed body with backpressure and without garbage: pieces are encoded into one of
 * two buffers of 64 KiB; a buffer is handed to the socket and filled again only once the socket
 * has taken it (the write callback), so at most two are in flight and none is allocated per
 * chunk. A piece larger than a buffer goes as it is. A body that fails half-way ends the
 * connection (the client sees a cut answer, not a false end).
 */
function streamPieces(res: ServerResponse, pieces: Iterator<string>): void {
  let closed = false
  let finished = false
  let pending: string | undefined
  let limit = STREAM_FIRST_BYTES
  const free: Buffer[] = [Buffer.allocUnsafe(STREAM_BUFFER_BYTES), Buffer.allocUnsafe(STREAM_BUFFER_BYTES)]
  res.once('close', () => {
    closed = true
  })
  /** Fills `buffer` from the pieces; returns the bytes used, and a piece too large for any buffer. */
  const fill = (buffer: Buffer): { used: number; large?: string } => {
    let used = 0
    for (;;) {
      let piece = pending
      pending = undefined
      if (piece === undefined) {
        const next = pieces.next()
        if (next.done) {
          finished = true
          return { used }
        }
        piece = next.value
      }
      const bytes = Buffer.byteLength(piece)
      if (bytes > STREAM_BUFFER_BYTES) {
        if (used === 0) return { used, large: piece }
        pending = piece
        return { used }
      }
      if (used + bytes > limit) {
        pending = piece
        return { used }
      }
      used += buffer.write(piece, used)
    }
  }
  const pump = () => {
    try {
      while (!closed && !finished && free.length > 0) {
        const buffer = free.pop() as Buffer
        const { used, large } = fill(buffer)
        limit = STREAM_BUFFER_BYTES
        if (used > 0) {
          res.write(buffer.subarray(0, used), () => {
            free.push(buffer)
            pump()
          })
        } else free.push(buffer)
        if (large !== undefined) res.write(large)
      }
      if (finished && !closed) res.end()
    } catch {
      res.destroy()
    }
  }
  pump()
}

export function listen(app: EmulatorApp, options: ListenOptions): Promise<RunningServer> {
  const sockets = new Set<Socket>()
  const deps = { ids: app.ids, ...(options.log ? { log: options.log } : {}) }
  // Set once listening (the bound address is known then), before any request can arrive.
  let policy: EdgePolicy | undefined
  const started = { pid: process.pid, at: new Date().toISOString() }
  const server = createServer((req, res) => {
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    const refusal = policy ? screenRequest(policy, method, url, req.headers) : undefined
    if (refusal) {
      // Refused on its headers: the body is not read, and the connection closes after the answer.
      const answer = rejectRequest(deps, refusal, { method, url })
      send(res, { ...answer, headers: { ...answer.headers, Connection: 'close' } })
      req.resume()
      return
    }
    if (options.instance && answerInstance(options.instance, started, deps, req, res)) return
    const limit = bodyLimit(req.headers['content-type'])
    const declared = Number(req.headers['content-length'] ?? '0')
    if (Number.isFinite(declared) && declared > limit) {
      // Answer at once and drain the rest, so the client can read the answer before it finishes sending.
      send(res, rejectRequest(deps, tooLarge(limit), { method, url }))
      req.resume()
      return
    }
    const answer = (body: Buffer) => {
      const host = req.headers.host ?? `${options.host}:${options.port}`
      // handleAsync: a long poll of the control plane, or an injected latency, may hold the answer back.
      app.handleAsync({ method, url, headers: headerMap(req), body, baseUrl: `http://${host}` }).then(
        (answer) => {
          // Injected faults `reset` and `drop-after-commit`: the connection ends with no answer.
          if (answer.transport?.destroy) res.destroy()
          else send(res, answer)
        },
        () => res.destroy(),
      )
    }
    // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112, 6.3): it is
    // answered at once; node:http discards what is left of the request once the answer is sent.
    req.on('error', () => res.destroy())
    if (req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] === undefined || declared === 0)) {
      answer(NO_BODY)
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let refused = false
    req.on('data', (chunk: Buffer) => {
      if (refused) return
      size += chunk.length
      if (size > limit) {
        refused = true
        chunks.length = 0
        send(res, rejectRequest(deps, tooLarge(limit), { method, url }))
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (!refused) answer(chunks.length === 0 ? NO_BODY : Buffer.concat(chunks))
    })
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('clientError', (_error, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy()
      return
    }
    // Not even an HTTP request: still one ApiError with a request id, then the connection closes.
    const answer = rejectRequest(deps, new EmulatorError(400, 'malformed_http', 'The request is not valid HTTP'), { method: '-', url: '-' })
    const body = Buffer.from(answer.body as string)
    const head = Object.entries({ ...answer.headers, 'Content-Length': String(body.length), Connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')
    socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 400 Bad Request\r\n${head}\r\n`), body]))
  })

  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      const reason = error.code === 'EADDRINUSE' ? `port ${options.port} on ${options.host} is already in use` : error.message
      reject(Object.assign(new Error(`The emulator could not listen: ${reason}`), { name: 'ListenError' }))
    }
    const onListening = () => {
      server.off('error', onError)
      const address = server.address() as AddressInfo
      const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address
      const exposed = isExposedAddress(address.address)
      const controlToken = options.controlToken ?? (exposed ? generateControlToken() : undefined)
      policy = edgePolicy(address.address, options.host, controlToken)
      let closing: Promise<void> | undefined
      resolve({
        server,
        port: address.port,
        host: address.address,
        exposed,
        controlToken,
        url: `http://${hostForUrl}:${address.port}`,
        close() {
          closing ??= new Promise<void>((done) => {
            server.close(() => done())
            server.closeIdleConnections()
            for (const socket of sockets) socket.destroy()
          })
          return closing
        },
      })
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(options.port, options.host)
  })
}

/** The proof and shutdown routes of a background run (instance.ts); false when the request is not for them. */
function answerInstance(
  instance: EmulatorInstance,
  started: { pid: number; at: string },
  deps: { ids: EmulatorApp['ids']; log?: (line: string) => void },
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const method = req.method ?? 'GET'
  const url = req.url ?? '/'
  let answer: ReturnType<typeof instanceRoute>
  try {
    answer = instanceRoute(instance, started, method, url, req.headers)
  } catch (error) {
    if (!(error instanceof EmulatorError)) throw error
    req.resume()
    send(res, rejectRequest(deps, error, { method, url }))
    return true
  }
  if (!answer) return false
  req.resume()
  const after = answer.after
  // The shutdown starts once its answer has left, so that `payfac emulator stop` reads it.
  if (after) res.once('finish', () => setImmediate(after))
  send(res, {
    status: answer.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Request-Id': deps.ids.next('req'), Connection: 'close' },
    body: JSON.stringify(answer.body),
  })
  return true
}

function tooLarge(limit: number): EmulatorError {
  const what = limit === MAX_BODY_BYTES ? 'A multipart upload' : 'A JSON body'
  return new EmulatorError(413, 'payload_too_large', `The request body is larger than ${limit / (1024 * 1024)} MB`, {
    detail: `${what} may be at most ${limit} bytes; only multipart/form-data file uploads may exceed ${MAX_JSON_BODY_BYTES} bytes`,
  })
}
