// The CLI bundle loads zod only when a schema must be built (scripts/bundle/zod-lazy.mjs): an
// answer that passes the plan registered for its schema at build time is used as it is, and
// only an answer that fails it brings zod in, for zod's exact message.
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const PROBE = resolve(__dirname, '../fixtures/probes/zod-loaded.cjs')

let ctx: EmulatorEnv
let orderId: string

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  const created = await spawnCli(['orders', 'create', '--amount', '12.34', '--currency', 'AUD', '--reference', 'lazy-zod-1', '--json'], { env: ctx.env })
  expect(created.code).toBe(0)
  orderId = (JSON.parse(created.stdout) as { orderId: string }).orderId
})

afterAll(async () => {
  await ctx?.close()
})

const probed = (args: string[]) => spawnCli(args, { env: { ...ctx.env, NODE_OPTIONS: `--require ${PROBE}` } })

describe('zod in the CLI bundle', () => {
  it('is not loaded to show an order whose answer passes its check', async () => {
    const result = await probed(['orders', 'get', orderId, '--json'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ orderId, amount: { minorCurrencyUnits: 1234, currency: 'AUD' }, referenceOrderId: 'lazy-zod-1' })
    expect(result.stderr).toContain('zod-probe: not loaded')
  })

  it('is not loaded to list orders', async () => {
    const result = await probed(['orders', 'list', '--limit', '5', '--json'])
    expect(result.code).toBe(0)
    expect((JSON.parse(result.stdout) as Array<{ orderId: string }>).map((o) => o.orderId)).toContain(orderId)
    expect(result.stderr).toContain('zod-probe: not loaded')
  })

  it('is not loaded to read a sound profile store', async () => {
    const profileEnv = { ...ctx.env, PAYFAC_BASE_URL: undefined, PAYFAC_API_KEY: undefined }
    const added = await spawnCli(['profiles', 'add', 'lazy', '--environment', 'sandbox', '--base-url', ctx.emulator.url, '--credential-stdin', '--use'], {
      env: profileEnv,
      input: `${ctx.emulator.credentials.merchantSecretKey}\n`,
    })
    expect(added.code, added.stderr).toBe(0)
    const result = await spawnCli(['orders', 'get', orderId, '--json'], { env: { ...profileEnv, NODE_OPTIONS: `--require ${PROBE}` } })
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ orderId })
    expect(result.stderr).toContain('zod-probe: not loaded')
  })

  it('is loaded when a request body must be checked, and the command works the same', async () => {
    const result = await probed(['orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'lazy-zod-2', '--json'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ referenceOrderId: 'lazy-zod-2' })
    expect(result.stderr).toContain('zod-probe: loaded')
  })
})
