// What the bulk tests share (test/commands/bulk*.test.ts): an emulator with no fault rules left
// between tests, a folder for row files, payfac spawned against it, direct calls to the emulator,
// and transactions paid to refund.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from './emulator-env.js'
import { spawnCli } from './spawn-cli.js'

export interface BulkEnv {
  readonly ctx: EmulatorEnv
  readonly files: string
  payfac(...args: string[]): ReturnType<typeof spawnCli>
  /** A call to the emulator with the merchant's key; the JSON answer, or an error naming the status. */
  call(method: string, path: string, body?: unknown): Promise<any>
  control(method: string, path: string, body?: unknown): Promise<any>
  /** `count` transactions paid 10.00 AUD each by PayTo. */
  paid(count: number): Promise<string[]>
  /** A file of `lines` in the row folder. */
  csv(name: string, lines: string[]): string
  /** Refunds the emulator holds, per transaction. */
  refundsOf(ids: string[]): number[]
}

/** Registers the hooks and returns the shared pieces (`prefix` names the row folder and the references). */
export function useBulkEnv(prefix: string): BulkEnv {
  let ctx: EmulatorEnv | undefined
  let files = ''
  let serial = 0
  beforeAll(async () => {
    ctx = await startEmulatorEnv()
    files = mkdtempSync(join(tmpdir(), `payfac-${prefix}-`))
  })
  afterAll(async () => {
    await ctx?.close()
    rmSync(files, { recursive: true, force: true })
  })
  beforeEach(async () => {
    await env.control('DELETE', '/faults')
  })
  const env: BulkEnv = {
    get ctx() {
      if (!ctx) throw new Error('the bulk emulator is not started yet')
      return ctx
    },
    get files() {
      return files
    },
    payfac: (...args) => spawnCli(args, { env: env.ctx.env, timeoutMs: 30_000 }),
    async call(method, path, body) {
      const r = await fetch(env.ctx.emulator.url + path, {
        method,
        headers: { authorization: `Bearer ${env.ctx.env.PAYFAC_API_KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await r.text()
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`)
      return text ? JSON.parse(text) : undefined
    },
    control: (method, path, body) => env.call(method, `/__emulator${path}`, body),
    async paid(count) {
      const amount = { minorCurrencyUnits: 1000, currency: 'AUD' }
      const agreement = await env.call('POST', '/payto/agreement', {
        customerName: 'Jo Citizen',
        customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
        terms: { AgreementRequestTermsOpen: {} },
        purpose: 'Bulk test',
      })
      await env.call('POST', '/simulation', { AdvanceClock: { seconds: 5 } })
      const ids: string[] = []
      for (let n = 0; n < count; n++) {
        const token = await env.call('POST', '/tokens', { CreatePayToToken: { amount, agreementToken: agreement.token } })
        const order = await env.call('POST', '/orders', { CreateOnlineOrder: { referenceOrderId: `${prefix}-${++serial}`, amount } })
        ids.push(
          (await env.call('POST', `/orders/${order.OnlineOrder.order.orderId}/pay`, { PayByPayTo: { paymentTokenId: token.PayToToken.paymentTokenId } }))
            .PayOrderComplete.transactionId,
        )
      }
      return ids
    },
    csv(name, lines) {
      const file = join(files, name)
      writeFileSync(file, `${lines.join('\n')}\n`)
      return file
    },
    refundsOf(ids) {
      const all = [...env.ctx.emulator.app.store.refunds.values()]
      return ids.map((id) => all.filter((r) => r.transactionId === id).length)
    },
  }
  return env
}
