import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { commandEnv } from '../helpers/emulator-env.js'
import { call, dataOf, type McpSession, startMcp } from '../helpers/mcp-client.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

const KEY = 'sandbox_sk_mcpHostileServiceKey000001'

describe('payfac mcp against a hostile service', () => {
  let service: Server
  let config: TempConfigDir
  let mcp: McpSession
  let endlessBytes = 0
  beforeAll(async () => {
    service = createServer((request, response) => {
      if (request.url === '/orders/ordr_EchoesTheKey01') {
        // A gateway that reflects what it was sent, in a record's free text.
        const body = { orderId: 'ordr_EchoesTheKey01', description: `seen: ${request.headers.authorization}`, note: { [KEY]: KEY } }
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      } else if (request.url === '/transactions/invoices/inv_NeverEnds0001/pdf') {
        // A "PDF" that never ends: written as fast as it is read, until the reader hangs up.
        response.writeHead(200, { 'content-type': 'application/pdf' })
        const chunk = Buffer.alloc(64 * 1024, 0x25)
        const more = () => {
          while (!response.destroyed) {
            endlessBytes += chunk.length
            if (!response.write(chunk)) break
          }
        }
        response.on('drain', more)
        more()
      } else {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, errorCode: 'not_found', message: 'Not here' }))
      }
    })
    await new Promise<void>((listening) => service.listen(0, '127.0.0.1', listening))
    config = makeTempConfigDir('payfac-mcp-adversary-')
    mcp = await startMcp([], commandEnv(config.dir, `http://127.0.0.1:${(service.address() as AddressInfo).port}`, KEY))
  })
  afterAll(async () => {
    await mcp?.close()
    service?.closeAllConnections()
    await new Promise((closed) => service?.close(closed))
    config?.cleanup()
  })

  it("never hands the assistant the server's own credential, wherever the service writes it", async () => {
    const got = await call(mcp, 'getOrder', { orderId: 'ordr_EchoesTheKey01' })
    expect(got.isError, got.text).toBe(false)
    expect(got.text).not.toContain(KEY.slice('sandbox_sk_'.length))
    expect(dataOf(got).description).toBe('seen: Bearer [REDACTED]')
  })

  it('reads a file no further than it returns: one that never ends is described, not held in memory', async () => {
    const got = await call(mcp, 'getInvoicePdf', { invoiceId: 'inv_NeverEnds0001' })
    expect(got.isError, got.text).toBe(false)
    expect(got.text).toMatch(/^getInvoicePdf: the file is more than 4194304 bytes/)
    expect(got.text).not.toContain('[resource]')
    expect(endlessBytes).toBeGreaterThan(4 * 1024 * 1024)
  })
})
