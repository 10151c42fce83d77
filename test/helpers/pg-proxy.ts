// A TCP proxy in front of PostgreSQL that tells the test when a runner reaches a step: the bytes
// the database answers are searched for `watch` (a value of a row it returns, say), and `onSeen` is
// called before they are forwarded, so that the test acts (stops the runner, say) at that exact
// step of the runner's: the statement committed, its answer not yet read. By the event, not the clock.
import { type Socket, connect, createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

export interface PgProxy {
  /** postgres://payfac@127.0.0.1:<proxy port>/payfac: the journal's URL through the proxy. */
  url: string
  /** Resolves when `watch` was first seen (after `onSeen` ran). */
  seen: Promise<void>
  close(): Promise<void>
}

export async function pgProxy(target: { port: number; url: string }, watch: string, onSeen: () => void): Promise<PgProxy> {
  let fired = false
  let resolveSeen!: () => void
  const seen = new Promise<void>((resolve) => (resolveSeen = resolve))
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => undefined)
    }
    upstream.on('data', (data: Buffer) => {
      if (!fired && data.includes(watch)) {
        fired = true
        onSeen()
        resolveSeen()
      }
      client.write(data)
    })
    client.pipe(upstream)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const url = new URL(target.url)
  url.port = String(port)
  return {
    url: url.toString(),
    seen,
    close() {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
