// `webhooks listen` (spawned, as a person runs it: a port, a subscription, deliveries shown,
// checked and forwarded, the subscription suspended on Ctrl-C) and `webhooks verify` (spawned,
// for the raw body on stdin).
//
// Needs the compiled dist and the manifest: `npx tsc -p tsconfig.json && npx oclif manifest`.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { signWebhookPayload, verifyWebhookSignature, webhookSignatureHeader } from '../../src/client/webhook-signature.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { runCommand } from '../helpers/run-command.js'
import { BIN, spawnCli } from '../helpers/spawn-cli.js'

let ctx: EmulatorEnv

beforeAll(async () => {
  ctx = await startEmulatorEnv()
})
afterAll(async () => ctx.close())

interface Received {
  headers: IncomingHttpHeaders
  body: string
  at: number
}

/** A handler of our own that `--forward-to` points at: it keeps what it receives and answers 204. */
async function startTarget(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise((ok) => server.close(() => ok())),
  }
}

interface Listener {
  child: ChildProcessWithoutNullStreams
  port: number
  subscriptionId: string | undefined
  stdout: () => string
  stderr: () => string
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Spawns `payfac webhooks listen …` and waits for its "Listening on" line. */
async function startListener(args: string[], env = ctx.env): Promise<Listener> {
  const fullEnv: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...env }))
    if (value !== undefined && !(key in env && env[key] === undefined)) fullEnv[key] = value
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', ...args], { env: fullEnv, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })))
  const deadline = Date.now() + 10_000
  let match: RegExpExecArray | null = null
  while (!(match = /Listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`webhooks listen did not start: ${stderr}`)
    await sleep(20)
  }
  return {
    child,
    port: Number(match[1]),
    subscriptionId: /Subscription (webhook_\S+) created/.exec(stderr)?.[1],
    stdout: () => stdout,
    stderr: () => stderr,
    exit,
  }
}

async function until<T>(what: string, read: () => T | undefined, ms = 1000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`)
    await sleep(10)
  }
}

const subscriptionOf = (id: string) => ctx.emulator.app.store.webhookSubscriptions.get(id)

describe('webhooks listen', () => {
  it('creates a subscription, shows, verifies and forwards a TransactionPaid, refuses a bad signature, and suspends the subscription on Ctrl-C', async () => {
    const target = await startTarget()
    const listener = await startListener(['--forward-to', target.url, '--json'])
    try {
      expect(listener.subscriptionId).toMatch(/^webhook_/)
      const subscription = subscriptionOf(listener.subscriptionId as string)
      expect(subscription).toMatchObject({ url: `http://127.0.0.1:${listener.port}/`, status: 'Active', merchantId: ctx.emulator.ids.merchantId })
      expect(subscription?.events).toEqual(expect.arrayContaining(['TransactionPaid', 'PayToAgreementStatusChanged', 'OrderCreated', 'MerchantCreated']))

      // A payment: its TransactionPaid reaches our handler within a second, body and signature intact.
      const paid = await runCommand(
        [
          'payto',
          'pay',
          '--name',
          'Listen Flow',
          '--bban',
          '062-000 12345678',
          '--amount',
          '9.90',
          '--currency',
          'AUD',
          '--reference',
          'listen-1',
          '--approve',
          '--interval',
          '100ms',
          '--json',
        ],
        { env: ctx.env },
      )
      expect(paid.code, paid.stderr).toBe(0)
      const transactionId = JSON.parse(paid.stdout).purchaseDetails.transactionId
      const paidAt = Date.now()
      const forwarded = await until('the forward of TransactionPaid', () =>
        target.received.find((r) => JSON.parse(r.body).webhookEventType === 'TransactionPaid'),
      )
      expect(forwarded.at - paidAt).toBeLessThan(1000)
      expect(JSON.parse(forwarded.body).event).toMatchObject({ transactionId })
      expect(forwarded.headers['webhook-delivery-id']).toMatch(/^dlv_/)
      const signature = forwarded.headers['webhook-signature'] as string
      expect(verifyWebhookSignature(subscription?.secret as string, signature, forwarded.body)).toMatchObject({ ok: true })

      const lines = await until('the TransactionPaid line', () => {
        const events = listener
          .stdout()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
        return events.some((e) => e.type === 'TransactionPaid') ? events : undefined
      })
      const line = lines.find((e) => e.type === 'TransactionPaid')
      expect(line).toMatchObject({ type: 'TransactionPaid', signatureValid: true, forwardStatus: 204, receivedAt: expect.any(String) })
      expect(line.payload).toMatchObject({ webhookEventType: 'TransactionPaid', webhookSubscriptionId: listener.subscriptionId, event: { transactionId } })

      // A delivery with a bad signature: answered 401, flagged, not forwarded.
      const forgedBody = JSON.stringify({ webhookEventType: 'TransactionPaid', event: { transactionId: 'tran_forged' } })
      const before = target.received.length
      const forged = await fetch(`http://127.0.0.1:${listener.port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-signature': webhookSignatureHeader('whsec_not_the_secret', forgedBody) },
        body: forgedBody,
      })
      expect(forged.status).toBe(401)
      const flagged = await until('the forged line', () =>
        listener
          .stdout()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .find((e) => e.payload?.event?.transactionId === 'tran_forged'),
      )
      expect(flagged).toMatchObject({ signatureValid: false, forwardStatus: null, signatureError: expect.stringContaining('wrong signature') })
      await sleep(200)
      expect(target.received.length).toBe(before)
      expect(target.received.some((r) => r.body.includes('tran_forged'))).toBe(false)

      listener.child.kill('SIGINT')
      expect(await listener.exit).toEqual({ code: 0, signal: null })
      expect(listener.stderr()).toContain(`Subscription ${listener.subscriptionId} suspended.`)
      expect(subscriptionOf(listener.subscriptionId as string)?.status).toBe('Suspended')
    } finally {
      listener.child.kill('SIGKILL')
      await target.close()
    }
  })

  it('prints one line per delivery on a terminal-style stream, and subscribes only to --events', async () => {
    const listener = await startListener(['--events', 'OrderCreated', '--events', 'OrderCancelled'])
    try {
      const subscription = subscriptionOf(listener.subscriptionId as string)
      expect(subscription?.events).toEqual(['OrderCreated', 'OrderCancelled'])
      const order = await runCommand(['orders', 'create', '--amount', '3', '--currency', 'AUD', '--reference', 'listen-2', '--json'], { env: ctx.env })
      expect(order.code, order.stderr).toBe(0)
      const orderId = JSON.parse(order.stdout).orderId
      const line = await until('the OrderCreated line', () =>
        listener
          .stdout()
          .split('\n')
          .find((l) => l.includes('OrderCreated')),
      )
      expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  OrderCreated  orderId=${orderId}.*  signature ok$`))
      listener.child.kill('SIGTERM')
      expect((await listener.exit).code).toBe(0)
      expect(subscriptionOf(listener.subscriptionId as string)?.status).toBe('Suspended')
    } finally {
      listener.child.kill('SIGKILL')
    }
  })

  it('with --subscription uses that subscription and leaves it Active when it stops', async () => {
    const created = await runCommand(['webhooks', 'create', '--url', 'http://127.0.0.1:9/elsewhere', '--events', 'OrderCreated', '--json'], { env: ctx.env })
    expect(created.code, created.stderr).toBe(0)
    const { id, secret } = JSON.parse(created.stdout)
    const listener = await startListener(['--subscription', id, '--secret', secret])
    try {
      expect(listener.subscriptionId).toBeUndefined()
      expect(listener.stderr()).toContain(`Using subscription ${id}`)
      const body = JSON.stringify({ webhookEventType: 'OrderCreated', event: { orderId: 'ordr_handmade' } })
      const t = Math.floor(Date.now() / 1000)
      const answer = await fetch(`http://127.0.0.1:${listener.port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-signature': `t=${t},v1=${signWebhookPayload(secret, t, body)}` },
        body,
      })
      expect(answer.status).toBe(200)
      await until('the hand-made line', () =>
        listener
          .stdout()
          .split('\n')
          .find((l) => l.includes('ordr_handmade') && l.includes('signature ok')),
      )
      listener.child.kill('SIGINT')
      expect((await listener.exit).code).toBe(0)
      expect(subscriptionOf(id)?.status).toBe('Active')
    } finally {
      listener.child.kill('SIGKILL')
    }
  })

  it('refuses a --forward-to that is not an http URL before anything is sent (exit 2)', async () => {
    const result = await runCommand(['webhooks', 'listen', '--forward-to', 'localhost:3000'], { env: ctx.env })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--forward-to must be an http:// or https:// URL (got "localhost:3000")')
    const relative = await runCommand(['webhooks', 'listen', '--forward-to', '/hook'], { env: ctx.env })
    expect(relative.code).toBe(2)
    expect(relative.stderr).toContain('--forward-to must be an absolute URL')
    expect(ctx.emulator.app.store.webhookSubscriptions.all().filter((s) => s.description === 'payfac webhooks listen' && s.status === 'Active')).toEqual([])
  })
})

describe('webhooks verify', () => {
  const secret = 'whsec_verifyTestSecret'
  const body = '{"webhookEventType":"TransactionPaid","event":{"transactionId":"tran_1"}}'

  it('exits 0 for a valid signature of the raw body, and prints the check', async () => {
    const header = webhookSignatureHeader(secret, body)
    const result = await spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', header], { input: body })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/Valid\s+yes/)
    const asJson = await spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', header, '--json'], { input: body })
    expect(JSON.parse(asJson.stdout)).toMatchObject({ valid: true, timestamp: Number(/t=(\d+)/.exec(header)?.[1]), bodyBytes: body.length })
  })

  it('exits 6 for a tampered body', async () => {
    const header = webhookSignatureHeader(secret, body)
    const result = await spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', header], { input: body.replace('tran_1', 'tran_2') })
    expect(result.code).toBe(6)
    expect(result.stderr).toContain('Signature refused: wrong signature')
  })

  it('exits 6 for a timestamp older than the tolerance, and 0 with a wider tolerance', async () => {
    const header = webhookSignatureHeader(secret, body, Math.floor(Date.now() / 1000) - 3600)
    const result = await spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', header], { input: body })
    expect(result.code).toBe(6)
    expect(result.stderr).toMatch(/the timestamp is (59m 5\ds|1h 00m) old, outside the tolerance of 5m 00s/)
    const wider = await spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', header, '--timestamp-tolerance', '2h'], { input: body })
    expect(wider.code, wider.stderr).toBe(0)
  })

  it('exits 6 for a header of the wrong format, and 2 for a bad tolerance', async () => {
    const result = await spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', 'sha256=abc', '--json'], { input: body })
    expect(result.code).toBe(6)
    expect(result.stdout).toBe('')
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 6, message: expect.stringContaining('bad format') })
    const tolerance = await spawnCli(['webhooks', 'verify', '--secret', secret, '--signature', 't=1,v1=00', '--timestamp-tolerance', 'forever'], {
      input: body,
    })
    expect(tolerance.code).toBe(2)
  })
})
