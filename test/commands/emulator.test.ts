// The `payfac emulator …` control commands against an emulator on port 0: reset, state, clock,
// requests, deliveries (with --follow), replay and trigger.
import { describe, expect, it } from 'vitest'

import { itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'
import { activeAgreement } from '../helpers/flows.js'
import { runCommand } from '../helpers/run-command.js'

const { ctx, payfac, json } = useEmulator()
const { server: receiver } = useRecordingServer(() => ({ status: 200, body: { ok: true } }))
const createOrder = (reference: string, ...extra: string[]) =>
  json('orders', 'create', '--amount', '5.00', '--currency', 'AUD', '--reference', reference, ...extra)

describe('payfac emulator control commands', () => {
  it('clock shows emulator time and --advance moves it', async () => {
    const before = await json('emulator', 'clock')
    const after = await json('emulator', 'clock', '--advance', '90s')
    expect(after.advancedBySeconds).toBe(90)
    expect(after.offsetMs - before.offsetMs).toBe(90_000)
    const table = await payfac('emulator', 'clock')
    expect(table.code).toBe(0)
    expect(table.stdout).toContain('now')
    const bad = await payfac('emulator', 'clock', '--advance', 'soon')
    expect(bad.code).toBe(2)
  })

  it('requests lists the last requests, credentials masked; state dumps the store; reset empties it', async () => {
    const order = await createOrder('cmd-state')
    const requests = await json('emulator', 'requests', '--limit', '5')
    expect(requests.at(-1)).toMatchObject({ method: 'POST', url: '/orders', status: 200 })
    expect(JSON.stringify(requests)).not.toContain('sandbox_sk_emulatorMerchantSecret0001')
    const table = await payfac('emulator', 'requests', '--limit', '3')
    expect(table.stdout).toContain('/orders')

    const state = await json('emulator', 'state')
    expect(state.store.orders[order.orderId]).toMatchObject({ referenceOrderId: 'cmd-state' })
    const orders = await json('emulator', 'state', '--collection', 'orders')
    expect(Object.keys(orders.orders)).toContain(order.orderId)

    expect(await json('emulator', 'reset')).toMatchObject({ namespace: 'default', reset: true })
    expect((await json('emulator', 'state', '--collection', 'orders')).orders).toEqual({})
  })

  it('work on one namespace with --namespace', async () => {
    await json('emulator', 'reset', '--namespace', 'cmd-ns')
    await json('emulator', 'clock', '--advance', '1h', '--namespace', 'cmd-ns')
    const ns = await json('emulator', 'clock', '--namespace', 'cmd-ns')
    const plain = await json('emulator', 'clock')
    expect(ns.namespace).toBe('cmd-ns')
    expect(ns.offsetMs - plain.offsetMs).not.toBe(0)
    expect((await payfac('emulator', 'reset', '--namespace', 'bad name')).code).toBe(2)
  })

  it('deliveries lists attempts, replay sends one again, trigger sends a synthetic event', async () => {
    const created = await payfac(
      'api',
      'POST',
      '/webhooks',
      '--data',
      JSON.stringify({ CreateWebhookMerchantSubscription: { url: `${receiver.url}/cmd`, events: ['OrderCreated', 'PayoutPaid'] } }),
    )
    expect(created.code, created.stderr).toBe(0)
    await createOrder('cmd-hook')
    const deadline = Date.now() + 2000
    let attempts: any[] = []
    while (attempts.length === 0 && Date.now() < deadline) attempts = await json('emulator', 'deliveries', '--event', 'OrderCreated')
    expect(attempts[0]).toMatchObject({ webhookEventType: 'OrderCreated', status: 200, outcome: 'delivered', attempt: 1 })

    const table = await payfac('emulator', 'deliveries')
    expect(table.stdout).toContain('OrderCreated')

    const replayed = await json('emulator', 'replay', attempts[0].deliveryId)
    expect(replayed).toMatchObject({ replayOf: attempts[0].deliveryId })
    expect((await payfac('emulator', 'replay', 'dlv_AAAAAAAAAAAAAAAA')).code).toBe(5)
    expect((await payfac('emulator', 'replay', 'not-a-delivery')).code).toBe(2)

    const triggered = await json('emulator', 'trigger', 'PayoutPaid', '--data', '{"payout":{"payoutId":"payout_test"}}')
    expect(triggered.deliveries).toHaveLength(1)
    expect(triggered.event).toMatchObject({ webhookEventType: 'PayoutPaid', event: { payout: { payoutId: 'payout_test' } } })
    expect((await payfac('emulator', 'trigger', 'not-an-event')).code).toBe(2)
  })

  it('deliveries --follow prints attempts as they happen, as NDJSON with --json, and stops on Ctrl-C', async () => {
    // Ctrl-C once the attempt of the event triggered below has been printed (an event, not a time).
    let printed = ''
    let sawIt: () => void = () => undefined
    const seen = new Promise<void>((resolve) => (sawIt = resolve))
    const onStdout = (chunk: string) => {
      printed += chunk
      const attempts = printed
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as { webhookEventType?: string; requestBody?: string })
      if (attempts.some((a) => a.webhookEventType === 'PayoutPaid' && a.requestBody?.includes('"n":2'))) sawIt()
    }
    const following = runCommand(['emulator', 'deliveries', '--follow', '--json', '--event', 'PayoutPaid'], { env: ctx.env, onStdout })
    await fetch(`${ctx.emulator.url}/__emulator/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventType: 'PayoutPaid', data: { n: 2 } }),
    })
    await seen
    process.emit('SIGINT')
    const result = await following
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.length).toBeGreaterThanOrEqual(2)
    expect(lines.every((a) => a.webhookEventType === 'PayoutPaid')).toBe(true)
    expect(lines.at(-1).requestBody).toContain('"n":2')

    const counted = await payfac('emulator', 'deliveries', '--follow', '--count', '1')
    expect(counted.code).toBe(0)
    expect(counted.stdout.trim().split('\n')).toHaveLength(1)
    expect(counted.stdout).toMatch(/dlv_\S+ #1 {2}\w+ {2}200/)
  })
})

describe('payfac emulator faults', () => {
  it('adds a standing rule that a command then meets, lists it, and clears it', async () => {
    expect(await json('emulator', 'faults')).toEqual([])
    const rule = await json('emulator', 'faults', '--add', 'drop-after-commit', '--method', 'POST', '--path', '/orders/*/pay')
    expect(rule).toMatchObject({ method: 'POST', pathPattern: '/orders/*/pay', probability: 1, fault: 'drop-after-commit' })
    const table = await payfac('emulator', 'faults')
    expect(table.stdout).toContain('drop-after-commit')

    const agreement = await activeAgreement(json, { oneOff: 500 })
    const token = await json('tokens', 'create', '--payto', '--agreement', agreement, '--amount', '5.00', '--currency', 'AUD')
    const order = await json('orders', 'create', '--amount', '5.00', '--currency', 'AUD', '--reference', 'faulted-1')
    const paid = await payfac('orders', 'pay', order.orderId, '--token', token.paymentTokenId)
    expect(paid.code).toBe(7)
    expect(paid.stderr).toMatch(/Outcome unknown: payment of order .* may or may not have happened/)
    // The payment was applied before the connection dropped.
    expect((await json('transactions', 'list', '--order-id', order.orderId)).length).toBe(1)

    expect(await json('emulator', 'faults', '--clear')).toMatchObject({ cleared: 1 })
    expect(await json('emulator', 'faults')).toEqual([])
  })
})

describe('payfac emulator faults refuses before sending', () => {
  itRefusesBeforeSending(
    [
      ['a fault it does not know', ['emulator', 'faults', '--add', '418', '--path', '/orders'], /--add takes a fault/],
      ['a probability over 1', ['emulator', 'faults', '--add', '503', '--path', '/orders', '--probability', '2'], /--probability takes a number from 0 to 1/],
      ['a rule without a path', ['emulator', 'faults', '--add', '503'], /path/],
    ],
    useRecordingServer(),
  )
})
