// `payto pay` pays once per reference however the same service is named: another spelling of
// its URL or a profile instead of environment variables share the journal (keyed by the service
// identity), and a second config folder, which has no journal, is caught by the look on the
// service (an order with that reference that is paid).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'
import { spawnCli } from '../helpers/spawn-cli.js'
import { newCustomer } from '../helpers/flows.js'

const { ctx, payfac, json } = useEmulator()

const payArgs = (reference: string, extra: string[] = []) => [
  'payto',
  'pay',
  '--name',
  'Jo Citizen',
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

async function paymentsOf(reference: string): Promise<number> {
  const orders = await json('orders', 'list', '--reference', reference)
  let count = 0
  for (const order of orders) count += (await json('transactions', 'list', '--order-id', order.orderId)).length
  return count
}

describe('payto pay, resumed', () => {
  it('under another spelling of the same service (localhost, a trailing slash) resumes the same journal and pays once', async () => {
    await json('emulator', 'faults', '--add', 'drop-after-commit', '--method', 'POST', '--path', '/orders/*/pay')
    const first = await payfac(...payArgs('spelling-1'))
    await json('emulator', 'faults', '--clear')
    expect(first.code, first.stderr).toBe(7)
    const journal = /journal (\S+)/.exec(first.stderr)?.[1]
    expect(journal).toBeDefined()

    const localhost = `${ctx.emulator.url.replace('127.0.0.1', 'localhost')}/`
    const again = await payfac(...payArgs('spelling-1', ['--base-url', localhost]))
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain(`journal ${journal}`)
    expect(await paymentsOf('spelling-1')).toBe(1)
  })

  it('with a profile naming the same service and key, after environment variables, finds the run done', async () => {
    const first = await payfac(...payArgs('profile-1'))
    expect(first.code, first.stderr).toBe(0)
    const env = { ...ctx.env, PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined }
    const added = await spawnCli(['profiles', 'add', 'emu', '--environment', 'local', '--base-url', ctx.emulator.url, '--credential-stdin'], {
      env,
      input: ctx.env.PAYFAC_API_KEY,
    })
    expect(added.code, added.stderr).toBe(0)
    const again = await runCommand([...payArgs('profile-1'), '--profile', 'emu'], { env })
    expect(again.code, again.stderr).toBe(6)
    expect(again.stderr).toContain('was already made: transaction')
    expect(await paymentsOf('profile-1')).toBe(1)
  })

  it('from a second config folder (no journal there) finds the paid order on the service and sends nothing', async () => {
    const first = await payfac(...payArgs('folder-1'))
    expect(first.code, first.stderr).toBe(0)
    const other = mkdtempSync(join(tmpdir(), 'payfac-second-'))
    try {
      const again = await runCommand(payArgs('folder-1'), { env: { ...ctx.env, PAYFAC_CONFIG_DIR: other } })
      expect(again.code, again.stderr).toBe(6)
      expect(again.stderr).toContain('is already paid by transaction')
      expect(again.stderr).toContain('found on the service; nothing was sent')
      expect(again.stderr).not.toContain('[1/5] Agreement')
      expect(await paymentsOf('folder-1')).toBe(1)
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })

  it('from a second config folder after the order was made but not paid, pays that order instead of making another', async () => {
    await json('orders', 'create', '--amount', '12.50', '--currency', 'AUD', '--reference', 'folder-2')
    const run = await payfac(...payArgs('folder-2'))
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('found on the service')
    expect(await json('orders', 'list', '--reference', 'folder-2')).toHaveLength(1)
    expect(await paymentsOf('folder-2')).toBe(1)
  })

  it('payto save whose save answer is lost: the re-run with the agreement finds the source; one source', async () => {
    const customerId = await newCustomer(json)
    await json('emulator', 'faults', '--add', 'drop-after-commit', '--method', 'POST', '--path', '/sources')
    const first = await payfac(
      'payto',
      'save',
      '--name',
      'Jo Citizen',
      '--bban',
      '062-000 12345678',
      '--customer',
      customerId,
      '--approve',
      '--interval',
      '100ms',
    )
    await json('emulator', 'faults', '--clear')
    expect(first.code, first.stderr).toBe(7)
    const token = /Open agreement (ptagr_\S+)/.exec(first.stderr)?.[1] as string
    expect(first.stderr).toContain(`saving of agreement ${token} as a payment source of customer ${customerId}`)
    const again = await payfac('payto', 'save', '--agreement', token, '--customer', customerId, '--interval', '100ms', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('It happened')
    expect(await json('sources', 'list', '--customer', customerId)).toHaveLength(1)
  })
})
