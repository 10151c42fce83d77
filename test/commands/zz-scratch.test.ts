import { afterAll, beforeAll, it } from 'vitest'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { runCommand } from '../helpers/run-command.js'
let ctx: EmulatorEnv
beforeAll(async () => { ctx = await startEmulatorEnv() })
afterAll(async () => ctx.close())
const p = async (...argv: string[]) => { const r = await runCommand(argv, { env: ctx.env }); console.log('$ payfac', argv.join(' '), '\n', r.code, '\nOUT:', r.stdout.slice(0, 1500), '\nERR:', r.stderr.slice(0, 1500)); return r }
it('scratch', async () => {
  await p('settlement', 'list', '--month', '2026-11')
  const a = await p('payto', 'agree', '--name', 'Rec Jo', '--bban', '062-000 12345678', '--open', '--json')
  const token = JSON.parse(a.stdout).token
  await p('simulate', 'SetPayToAgreementStatus', '--data', JSON.stringify({ token, status: 'Active' }))
  await p('payto', 'charge', token, '--amount', '9.00', '--reference', 'sub-1')
  await p('payto', 'charge', token, '--amount', '9.00', '--reference', 'sub-1')
  await p('payto', 'charge', token, '--amount', '9.00', '--reference', 'sub-2', '--json')
  await p('merchants', 'balances', '--json')
  await p('merchants', 'balances')
  await p('orders', 'list', '--month', '2026-13')
  await p('orders', 'list', '--last-month', '--debug')
  await p('settlement', 'list', '--month', '2026-11')
  await p('simulate', 'IncomingBankTransfer', '--data', JSON.stringify({ merchantId: 'mcht_LocalMerchant001', amount: { minorCurrencyUnits: 50000, currency: 'AUD' } }))
  await p('payouts', 'request', '--available', '--json')
  await p('payouts', 'request', '--available')
  await p('settlement', 'reconcile', '--last-month')
  await p('merchants', 'get')
}, 60000)
