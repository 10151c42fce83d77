// A proxy in front of the emulator that holds requests at a gate the test opens: races that must
// see one process hold a lock while the others wait for it are then arranged by events (the
// others saying they wait), not by a latency long enough on a fast machine. Every request passes
// through untouched; one that `holds` matches waits until `open()` (or until it is closed).
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface GateProxy {
  /** The proxy's base URL: point PAYFAC_BASE_URL here. */
  url: string
  /** Lets every held request (and every later one) through. */
  open(): void
  /** Resolves when the first request that the gate holds has arrived. */
  held: Promise<void>
  close(): Promise<void>
}

/** A proxy to `target` (the emulator's URL) that holds the requests for which `holds(method, path)` is true. */
export async function gateProxy(target: string, holds: (method: string, path: string) => boolean): Promise<GateProxy> {
  let opened = false
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let arrived!: () => void
  const held = new Promise<void>((resolve) => (arrived = resolve))
  const upstream = new URL(target)
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
      // The emulator may end a connection unanswered on purpose (drop-after-commit): so does the proxy.
      answer.on('aborted', () => res.destroy())
    })
    out.on('error', () => res.destroy())
    req.pipe(out)
  }
  const server = createServer((req, res) => {
    if (!opened && holds(req.method ?? '', new URL(req.url ?? '/', 'http://proxy').pathname)) {
      arrived()
      // The body is read on while the request waits, and sent on when the gate opens.
      req.pause()
      void gate.then(() => forward(req, res))
    } else forward(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    held,
    open() {
      opened = true
      release()
    },
    close() {
      opened = true
      release()
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
