// One rule for every money command (an identical one already made is exit 6 naming it; --again
// makes another), the identity of an operation (the merchant acted for, not the key nor a
// redundant --merchant-id), and a journal that fails closed: a record that is not a private
// regular file of the user is exit 3, nothing sent, and never a hang.
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { paidByPayTo } from '../helpers/flows.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const { ctx, payfac, json, marketplace } = useEmulator()

const store = () => ctx.emulator.app.store
const refundsOf = (transactionId: string) =>
  store()
    .refunds.all()
    .filter((r) => r.transactionId === transactionId).length

async function fund(merchantId: string, units: number): Promise<void> {
  await marketplace.json(
    'api',
    'POST',
    '/simulation',
    '--data',
    JSON.stringify({ IncomingBankTransfer: { merchantId, amount: { minorCurrencyUnits: units, currency: 'AUD' } } }),
  )
}

describe('a repeat of any money command', () => {
  it('payouts request: exit 6 naming the payout; --again requests another', async () => {
    await fund(ctx.emulator.ids.merchantId, 10_000)
    const before = store().payouts.all().length
    const first = await json('payouts', 'request', '--amount', '10.00', '--currency', 'AUD')
    const twice = await payfac('payouts', 'request', '--amount', '10.00', '--currency', 'AUD')
    expect(twice.code, twice.stderr).toBe(6)
    expect(twice.stderr).toContain(`An identical payout request of 10.00 AUD was already made (${first.payoutId}); nothing was sent`)
    expect(twice.stderr).toContain('--again')
    expect(store().payouts.all().length).toBe(before + 1)
    expect((await payfac('payouts', 'request', '--amount', '10.00', '--currency', 'AUD', '--again')).code).toBe(0)
    expect(store().payouts.all().length).toBe(before + 2)
  })

  it('transactions transfer and reverse-transfer: exit 6; --again moves money again', async () => {
    const { transactionId } = await paidByPayTo(json, '10.00', 'repeat-transfer')
    const transfer = ['transactions', 'transfer', transactionId, '--to', ctx.emulator.ids.subMerchantId, '--amount', '1.00']
    expect((await marketplace.payfac(...transfer)).code).toBe(0)
    const twice = await marketplace.payfac(...transfer)
    expect(twice.code, twice.stderr).toBe(6)
    expect(twice.stderr).toContain('was already made')
    expect(store().transactions.get(transactionId)?.transfers).toHaveLength(1)
    expect((await marketplace.payfac(...transfer, '--again')).code).toBe(0)
    const transfers = store().transactions.get(transactionId)?.transfers ?? []
    expect(transfers).toHaveLength(2)

    const reverse = ['transactions', 'reverse-transfer', transactionId, '--transfer', transfers[0]?.transferId as string, '--amount', '0.40']
    expect((await marketplace.payfac(...reverse)).code).toBe(0)
    expect((await marketplace.payfac(...reverse)).code).toBe(6)
    expect((await marketplace.payfac(...reverse, '--again')).code).toBe(0)
    expect(store().transactions.get(transactionId)?.transfers[0]).toMatchObject({ reversedAmount: 80 })
  })

  it('orders create without a reference: exit 6 naming the order; --again makes another', async () => {
    const body = JSON.stringify({ CreateOnlineOrder: { amount: { minorCurrencyUnits: 610, currency: 'AUD' }, description: 'repeat without reference' } })
    const args = ['orders', 'create', '--data', body]
    const first = await json(...args)
    const twice = await payfac(...args)
    expect(twice.code).toBe(6)
    expect(twice.stderr).toContain(first.orderId)
    const another = await json(...args, '--again')
    expect(another.orderId).not.toBe(first.orderId)
  })

  it('tokens create moves no money: an identical one is simply made again', async () => {
    const { activeAgreement } = await import('../helpers/flows.js')
    const agreement = await activeAgreement(json, { oneOff: 300 })
    const args = ['tokens', 'create', '--payto', '--agreement', agreement, '--amount', '3.00', '--currency', 'AUD']
    const a = await json(...args)
    const b = await json(...args)
    expect(b.paymentTokenId).not.toBe(a.paymentTokenId)
  })
})

describe('the identity of an operation is the merchant acted for', () => {
  it("a refund re-run with a redundant --merchant-id (the key's own merchant) is the same refund: exit 6", async () => {
    const { transactionId } = await paidByPayTo(json, '9.00', 'identity-merchant')
    expect((await payfac('transactions', 'refund', transactionId, '--amount', '1.00')).code).toBe(0)
    const redundant = await payfac('transactions', 'refund', transactionId, '--amount', '1.00', '--merchant-id', ctx.emulator.ids.merchantId)
    expect(redundant.code, redundant.stderr).toBe(6)
    expect(redundant.stderr).toContain('was already made')
    expect(refundsOf(transactionId)).toBe(1)
  })

  it("a payout made with the marketplace key for a merchant, then with that merchant's own key, is the same payout: exit 6", async () => {
    const made = await marketplace.json(
      'api',
      'POST',
      '/merchants',
      '--data',
      JSON.stringify({
        name: 'Identity Shop',
        industry: 'Retail',
        manualPayoutsEnabled: true,
        bankAccount: { bsb: '062-000', accountNumber: '11223344', accountName: 'Identity Shop' },
      }),
    )
    await fund(made.merchantId, 5_000)
    const args = ['payouts', 'request', '--amount', '7.00', '--currency', 'AUD']
    const first = await marketplace.payfac(...args, '--merchant-id', made.merchantId)
    expect(first.code, first.stderr).toBe(0)
    const ownKey = await runAs(made.secretKey, ...args)
    expect(ownKey.code, ownKey.stderr).toBe(6)
    expect(ownKey.stderr).toContain('was already made')
    expect(
      store()
        .payouts.all()
        .filter((p) => p.merchantId === made.merchantId),
    ).toHaveLength(1)
  })
})

function runAs(credential: string, ...argv: string[]) {
  return import('../helpers/run-command.js').then(({ runCommand }) => runCommand(argv, { env: ctx.envWith(credential) }))
}

/** Every refund record under the config folder whose text contains `needle`. */
function recordsWith(needle: string): string[] {
  const root = join(ctx.env.PAYFAC_CONFIG_DIR as string, 'operations')
  const found: string[] = []
  for (const folder of readdirSync(root)) {
    for (const name of readdirSync(join(root, folder))) {
      const file = join(root, folder, name)
      if (name.startsWith('refund-') && name.endsWith('.json') && lstatSync(file).isFile() && readFileSync(file, 'utf8').includes(needle)) found.push(file)
    }
  }
  return found
}

describe('a damaged operation record: exit 3, nothing sent, the hint tells how to check on the service', () => {
  const corruptions: Array<[string, (file: string, saved: string) => void]> = [
    ['a dangling symlink', (file) => symlinkSync(`${file}.nowhere`, file)],
    [
      'a symlink to a valid record',
      (file, saved) => {
        writeFileSync(`${file}.real`, saved, { mode: 0o600 })
        symlinkSync(`${file}.real`, file)
      },
    ],
    ['a directory', (file) => mkdirSync(file)],
    [
      'a world-writable file',
      (file, saved) => {
        writeFileSync(file, saved)
        chmodSync(file, 0o666)
      },
    ],
    [
      'a group-writable file',
      (file, saved) => {
        writeFileSync(file, saved)
        chmodSync(file, 0o620)
      },
    ],
    [
      'a file of another user',
      (file, saved) => {
        writeFileSync(file, saved, { mode: 0o600 })
        chownSync(file, 4242, 4242)
      },
    ],
  ]

  it.each(corruptions)('%s', async (what, corrupt) => {
    if (what === 'a file of another user' && process.getuid?.() !== 0) return // chown needs root
    const { transactionId } = await paidByPayTo(json, '5.00', `damaged-${what.replace(/\W+/g, '-')}`)
    expect((await payfac('transactions', 'refund', transactionId, '--amount', '1.00')).code).toBe(0)
    const [file] = recordsWith(transactionId)
    const saved = readFileSync(file as string, 'utf8')
    rmSync(file as string)
    corrupt(file as string, saved)
    const result = await payfac('transactions', 'refund', transactionId, '--amount', '1.00', '--again')
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr).toContain('is damaged')
    expect(result.stderr).toContain(`payfac transactions get ${transactionId}`)
    expect(result.stderr).not.toMatch(/\bmv\b|move it aside/i)
    expect(refundsOf(transactionId)).toBe(1)
  })

  it('a FIFO: exit 3 at once (never a hang in open), nothing sent', async () => {
    const { transactionId } = await paidByPayTo(json, '5.00', 'damaged-fifo')
    expect((await payfac('transactions', 'refund', transactionId, '--amount', '1.00')).code).toBe(0)
    const [file] = recordsWith(transactionId)
    rmSync(file as string)
    execFileSync('mkfifo', [file as string])
    // Spawned: a hang would be killed by spawnCli's timer and show as a signal, not an exit code.
    const result = await spawnCli(['transactions', 'refund', transactionId, '--amount', '1.00', '--again'], { env: ctx.env })
    expect(result.signal).toBeNull()
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr).toContain('FIFO')
    expect(refundsOf(transactionId)).toBe(1)
  })

  it('a world-writable operations folder: exit 3, nothing sent; doctor reports it', async () => {
    const { transactionId } = await paidByPayTo(json, '5.00', 'damaged-folder')
    expect((await payfac('transactions', 'refund', transactionId, '--amount', '1.00')).code).toBe(0)
    const [file] = recordsWith(transactionId)
    const folder = join(file as string, '..')
    chmodSync(folder, 0o777)
    try {
      const result = await payfac('transactions', 'refund', transactionId, '--amount', '1.00', '--again')
      expect(result.code, result.stderr).toBe(3)
      expect(result.stderr).toContain('others can write in it (mode 0777)')
      expect(refundsOf(transactionId)).toBe(1)
      const doctor = await payfac('doctor', '--json')
      const row = JSON.parse(doctor.stdout).find((r: { check: string }) => r.check === 'journal permissions')
      expect(row).toMatchObject({ ok: false, fix: expect.stringContaining(`chmod 700 '${folder}'`) })
    } finally {
      chmodSync(folder, 0o700)
    }
  })
})

describe('a damaged payto pay journal', () => {
  it('a FIFO in its place: exit 3 at once, nothing sent', async () => {
    const root = join(ctx.env.PAYFAC_CONFIG_DIR as string, 'journal')
    // A first run makes the journal's folder; then its file is replaced by a FIFO.
    const args = [
      'payto',
      'pay',
      '--name',
      'Fifo Payer',
      '--bban',
      '062-000 12345678',
      '--amount',
      '2.00',
      '--currency',
      'AUD',
      '--reference',
      'fifo-run',
      '--approve',
      '--interval',
      '100ms',
    ]
    expect((await payfac(...args)).code).toBe(0)
    const [folder] = readdirSync(root)
    const file = join(root, folder as string, 'fifo-run.json')
    expect(readFileSync(file, 'utf8')).not.toContain('12345678')
    rmSync(file)
    execFileSync('mkfifo', [file])
    const orders = store().orders.all().length
    const result = await spawnCli(args, { env: ctx.env })
    expect(result.signal).toBeNull()
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr).toContain('payfac orders list --reference fifo-run')
    expect(store().orders.all().length).toBe(orders)
  })
})
