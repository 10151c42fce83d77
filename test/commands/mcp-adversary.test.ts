// `payfac mcp` attacked: by a hostile service (text that carries the server's own credential, a
// file that never ends), and by an assistant or a person whose preview and confirmation do not
// agree (a balance that grew, a file or a profile changed in between). Each case is a weakness
// found and fixed; what held is listed in docs/mcp.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { commandEnv } from '../helpers/emulator-env.js'
import { call, dataOf, type McpSession, startMcp } from '../helpers/mcp-client.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

const KEY = 'sandbox_sk_mcpHostileServiceKey000001'

describe('payfac mcp against a hostile service', () => {
  let service: RecordingServer
  let config: TempConfigDir
  let mcp: McpSession
  beforeAll(async () => {
    service = await startRecordingServer((request) => {
      if (request.path === '/orders/ordr_EchoesTheKey01') {
        // A gateway that reflects what it was sent, in a record's free text.
        return { status: 200, body: { orderId: 'ordr_EchoesTheKey01', description: `seen: ${request.headers.authorization}`, note: { [KEY]: KEY } } }
      }
      return { status: 404, body: { statusCode: 404, errorCode: 'not_found', message: 'Not here' } }
    })
    config = makeTempConfigDir('payfac-mcp-adversary-')
    mcp = await startMcp([], commandEnv(config.dir, service.url, KEY))
  })
  afterAll(async () => {
    await mcp?.close()
    await service?.close()
    config?.cleanup()
  })

  it("never hands the assistant the server's own credential, wherever the service writes it", async () => {
    const got = await call(mcp, 'getOrder', { orderId: 'ordr_EchoesTheKey01' })
    expect(got.isError, got.text).toBe(false)
    expect(got.text).not.toContain(KEY.slice('sandbox_sk_'.length))
    expect(dataOf(got).description).toBe('seen: Bearer [REDACTED]')
  })
})
