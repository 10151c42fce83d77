// payfac mcp: a confirmation does what its preview showed, or nothing (a balance that grew, a file
// or a profile changed in between).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { call, dataOf, type McpSession, startMcp, tokenOf } from '../helpers/mcp-client.js'
import { spawnCli } from '../helpers/spawn-cli.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

describe('payfac mcp: a confirmation does what its preview showed, or nothing', () => {
  const { ctx, json, marketplace } = useEmulator()
  const fund = (merchantId: string, minor: number) =>
    (merchantId === ctx.emulator.ids.merchantId ? json : marketplace.json)(
      'simulate',
      'IncomingBankTransfer',
      '--data',
      JSON.stringify({ merchantId, amount: { minorCurrencyUnits: minor, currency: 'AUD' } }),
    )
  const payouts = (merchantId: string) => ctx.emulator.app.store.payouts.all().filter((p) => p.merchantId === merchantId)
  let mcp: McpSession
  beforeAll(async () => {
    mcp = await startMcp([], ctx.env)
  })
  afterAll(async () => mcp?.close())

  it('pays out the available balance the preview showed, not what is available by the time it is confirmed', async () => {
    const merchant = ctx.emulator.ids.merchantId
    await fund(merchant, 1_000)
    const available = (await json('merchants', 'balances')).balances.find((b: { currency: string }) => b.currency === 'AUD').available.minorCurrencyUnits
    const preview = await call(mcp, 'payoutAvailableBalance', { currency: 'AUD' })
    expect(dataOf(preview).wouldSend.body.amount).toEqual({ minorCurrencyUnits: available, currency: 'AUD' })
    expect(preview.text).toContain(`It would run: payfac payouts request --amount=${(available / 100).toFixed(2)} --currency=AUD`)
    await fund(merchant, 500_000)
    const done = await call(mcp, 'payoutAvailableBalance', { currency: 'AUD', confirmationToken: tokenOf(preview) })
    expect(done.isError, done.text).toBe(false)
    expect(dataOf(done).output.amount).toEqual({ minorCurrencyUnits: available, currency: 'AUD' })
    expect(payouts(merchant).map((p) => p.amount.minorCurrencyUnits)).toEqual([available])
  })

  it('refuses a confirmation once the profile acts as another account: its key and merchant changed since the preview', async () => {
    const { merchantId } = ctx.emulator.ids
    const bankAccount = { bsb: '062-000', accountNumber: '87654321', accountName: 'Elsewhere' }
    const elsewhere = { name: 'Elsewhere Pty Ltd', industry: 'Retail', manualPayoutsEnabled: true, bankAccount }
    const subMerchantId: string = (await marketplace.json('api', 'POST', '/merchants', '--data', JSON.stringify(elsewhere))).merchantId
    const env = { ...ctx.env, PAYFAC_API_KEY: undefined, PAYFAC_BASE_URL: undefined }
    const profile = (key: string, ...more: string[]) =>
      spawnCli(
        ['profiles', 'add', 'ops', '--environment', 'local', '--base-url', ctx.emulator.url, '--credential-stdin', '--insecure-storage', '--replace', ...more],
        {
          env,
          input: key,
        },
      )
    expect((await profile(ctx.emulator.credentials.merchantSecretKey)).code).toBe(0)
    const ops = await startMcp(['--profile', 'ops'], env)
    try {
      await fund(merchantId, 700)
      await fund(subMerchantId, 10_000_000)
      const before = [payouts(merchantId).length, payouts(subMerchantId).length]
      const preview = await call(ops, 'payoutAvailableBalance', { currency: 'AUD' })
      expect(tokenOf(preview), preview.text).toBeTruthy()
      // Someone points the profile at another account: the marketplace's key, acting for its sub-merchant.
      expect((await profile(ctx.emulator.credentials.marketplaceApiKey, '--merchant-id', subMerchantId)).code).toBe(0)
      const refused = await call(ops, 'payoutAvailableBalance', { currency: 'AUD', confirmationToken: tokenOf(preview) })
      expect(refused.isError).toBe(true)
      expect(refused.text).toMatch(/settings changed since payfac mcp started .*its credential or context .* is not the one it started with/)
      expect([payouts(merchantId).length, payouts(subMerchantId).length]).toEqual(before)
    } finally {
      await ops.close()
    }
  })

  it('refuses to upload a file that changed since its preview, and uploads nothing', async () => {
    const files = makeTempConfigDir('payfac-mcp-upload-')
    try {
      const path = join(files.dir, 'licence.pdf')
      writeFileSync(path, '%PDF-1.4\n% the licence the person was shown\n%%EOF\n')
      const args = { merchantId: ctx.emulator.ids.merchantId, path }
      const preview = await call(mcp, 'uploadMerchantFile', args)
      expect(dataOf(preview).checked).toMatchObject({ path, bytes: 50, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
      // Another document of the same size.
      writeFileSync(path, '%PDF-1.4\n% the licence the robber was shown\n%%EOF\n')
      const refused = await call(mcp, 'uploadMerchantFile', { ...args, confirmationToken: tokenOf(preview) })
      expect(refused.isError).toBe(true)
      expect(refused.text).toMatch(/^uploadMerchantFile: uploadMerchantFile no longer builds what its preview showed, or what it depends on changed since/)
      expect(ctx.emulator.app.store.merchantFiles.all()).toEqual([])
    } finally {
      files.cleanup()
    }
  })

  it("shows the command line of a preview inert: no invisible or reordering character in payfac's words, no card number", async () => {
    const description = 'ops \u202egnp.exe\u202c hook\u200b'
    const body = {
      CreateWebhookMerchantSubscription: {
        url: 'https://hooks.example.com/in',
        events: ['OrderCreated'],
        description,
        metadata: { card: '4111 1111 1111 1111' },
      },
    }
    const preview = await call(mcp, 'createWebhookSubscription', { body })
    const said = preview.text.slice(0, preview.text.indexOf('<service-data id='))
    expect(said).toContain(
      "It would run: payfac webhooks create --url=https://hooks.example.com/in --events=OrderCreated $'--description=ops \\u202egnp.exe\\u202c hook\\u200b'",
    )
    expect(said).not.toMatch(/[\u202e\u202c\u200b]/u)
    expect(said).not.toContain('4111 1111 1111 1111')
    expect(said).toContain("'--metadata=card=****1111'")
    expect(tokenOf(preview)).toBeTruthy()
  })

  it('lets a flow wait as long as it is asked when the server was started with --timeout (one --timeout per command line)', async () => {
    const timed = await startMcp(['--timeout', '20s'], ctx.env)
    try {
      const args = { customerName: 'Jo Citizen', bban: '062-000 12345678', amount: '3.00', currency: 'AUD', reference: 'mcp-timed', timeout: '5m' }
      const preview = await call(timed, 'paytoPay', args)
      expect(preview.isError, preview.text).toBe(false)
      expect(preview.text).toContain('--timeout=5m')
      expect(tokenOf(preview)).toBeTruthy()
    } finally {
      await timed.close()
    }
  })
})
