// `payfac emulator wait` without a background record: it waits for an emulator at the profile's
// base URL (one started with `emulator start &`, or in a container), and gives up at once when
// something else answers there.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'

import { startEmulator } from '../../src/emulator/index.js'
import { runCommand } from '../helpers/run-command.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

const config = makeTempConfigDir('payfac-wait-')
afterAll(() => config.cleanup())
const wait = (baseUrl: string, ...argv: string[]) =>
  runCommand(['emulator', 'wait', ...argv], { env: { PAYFAC_CONFIG_DIR: config.dir, PAYFAC_BASE_URL: baseUrl, PAYFAC_PROFILE: undefined, CI: undefined } })

describe('emulator wait, without a background emulator', () => {
  it('prints the base URL once an emulator answers there (and makes the namespace asked for)', async () => {
    const emulator = await startEmulator({ port: 0 })
    try {
      const waited = await wait(emulator.url, '--namespace', 'ci-9')
      expect([waited.code, waited.stdout]).toEqual([0, `${emulator.url}\n`])
      expect(emulator.app.namespaces.list().map((n) => n.name)).toContain('ci-9')
    } finally {
      await emulator.close()
    }
  })

  it('gives up at once (exit 7) when what answers there is not an emulator', async () => {
    const other = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not here"}'))
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    try {
      const waited = await wait(`http://127.0.0.1:${(other.address() as AddressInfo).port}`, '--timeout', '10m')
      expect(waited.code).toBe(7)
      expect(waited.stderr).toContain('but not as a payfac emulator (GET /__emulator answered 404)')
    } finally {
      other.close()
    }
  })
})
