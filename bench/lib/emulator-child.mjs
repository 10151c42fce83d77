// A process for the emulator benchmarks: `node bench/lib/emulator-child.mjs emulator|bare`.
// `emulator` runs the built emulator (dist/) on 127.0.0.1, port 0; `bare` a node:http server
// that answers every request with the same canned bytes (an order). The child tells its URL over
// IPC, and answers {cmd: 'memory'} with its RSS after a full garbage collection (it runs with
// --expose-gc), so that a benchmark can weigh the store apart from what a request adds.
import { createServer } from 'node:http'

const kind = process.argv[2] ?? 'emulator'

async function start() {
  if (kind === 'bare') {
    const body = Buffer.from(process.argv[3] ?? '{}')
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) })
      res.end(body)
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${server.address().port}`
  }
  const { startEmulator } = await import('../../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0 })
  return emulator.url
}

const url = await start()
process.on('message', (message) => {
  if (message?.cmd === 'memory') {
    globalThis.gc?.()
    globalThis.gc?.()
    process.send?.({ rss: process.memoryUsage().rss })
  }
})
process.on('disconnect', () => process.exit(0))
process.send?.({ url })
