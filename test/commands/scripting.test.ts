// What a script can trust (issue 19): ids are opaque past their prefix, stdout never carries an
// error, a money command's JSON names what it made, a query that selects nothing says `null`,
// and the precedence notice speaks only to a person at a terminal (or with --debug).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { parseFixtures } from '../../src/emulator/fixtures.js'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js'
import { useEmulator } from '../helpers/command-harness.js'
import { commandEnv } from '../helpers/emulator-env.js'
import { paidByPayTo } from '../helpers/flows.js'
import { runCommand } from '../helpers/run-command.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const LONG_CUSTOMER = 'cust_ACustomerIdLongerThanAnyToday01'
const SUB_MERCHANT = 'mcht_LocalSubMerch001'
const MERCHANT = 'mcht_LocalMerchant001'

/** Runs `fn` with process.stderr taken for a terminal. */
async function withStderrTerminal<T>(fn: () => Promise<T>): Promise<T> {
  const had = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY')
  Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true })
  try {
    return await fn()
  } finally {
    if (had) Object.defineProperty(process.stderr, 'isTTY', had)
    else delete (process.stderr as { isTTY?: boolean }).isTTY
  }
}

describe('ids are checked by their prefix, never their length', () => {
  let emulator: RunningEmulator
  let configDir: string
  let env: Record<string, string | undefined>
  beforeAll(async () => {
    const fixtures = parseFixtures({ customers: [{ customerId: LONG_CUSTOMER, emailAddress: 'long-id@example.com', givenName: 'Long', familyName: 'Id' }] })
    emulator = await startEmulator({ port: 0, integrators: { fixtures } })
    configDir = mkdtempSync(join(tmpdir(), 'payfac-ids-'))
    env = commandEnv(configDir, emulator.url, emulator.credentials.merchantSecretKey)
  })
  afterAll(async () => {
    await emulator.close()
    rmSync(configDir, { recursive: true, force: true })
  })

  it("uses an id longer than today's ids that the service knows, as an argument and as a flag", async () => {
    const got = await runCommand(['customers', 'get', LONG_CUSTOMER, '--query', 'customerId'], { env })
    expect(got.code, got.stderr).toBe(0)
    expect(got.stdout).toBe(`${LONG_CUSTOMER}\n`)
    const listed = await runCommand(['orders', 'list', '--customer-id', LONG_CUSTOMER, '--json'], { env })
    expect(listed.code, listed.stderr).toBe(0)
    expect(JSON.parse(listed.stdout)).toEqual([])
  })

  it.each([
    ['a longer order id', ['orders', 'get', 'ordr_NoSuchOrderWithALongerId01']],
    ['a shorter order id', ['orders', 'get', 'ordr_x']],
    ['a longer transaction id to refund', ['transactions', 'refund', 'tran_NoSuchTransactionWithALongId', '--amount', '1.00']],
    ['a longer agreement token', ['payto', 'status', 'ptagr_NoSuchAgreementWithALongerToken']],
  ])('sends %s and lets the service say it does not know it (exit 5)', async (_name, argv) => {
    const result = await runCommand(argv, { env })
    expect(result.code, result.stderr).toBe(5)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/not found/i)
  })
})

describe('scripts on the emulator', () => {
  const { payfac, json, marketplace, ctx } = useEmulator()

  describe('stdout carries data only: an error goes to stderr, as JSON under --json and --query', () => {
    const cases: Array<[string, string[], number]> = [
      ['an order the service does not know', ['orders', 'get', 'ordr_NoSuchOrderWithALongerId01'], 5],
      ['a flag payfac does not know', ['orders', 'list', '--nope'], 2],
      ['a profile that does not exist', ['orders', 'list', '--profile', 'nosuch'], 3],
      ['a refund of more than was paid', [], 6],
    ]

    it.each(cases)('%s', async (_name, given, code) => {
      const argv = given.length > 0 ? given : ['transactions', 'refund', (await paidByPayTo(json, '3.00', 'too-much')).transactionId, '--amount', '9.00']
      for (const extra of [['--json'], ['--query', 'orderId'], []]) {
        const result = await payfac(...argv, ...extra)
        expect(result.code, `${extra.join(' ')}: ${result.stderr}`).toBe(code)
        expect(result.stdout).toBe('')
        if (extra.length === 0) {
          expect(result.stderr).toMatch(/^Error: /)
          continue
        }
        const lines = result.stderr.trimEnd().split('\n')
        expect(lines, result.stderr).toHaveLength(1)
        expect(JSON.parse(lines[0] as string).error).toMatchObject({ code })
      }
    })
  })

  it('an unknown command (answered by the entry point, so run as bin/run.js) is a JSON error line on stderr under --json', async () => {
    for (const extra of [['--json'], ['--query', 'orderId']]) {
      const result = await spawnCli(['orders', 'gett', 'ordr_AAAAAAAAAAAAAAAA', ...extra], { env: ctx.env })
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      const lines = result.stderr.trimEnd().split('\n')
      expect(lines, result.stderr).toHaveLength(1)
      expect(JSON.parse(lines[0] as string).error).toMatchObject({
        code: 2,
        type: 'UsageError',
        message: expect.stringContaining('Did you mean "payfac orders get"?'),
      })
    }
    const plain = await spawnCli(['orders', 'gett', 'ordr_AAAAAAAAAAAAAAAA'], { env: ctx.env })
    expect(plain.stderr).toMatch(/^Error: "orders gett ordr_A+" is not a payfac command\. Did you mean "payfac orders get"\?\nHint: /)
  })

  describe('a money command names what it made', () => {
    it('transactions refund: refundId first in --json, and the same id from --query refundId and -q', async () => {
      const { transactionId } = await paidByPayTo(json, '12.00', 'refund-id')
      const printed = await json('transactions', 'refund', transactionId, '--amount', '1.00')
      expect(Object.keys(printed)[0]).toBe('refundId')
      expect(printed.refundId).toMatch(/^rfnd_/)
      expect(printed.purchaseDetails.refundIds).toEqual([printed.refundId])
      expect(printed.purchaseDetails.transactionId).toBe(transactionId)

      const queried = await payfac('transactions', 'refund', transactionId, '--amount', '2.00', '--query', 'refundId', '--again')
      expect(queried.code, queried.stderr).toBe(0)
      const ids = await payfac('transactions', 'refund', transactionId, '--amount', '3.00', '-q')
      expect(ids.code, ids.stderr).toBe(0)
      const after = await json('transactions', 'get', transactionId)
      expect(after.purchaseDetails.refundIds).toEqual([printed.refundId, queried.stdout.trim(), ids.stdout.trim()])
    })

    it('transactions transfer: transferId first in --json, the one the timeline shows, and -q prints it', async () => {
      const { transactionId } = await paidByPayTo(json, '20.00', 'transfer-id')
      const transfer = (...more: string[]) => ['transactions', 'transfer', transactionId, '--to', SUB_MERCHANT, '--merchant-id', MERCHANT, ...more]
      const printed = await marketplace.json(...transfer('--amount', '2.00'))
      expect(Object.keys(printed)[0]).toBe('transferId')
      const entries = (printed.timelines as Array<{ eventType: string; identifier: string | null }>).filter((e) => e.eventType === 'FundsTransferred')
      expect(entries.map((e) => e.identifier)).toEqual([printed.transferId])

      const second = await marketplace.payfac(...transfer('--amount', '3.00', '-q'))
      expect(second.code, second.stderr).toBe(0)
      expect(second.stdout).toMatch(/^trf_[A-Za-z0-9_-]+\n$/)
      expect(second.stdout.trim()).not.toBe(printed.transferId)
      const after = await marketplace.json('transactions', 'get', transactionId, '--merchant-id', MERCHANT)
      expect(after.timelines.filter((e: { eventType: string }) => e.eventType === 'FundsTransferred').map((e: { identifier: string }) => e.identifier)).toEqual(
        [printed.transferId, second.stdout.trim()],
      )
    })

    it('payto pay: transactionId first in --json, where orders pay prints it', async () => {
      const argv = [
        'payto',
        'pay',
        '--name',
        'Jo Script',
        '--bban',
        '062-000 12345678',
        '--amount',
        '6.00',
        '--currency',
        'AUD',
        '--reference',
        'script-pay',
        '--approve',
        '--interval',
        '100ms',
      ]
      const paid = await payfac(...argv, '--query', 'transactionId')
      expect(paid.code, paid.stderr).toBe(0)
      expect(paid.stdout).toMatch(/^tran_[A-Za-z0-9_-]+\n$/)
      const got = await json('transactions', 'get', paid.stdout.trim())
      expect(got.purchaseDetails).toMatchObject({ status: 'paid', referenceOrderId: 'script-pay' })
    })

    it('a --query that selects nothing prints null and says so on stderr, exit 0', async () => {
      const { orderId } = await paidByPayTo(json, '4.00', 'query-null')
      const result = await payfac('orders', 'get', orderId, '--query', 'refundId')
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toBe('null\n')
      // One note: the field the order lacks, and that null was printed.
      expect(result.stderr).toMatch(/^Note: --query "refundId" names "refundId", which the record does not have .*; printed null\n$/)
      const empty = await payfac('orders', 'list', '--reference', 'no-such-reference-at-all', '--query', '[0].orderId')
      expect(empty.stdout).toBe('null\n')
      expect(empty.stderr).toBe('Note: --query "[0].orderId" selected nothing: printed null\n')
      const found = await payfac('orders', 'get', orderId, '--query', 'orderId')
      expect(found.stdout).toBe(`${orderId}\n`)
      expect(found.stderr).toBe('')
    })
  })

  describe('the precedence notice', () => {
    let env: Record<string, string | undefined>
    beforeAll(async () => {
      // A CI job: the active profile points elsewhere, PAYFAC_BASE_URL at the emulator.
      env = { ...ctx.env, PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined }
      const added = await spawnCli(['profiles', 'add', 'dev', '--environment', 'local', '--base-url', 'http://127.0.0.1:9', '--credential-stdin', '--use'], {
        env,
        input: ctx.emulator.credentials.merchantSecretKey,
      })
      expect(added.code, added.stderr).toBe(0)
      env = { ...env, PAYFAC_BASE_URL: ctx.emulator.url }
    })

    const notice = `using PAYFAC_BASE_URL=`

    it('is not printed when stderr is not a terminal', async () => {
      const result = await runCommand(['orders', 'list', '--limit', '1', '--json'], { env })
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).not.toContain(notice)
    })

    it('is printed with --debug, and on a terminal', async () => {
      const debug = await runCommand(['orders', 'list', '--limit', '1', '--json', '--debug'], { env })
      expect(debug.code, debug.stderr).toBe(0)
      expect(debug.stderr).toContain(`${notice}${ctx.emulator.url} (the base URL http://127.0.0.1:9 of profile dev ignored)`)
      const terminal = await withStderrTerminal(() => runCommand(['orders', 'list', '--limit', '1', '--json'], { env }))
      expect(terminal.code, terminal.stderr).toBe(0)
      expect(terminal.stderr.split('\n').filter((line) => line.startsWith(notice))).toHaveLength(1)
    })

    it('whoami always shows where each setting came from and what it won over', async () => {
      const result = await runCommand(['whoami', '--json'], { env })
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).not.toContain(notice)
      const rows = JSON.parse(result.stdout) as Array<{ setting: string; value: string; source: string }>
      expect(rows.find((r) => r.setting === 'baseUrl')).toEqual({
        setting: 'baseUrl',
        value: ctx.emulator.url,
        source: 'PAYFAC_BASE_URL (over the base URL http://127.0.0.1:9 of profile dev)',
      })
      expect(rows.find((r) => r.setting === 'profile')?.source).toBe('the active profile (profiles use)')
      expect(rows.find((r) => r.setting === 'credential')?.source).toBe('profile dev')
    })
  })
})
