// The PayTo flows against the emulator: `payto agree/status --poll` reaching each outcome of the
// emulator's test values, `payto pay` (resumable, at most once: re-runs, a dropped answer,
// processes killed after each step, changed inputs, --restart, the production guard of
// --approve) and `payto save`.
//
// Needs the compiled dist and the manifest: `npx tsc -p tsconfig.json && npx oclif manifest`.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { journalPath, type PayToPayRun } from '../../src/config/journal.js'
import { actingForOf, serviceIdentity } from '../../src/config/operations.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { runCommand } from '../helpers/run-command.js'
import { BIN } from '../helpers/spawn-cli.js'

let ctx: EmulatorEnv
const payfac = (...argv: string[]) => runCommand(argv, { env: ctx.env })
const json = async (...argv: string[]) => {
  const result = await payfac(...argv, '--json')
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout)
}

beforeAll(async () => {
  ctx = await startEmulatorEnv()
})
afterAll(async () => ctx.close())
afterEach(async () => {
  await control('DELETE', '/faults')
})

/** A call to the emulator's control plane (docs/emulator.md, "For integrators"). */
async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${ctx.emulator.url}/__emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return response.json()
}

const fault = (method: string, pathPattern: string, what: string) => control('POST', '/faults', { method, pathPattern, fault: what })
/** The emulator's request log (each request logged as it arrives, before an injected latency). */
const requestLog = () => ctx.emulator.app.namespaces.root.requests
/** Resolves once a request logged after `since` matches: each look follows the next 10 ms tick, and only the test's time limit ends the wait. */
async function requestSeen(since: number, matches: (r: { method: string; url: string; fault: string | null }) => boolean): Promise<void> {
  for (;;) {
    const log = requestLog()
    for (let seq = Math.max(since + 1, log.oldestSeq); seq <= log.latestSeq; seq++) {
      const entry = log.bySeq(seq)
      if (entry && matches(entry)) return
    }
    await sleep(10)
  }
}

/** What the emulator holds for a run: agreements by customer name, orders by reference, their transactions. */
function held(name: string, reference: string) {
  const store = ctx.emulator.app.store
  const agreements = store.agreements.all().filter((a) => a.customerName === name)
  const orders = store.orders.all().filter((o) => o.referenceOrderId === reference)
  const transactions = store.transactions.all().filter((t) => orders.some((o) => o.orderId === t.orderId))
  const paid = transactions.filter((t) => t.details.purchaseDetails.status === 'paid')
  return { agreements: agreements.length, orders: orders.length, transactions: transactions.length, paid: paid.length, orderRecords: orders }
}

/** Moves the time of every lock folder under `root` a minute back: as if its holder died long ago. */
function ageLocks(root: string): void {
  const old = new Date(Date.now() - 60_000)
  for (const entry of readdirSync(root, { recursive: true }) as string[]) {
    if (entry.endsWith('.lock')) utimesSync(join(root, entry), old, old)
  }
}

function journalOf(reference: string): string {
  const identity = serviceIdentity(ctx.emulator.url, actingForOf({}, ctx.env.PAYFAC_API_KEY as string, `merchant:${ctx.emulator.ids.merchantId}`))
  return journalPath(ctx.env.PAYFAC_CONFIG_DIR as string, `svc-${identity.id}`, reference)
}

function readJournal(reference: string): PayToPayRun | undefined {
  const file = journalOf(reference)
  if (!existsSync(file)) return undefined
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PayToPayRun
  } catch {
    return undefined
  }
}

const payArgs = (name: string, reference: string, extra: string[] = []) => [
  'payto',
  'pay',
  '--name',
  name,
  '--bban',
  '062-000 12345678',
  '--amount',
  '12.50',
  '--currency',
  'AUD',
  '--reference',
  reference,
  '--approve',
  '--interval',
  '100ms',
  ...extra,
]

describe('payto agree --poll and payto status --poll', () => {
  it('waits until the customer approves, then prints the Active agreement (exit 0)', async () => {
    const result = await payfac(
      'payto',
      'agree',
      '--name',
      'Poll Active',
      '--bban',
      '062-000 12345678',
      '--amount',
      '12.50',
      '--currency',
      'AUD',
      '--poll',
      '--interval',
      '100ms',
      '--json',
    )
    expect(result.code, result.stderr).toBe(0)
    const agreement = JSON.parse(result.stdout)
    expect(agreement).toMatchObject({ token: expect.stringMatching(/^ptagr_/), status: 'Active', customerName: 'Poll Active' })
    // Piped stderr: one line per change of status, not a spinner.
    expect(result.stderr).toContain(`Waiting for agreement ${agreement.token}: Pending`)
    expect(result.stderr).toContain(`Waiting for agreement ${agreement.token}: Active`)
    expect(result.stderr).not.toContain('\u001b[')

    const table = await payfac('payto', 'status', agreement.token, '--poll', '--interval', '100ms')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Status\s+Active/)
    expect(table.stdout).toContain('12.50 AUD')
  })

  it('exits 6 when the customer declines (test account 11111111)', async () => {
    const result = await payfac(
      'payto',
      'agree',
      '--name',
      'Poll Declined',
      '--bban',
      '062-000 11111111',
      '--amount',
      '5',
      '--currency',
      'AUD',
      '--poll',
      '--interval',
      '100ms',
    )
    expect(result.code, result.stderr).toBe(6)
    expect(result.stderr).toMatch(/Agreement ptagr_\S+ is Declined: the customer declined it/)
    expect(result.stdout).toBe('')
  })

  it.each(['Cancelled', 'Suspended', 'Expired'])('exits 6 when the agreement is %s', async (status) => {
    const sent = await json('payto', 'agree', '--name', `Poll ${status}`, '--bban', '062-000 12345678', '--open')
    await json('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token: sent.token, status }))
    const result = await payfac('payto', 'status', sent.token, '--poll', '--interval', '100ms', '--json')
    expect(result.code).toBe(6)
    expect(result.stdout).toBe('')
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1) as string).error).toMatchObject({
      code: 6,
      type: 'RefusedError',
      message: expect.stringContaining(`is ${status}`),
    })
  })

  it('exits 8 when the customer never answers (test account 22222222), naming the command that resumes', async () => {
    const started = Date.now()
    const result = await payfac(
      'payto',
      'agree',
      '--name',
      'Poll Never',
      '--bban',
      '062-000 22222222',
      '--amount',
      '5',
      '--currency',
      'AUD',
      '--poll',
      '--interval',
      '100ms',
      '--timeout',
      '1s',
    )
    expect(result.code, result.stderr).toBe(8)
    expect(Date.now() - started).toBeLessThan(5000)
    const token = /Agreement (ptagr_\S+) is still Pending after 1s/.exec(result.stderr)?.[1]
    expect(token, result.stderr).toBeDefined()
    expect(result.stderr).toContain(`Resume with: payfac payto status ${token} --poll`)

    const again = await payfac('payto', 'status', token as string, '--poll', '--interval', '100ms', '--timeout', '300ms', '--json')
    expect(again.code).toBe(8)
    expect(again.stdout).toBe('')
    expect(JSON.parse(again.stderr.trim().split('\n').at(-1) as string).error).toMatchObject({
      code: 8,
      type: 'WaitTimeoutError',
      resume: `payfac payto status ${token} --poll`,
    })
  })

  it('follows the emulator clock: a slow approval becomes Active when the clock is advanced', async () => {
    const sent = await json('payto', 'agree', '--name', 'Slow Approval Test', '--bban', '062-000 12345678', '--amount', '5', '--currency', 'AUD')
    const since = requestLog().latestSeq
    const polling = payfac('payto', 'status', sent.token, '--poll', '--interval', '100ms', '--timeout', '20s', '--json')
    // Once the first poll has found it pending.
    await requestSeen(since, (r) => r.method === 'GET' && r.url.includes(sent.token))
    await control('POST', '/clock', { seconds: 31 })
    const result = await polling
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ token: sent.token, status: 'Active' })
    expect(result.stderr).toContain('Pending')
  })

  it('refuses a bad --interval before anything is sent (exit 2)', async () => {
    const server = await startRecordingServer()
    try {
      const result = await runCommand(['payto', 'status', 'ptagr_xxxxxxxxxxxxxxxx', '--poll', '--interval', 'soon'], {
        env: { ...ctx.env, PAYFAC_BASE_URL: server.url },
      })
      expect(result.code).toBe(2)
      expect(result.stderr).toContain('--interval takes a duration')
      expect(server.requests).toHaveLength(0)
    } finally {
      await server.close()
    }
  })
})

describe('payto pay', () => {
  it('takes the payment from agreement to paid transaction; running it again is exit 6 naming the transaction, nothing sent', async () => {
    const first = await payfac(...payArgs('Pay Once', 'flow-once', ['--json']))
    expect(first.code, first.stderr).toBe(0)
    const transaction = JSON.parse(first.stdout)
    expect(transaction.purchaseDetails).toMatchObject({ status: 'paid', referenceOrderId: 'flow-once', amount: { minorCurrencyUnits: 1250, currency: 'AUD' } })
    expect(transaction.paymentMethod).toMatchObject({ paymentMethodType: 'PayTo', paymentStatus: 'Settled' })
    for (const step of ['[1/5] Agreement ptagr_', 'Approved', '[2/5]', '[3/5] Payment token ptkn_', '[4/5] Order ordr_', '[5/5] Paid: transaction tran_']) {
      expect(first.stderr).toContain(step)
    }
    const journal = readJournal('flow-once')
    expect(journal).toMatchObject({ reference: 'flow-once', payment: { state: 'paid', transactionId: transaction.purchaseDetails.transactionId } })

    const again = await payfac(...payArgs('Pay Once', 'flow-once'))
    expect(again.code, again.stderr).toBe(6)
    expect(again.stderr).toContain(`An identical payto pay of reference flow-once was already made: transaction ${transaction.purchaseDetails.transactionId}`)
    expect(again.stderr).toContain('nothing was sent')
    expect(again.stdout).toBe('')
    expect(held('Pay Once', 'flow-once')).toMatchObject({ agreements: 1, orders: 1, transactions: 1, paid: 1 })
  })

  it('after a pay whose answer was lost (drop-after-commit) exits 7 "outcome unknown"; the re-run finds the payment and pays nothing more', async () => {
    await fault('POST', '/orders/*/pay', 'drop-after-commit')
    const first = await payfac(...payArgs('Pay Dropped', 'flow-dropped'))
    expect(first.code, first.stderr).toBe(7)
    expect(first.stderr).toMatch(/Pay outcome unknown/)
    expect(readJournal('flow-dropped')?.payment).toMatchObject({ state: 'unknown' })
    await control('DELETE', '/faults')

    const again = await payfac(...payArgs('Pay Dropped', 'flow-dropped', ['--json']))
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).purchaseDetails).toMatchObject({ status: 'paid', referenceOrderId: 'flow-dropped' })
    expect(again.stderr).not.toContain('[4/5]')
    expect(held('Pay Dropped', 'flow-dropped')).toMatchObject({ agreements: 1, orders: 1, transactions: 1, paid: 1 })
  })

  // Each case: the step after the one named is made slow (its request is applied, the answer held
  // back), the process is killed with SIGKILL once the journal shows the step, and a re-run
  // finishes the payment.
  const steps: Array<{ step: string; shows: (run: PayToPayRun) => boolean; slow: [string, string]; resumed: RegExp }> = [
    { step: 'agreement', shows: (run) => Boolean(run.agreement?.token), slow: ['POST', '/tokens'], resumed: /Agreement ptagr_\S+ \(sent by an earlier run\)/ },
    // The order is created while the process dies waiting for the answer: the re-run finds it.
    {
      step: 'payment token',
      shows: (run) => Boolean(run.paymentToken),
      slow: ['POST', '/orders'],
      resumed: /Order ordr_\S+ \(created by an earlier run whose answer was lost\)/,
    },
    // The order is paid while the process dies waiting for the answer: the re-run finds the payment.
    { step: 'order', shows: (run) => Boolean(run.order?.orderId), slow: ['POST', '/orders/*/pay'], resumed: /^(?![\s\S]*\[3\/5\])[\s\S]*\[5\/5\] Paid/ },
    // Killed after the payment was journaled: the payment was made, so the re-run names it (exit 6).
    {
      step: 'payment',
      shows: (run) => run.payment?.state === 'paid',
      slow: ['GET', '/transactions/*'],
      resumed: /was already made: transaction tran_\S+ \(paid\); nothing was sent/,
    },
  ]
  it.each(steps)(
    'killed after the $step step, a re-run completes with one agreement, one order and one payment',
    async ({ step, shows, slow, resumed }) => {
      const reference = `flow-killed-${step.replace(/\W+/g, '-')}`
      const name = `Killed ${step}`
      await fault(slow[0], slow[1], 'latency=15000')
      const since = requestLog().latestSeq
      const child = spawn(process.execPath, [BIN, ...payArgs(name, reference)], { env: definedEnv(ctx.env), stdio: ['ignore', 'pipe', 'pipe'] })
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)))
      // Killed inside the slowed request, once the journal shows the step.
      await requestSeen(since, (r) => r.fault?.includes('latency') === true)
      expect(shows(readJournal(reference) ?? ({} as PayToPayRun))).toBe(true)
      child.kill('SIGKILL')
      expect(await exited).toBe('SIGKILL')
      await control('DELETE', '/faults')
      // The killed run's lock is left behind; it is taken over once its time is LOCK_STALE_MS old.
      // Instead of waiting that long, its time is moved back.
      ageLocks(join(ctx.env.PAYFAC_CONFIG_DIR as string, 'operations'))

      const again = await payfac(...payArgs(name, reference, ['--json']))
      expect(again.stderr).toMatch(resumed)
      if (step === 'payment') expect(again.code, again.stderr).toBe(6)
      else {
        expect(again.code, again.stderr).toBe(0)
        expect(JSON.parse(again.stdout).purchaseDetails).toMatchObject({ status: 'paid', referenceOrderId: reference })
      }
      expect(held(name, reference)).toMatchObject({ agreements: 1, orders: 1, transactions: 1, paid: 1 })
      const third = await payfac(...payArgs(name, reference))
      expect(third.code).toBe(6)
      expect(held(name, reference)).toMatchObject({ agreements: 1, orders: 1, transactions: 1, paid: 1 })
    },
    40_000,
  )

  it('refuses other inputs for the same reference (exit 2), sending nothing', async () => {
    const first = await payfac(...payArgs('Pay Inputs', 'flow-inputs'))
    expect(first.code, first.stderr).toBe(0)
    const before = ctx.emulator.app.store.events.length
    const other = await payfac(
      'payto',
      'pay',
      '--name',
      'Pay Inputs',
      '--bban',
      '062-000 12345678',
      '--amount',
      '13.00',
      '--currency',
      'AUD',
      '--reference',
      'flow-inputs',
      '--approve',
    )
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(/Run "flow-inputs" was started with another amount.*--restart/)
    const account = await payfac(
      'payto',
      'pay',
      '--name',
      'Pay Inputs',
      '--phone',
      '+61412345678',
      '--amount',
      '12.50',
      '--currency',
      'AUD',
      '--reference',
      'flow-inputs',
    )
    expect(account.code).toBe(2)
    expect(account.stderr).toContain('another account')
    expect(ctx.emulator.app.store.events.length).toBe(before)
    expect(held('Pay Inputs', 'flow-inputs')).toMatchObject({ agreements: 1, orders: 1, paid: 1 })
  })

  it('--restart starts over with a new agreement and order, cancelling the unpaid one; refused once paid', async () => {
    // Test account 55555555: the agreement is approved but the payment is declined (exit 6).
    const declined = await payfac(
      'payto',
      'pay',
      '--name',
      'Pay Restart',
      '--bban',
      '062-000 55555555',
      '--amount',
      '20',
      '--currency',
      'AUD',
      '--reference',
      'flow-restart',
      '--approve',
      '--interval',
      '100ms',
    )
    expect(declined.code, declined.stderr).toBe(6)
    expect(declined.stderr).toContain('insufficient_funds')
    const oldOrderId = readJournal('flow-restart')?.order?.orderId
    expect(oldOrderId).toMatch(/^ordr_/)

    const restarted = await payfac(
      'payto',
      'pay',
      '--name',
      'Pay Restart',
      '--bban',
      '062-000 12345678',
      '--amount',
      '20',
      '--currency',
      'AUD',
      '--reference',
      'flow-restart',
      '--approve',
      '--interval',
      '100ms',
      '--restart',
      '--json',
    )
    expect(restarted.code, restarted.stderr).toBe(0)
    expect(restarted.stderr).toContain(`cancelled order ${oldOrderId}`)
    const transaction = JSON.parse(restarted.stdout)
    expect(transaction.purchaseDetails.orderId).not.toBe(oldOrderId)
    const after = held('Pay Restart', 'flow-restart')
    expect(after).toMatchObject({ agreements: 2, orders: 2, paid: 1 })
    expect(after.orderRecords.find((o) => o.orderId === oldOrderId)?.status).toBe('cancelled')
    expect(readJournal('flow-restart')?.previousRuns).toEqual([expect.objectContaining({ orderId: oldOrderId })])

    const again = await payfac(
      'payto',
      'pay',
      '--name',
      'Pay Restart',
      '--bban',
      '062-000 12345678',
      '--amount',
      '20',
      '--currency',
      'AUD',
      '--reference',
      'flow-restart',
      '--approve',
      '--restart',
    )
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/already paid order ordr_\S+ \(transaction tran_\S+\); --restart would take a second payment/)
    expect(held('Pay Restart', 'flow-restart')).toMatchObject({ agreements: 2, orders: 2, paid: 1 })
  })

  it('exits 8 while the agreement is pending, naming the same command to resume; the resumed run sends no second agreement', async () => {
    const args = [
      'payto',
      'pay',
      '--name',
      'Pay Pending',
      '--bban',
      '062-000 66666666',
      '--amount',
      '7',
      '--currency',
      'AUD',
      '--reference',
      'flow-pending',
      '--interval',
      '100ms',
      '--timeout',
      '500ms',
    ]
    const first = await payfac(...args)
    expect(first.code, first.stderr).toBe(8)
    expect(first.stderr).toContain('Resume with: payfac payto pay --name')
    expect(first.stderr).toContain('--reference flow-pending')
    await control('POST', '/clock', { seconds: 31 })
    const again = await payfac(...args.slice(0, -2), '--timeout', '10s')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('(sent by an earlier run)')
    expect(held('Pay Pending', 'flow-pending')).toMatchObject({ agreements: 1, orders: 1, paid: 1 })
  })

  it('refuses --approve on a production profile before anything is sent (exit 3)', async () => {
    const server = await startRecordingServer()
    try {
      const env = { ...ctx.env, PAYFAC_BASE_URL: server.url, PAYFAC_API_KEY: 'live_sk_productionSecretKey0001' }
      const result = await runCommand([...payArgs('Pay Production', 'flow-production'), '--yes'], { env })
      expect(result.code, result.stderr).toBe(3)
      expect(result.stderr).toContain('--approve')
      expect(result.stderr).toContain('production')
      expect(server.requests).toHaveLength(0)
    } finally {
      await server.close()
    }
  })

  it('refuses missing or bad input before anything is sent (exit 2)', async () => {
    const server = await startRecordingServer()
    try {
      const env = { ...ctx.env, PAYFAC_BASE_URL: server.url }
      const cases = [
        ['payto', 'pay', '--name', 'X', '--bban', '062-000 12345678', '--amount', '1', '--currency', 'AUD'],
        ['payto', 'pay', '--name', 'X', '--bban', '062', '--amount', '1', '--currency', 'AUD', '--reference', 'r'],
        ['payto', 'pay', '--name', 'X', '--bban', '062-000 12345678', '--amount', '1.005', '--currency', 'AUD', '--reference', 'r'],
        ['payto', 'pay', '--name', 'X', '--amount', '1', '--currency', 'AUD', '--reference', 'r'],
        ['payto', 'pay', '--name', 'X', '--bban', '062-000 12345678', '--amount', '1', '--currency', 'AUD', '--reference', ' '],
      ]
      for (const argv of cases) {
        const result = await runCommand(argv, { env })
        expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(2)
      }
      expect(server.requests).toHaveLength(0)
    } finally {
      await server.close()
    }
  })
})

describe('payto save', () => {
  it("sends an open agreement, waits until Active and saves it as the customer's payment source", async () => {
    const customer = await json('customers', 'upsert', '--email', 'save-flow@example.com', '--given-name', 'Sam')
    const result = await payfac(
      'payto',
      'save',
      '--name',
      'Save Flow',
      '--phone',
      '+61412345678',
      '--purpose',
      'Subscription',
      '--customer',
      customer.customerId,
      '--approve',
      '--interval',
      '100ms',
      '--json',
    )
    expect(result.code, result.stderr).toBe(0)
    const source = JSON.parse(result.stdout)
    expect(source).toMatchObject({
      paymentSourceId: expect.stringMatching(/^psrc_/),
      customerId: customer.customerId,
      sourceMethod: { PayToMethodResp: { accountIdentifierHint: '+61******678' } },
    })
    expect(result.stderr).toMatch(/\[1\/3\] Open agreement ptagr_\S+ sent/)
    expect(result.stderr).toContain(`[3/3] Saved as payment source ${source.paymentSourceId}`)

    const agreement = await json('payto', 'agree', '--name', 'Save Later', '--bban', '062-000 12345678', '--open')
    const table = await payfac('payto', 'save', '--agreement', agreement.token, '--customer', customer.customerId, '--interval', '100ms')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Source\s+psrc_/)
    expect(table.stdout).toContain('PayTo')
  })

  it('names the command that carries on with the same agreement when the wait runs out (exit 8)', async () => {
    const customer = await json('customers', 'upsert', '--email', 'save-later@example.com')
    const result = await payfac(
      'payto',
      'save',
      '--name',
      'No Answer Test',
      '--bban',
      '062-000 12345678',
      '--customer',
      customer.customerId,
      '--interval',
      '100ms',
      '--timeout',
      '300ms',
    )
    expect(result.code).toBe(8)
    expect(result.stderr).toMatch(new RegExp(`Resume with: payfac payto save --agreement ptagr_\\S+ --customer ${customer.customerId}`))
  })

  it('refuses --approve on production and a save without an agreement, before anything is sent', async () => {
    const server = await startRecordingServer()
    try {
      const production = await runCommand(['payto', 'save', '--name', 'X', '--phone', '+61412345678', '--customer', 'cust_xxxxxxxxxxxxxxxx', '--approve'], {
        env: { ...ctx.env, PAYFAC_BASE_URL: server.url, PAYFAC_API_KEY: 'live_sk_productionSecretKey0001' },
      })
      expect(production.code).toBe(3)
      const nothing = await runCommand(['payto', 'save', '--customer', 'cust_xxxxxxxxxxxxxxxx'], { env: { ...ctx.env, PAYFAC_BASE_URL: server.url } })
      expect(nothing.code).toBe(2)
      const both = await runCommand(['payto', 'save', '--agreement', 'ptagr_xxxxxxxxxxxxxxxx', '--name', 'X', '--customer', 'cust_xxxxxxxxxxxxxxxx'], {
        env: { ...ctx.env, PAYFAC_BASE_URL: server.url },
      })
      expect(both.code).toBe(2)
      expect(server.requests).toHaveLength(0)
    } finally {
      await server.close()
    }
  })
})

/** The process environment with the test's variables set, and those it leaves out removed. */
function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined && !(key in env && env[key] === undefined)) out[key] = value
  return out
}
