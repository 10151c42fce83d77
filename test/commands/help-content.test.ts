// Help that teaches and commands that say what happened, against the emulator: simulate's actions,
// api --list, whoami --check, --query's missing fields, a reference given where an id is wanted, -o,
// and reconcile and disputes saying what they found.
import { afterEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const { ctx, payfac, json, control } = useEmulator()
afterEach(async () => {
  await control('DELETE', '/faults')
})

const merchantId = () => ctx.emulator.ids.merchantId

describe('help that teaches', () => {
  it('simulate --help lists every action with its fields and an example', async () => {
    const { stdout } = await spawnCli(['simulate', '--help'], { env: ctx.env })
    for (const action of [
      'AdvanceClock',
      'SetPayToAgreementStatus',
      'IncomingBankTransfer',
      'OpenDispute',
      'ResolveDispute',
      'SettlePayout',
      'RunScheduledPayouts',
      'SetMerchantManualPayouts',
      'RaiseBlockedCardEvent',
    ]) {
      expect(stdout).toMatch(new RegExp(`${action}: [^\\n]*`))
      expect(stdout.replace(/\s+/g, ' ')).toContain(`payfac simulate ${action} --data`)
    }
    expect(stdout).toContain('Fields: disputeId, outcome (Won or Lost)')
  })

  it('--query naming a field the record lacks warns with the fields it has', async () => {
    const result = await payfac('merchants', 'get', '--query', 'merchantid')
    expect(result.stdout).toBe('null\n')
    expect(result.stderr).toMatch(/names "merchantid", which the record does not have .*its fields: merchantId, /)
    const fine = await payfac('merchants', 'get', '--query', 'merchantId')
    expect(fine.stderr).not.toContain('does not have')
  })

  it('an order argument that looks like a reference suggests orders list --reference', async () => {
    const result = await payfac('orders', 'get', 'month-239')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('payfac orders list --reference month-239')
    const other = await payfac('orders', 'get', 'tran_abc')
    expect(other.stderr).not.toContain('--reference')
  })

  it('-o json, --output csv and -o jsonl are the format flags; two formats are refused', async () => {
    const asJson = await payfac('merchants', 'get', '-o', 'json')
    expect(JSON.parse(asJson.stdout).merchantId).toBe(merchantId())
    const asCsv = await payfac('merchants', 'get', '--output', 'csv')
    expect(asCsv.stdout.split('\n')[0]).toContain('merchantId')
    const asLines = await payfac('merchants', 'get', '-o', 'jsonl')
    expect(asLines.stdout.trimEnd().split('\n')).toHaveLength(1)
    expect(JSON.parse(asLines.stdout).merchantId).toBe(merchantId())
    const both = await payfac('merchants', 'get', '-o', 'csv', '--json')
    expect(both.code).toBe(2)
    expect((await payfac('merchants', 'get', '-o', 'jsonl', '--csv')).code).toBe(2)
    const out = await payfac('settlement', 'report', '--month', '2026-10', '-o', 'json')
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('--output json')
  })

  it('api on a path the interface lacks says so and how to list operations; api --list lists them', async () => {
    const result = await payfac('api', 'GET', '/disputes/dispute_x')
    expect(result.code).toBe(5)
    expect(result.stderr).toContain('The interface has no operation GET /disputes/dispute_x')
    expect(result.stderr).toContain('payfac api --list')
    expect(result.stderr).not.toContain('Check the identifier')
    const list = await json('api', '--list')
    expect(list).toContainEqual({ method: 'GET', path: '/transactions/disputes', operation: 'paginated list of disputes' })
    const known = await payfac('api', 'GET', '/merchants/industries')
    expect(known.stderr).not.toContain('no operation')
  })

  it("payfac help environment lists every variable, and a command's help ends with those it reads", async () => {
    const { stdout, code } = await spawnCli(['help', 'environment'], { env: ctx.env })
    expect(code).toBe(0)
    for (const name of [
      'PAYFAC_API_KEY',
      'PAYFAC_PROFILE',
      'PAYFAC_BASE_URL',
      'PAYFAC_MERCHANT_ID',
      'PAYFAC_TIMEOUT',
      'PAYFAC_CONFIG_DIR',
      'PAYFAC_REPEAT_WINDOW',
      'PAYFAC_WEBHOOK_SECRET',
      'PAYFAC_EMULATOR_TOKEN',
      'NO_COLOR',
      'CI',
    ]) {
      expect(stdout).toContain(name)
    }
    const payout = await spawnCli(['payouts', 'request', '--help'], { env: ctx.env })
    const section = payout.stdout.slice(payout.stdout.indexOf('ENVIRONMENT')).replace(/\s+/g, ' ')
    expect(section).toContain('PAYFAC_API_KEY')
    expect(section).toContain('PAYFAC_REPEAT_WINDOW')
    expect(section).not.toContain('PAYFAC_WEBHOOK_SECRET')
  })

  it('whoami --check asks the service: accepted (exit 0), or refused (exit 4)', async () => {
    const ok = await json('whoami', '--check')
    expect(ok.at(-1)).toMatchObject({ setting: 'check', value: 'accepted by the service' })
    const refused = await runCommand(['whoami', '--check'], { env: { ...ctx.env, PAYFAC_API_KEY: 'sandbox_sk_NotAKeyTheEmulatorKnows0' } })
    expect(refused.code).toBe(4)
    expect(refused.stdout).toContain('REFUSED by the service (401)')
    const without = await payfac('whoami')
    expect(without.stdout).not.toContain('check')
  })
})

describe('say what happened', () => {
  it('reconcile with nothing to report says so on stderr; stdout stays data only', async () => {
    const result = await payfac('settlement', 'reconcile', '--month', '2020-01', '--currency', 'AUD')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Nothing to reconcile')
    expect(result.stderr).not.toContain('No records.')
  })

  it('disputes --help says the contract has no operation to answer one, and where they are answered', async () => {
    const { stdout } = await spawnCli(['disputes', 'list', '--help'], { env: ctx.env })
    const text = stdout.replace(/\s+/g, ' ')
    expect(text).toContain('no operation to answer a dispute')
    expect(text).toContain('answered outside this interface')
  })
})
