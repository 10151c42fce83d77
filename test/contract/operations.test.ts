// Every operation of the contract is performed by a command: a table from each of the 80
// (method, path) pairs of interface-v3.md's Endpoints part (copied into
// test/fixtures/contract-operations.json) to the command ids that send it, checked against the
// commands oclif really has (oclif.manifest.json, made by `npm run build`) and against the
// emulator's route table.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

import { ALL_ROUTES } from '../../src/emulator/resources/index.js'

const ROOT = resolve(__dirname, '../..')
const CONTRACT: Array<[string, string]> = JSON.parse(readFileSync(resolve(ROOT, 'test/fixtures/contract-operations.json'), 'utf8'))

/** [method, path, command id(s)]: an action route reached by several commands lists them all. */
const OPERATIONS: Array<[string, string, string | string[]]> = [
  // Authentication
  ['POST', '/auth/signin', 'auth:signin'],
  ['GET', '/auth/servicetokens/{serviceTokenId}', 'auth:tokens:get'],
  ['GET', '/auth/servicetokens', 'auth:tokens:list'],
  ['POST', '/auth/servicetokens', 'auth:tokens:create'],
  ['PATCH', '/auth/servicetokens/{serviceTokenId}', 'auth:tokens:update'],
  // Customers
  ['GET', '/customers', 'customers:list'],
  ['POST', '/customers', 'customers:upsert'],
  ['GET', '/customers/{customerId}', 'customers:get'],
  ['POST', '/customers/kyc', 'customers:kyc'],
  ['GET', '/customers/delegates', 'customers:delegates:list'],
  ['GET', '/customers/delegates/{customerDelegateId}', 'customers:delegates:get'],
  ['PATCH', '/customers/delegates/{customerDelegateId}', 'customers:delegates:link'],
  ['POST', '/customers/delegates', 'customers:delegates:upsert'],
  ['DELETE', '/customers/delegates/{customerDelegateId}', 'customers:delegates:delete'],
  // Merchants
  ['GET', '/merchants', 'merchants:list'],
  ['POST', '/merchants', 'merchants:create'],
  ['GET', '/merchants/{merchantId}', 'merchants:get'],
  ['PATCH', '/merchants/{merchantId}', ['merchants:bank-accounts:add', 'merchants:bank-accounts:set-primary', 'merchants:update-profile']],
  ['GET', '/merchants/{merchantId}/balances', 'merchants:balances'],
  ['POST', '/merchants/{merchantId}/files', 'merchants:files:upload'],
  ['GET', '/merchants/{merchantId}/files/{fileId}', 'merchants:files:get'],
  ['GET', '/merchants/{merchantId}/walletpay', 'merchants:walletpay'],
  ['GET', '/merchants/{merchantId}/owners', 'merchants:owners:list'],
  ['POST', '/merchants/{merchantId}/owners', 'merchants:owners:create'],
  ['GET', '/merchants/{merchantId}/owners/{ownerId}', 'merchants:owners:get'],
  ['PUT', '/merchants/{merchantId}/owners/{ownerId}', 'merchants:owners:replace'],
  ['DELETE', '/merchants/{merchantId}/owners/{ownerId}', 'merchants:owners:delete'],
  ['GET', '/merchants/industries', 'merchants:industries'],
  // Payment sources
  ['GET', '/sources/{sourceId}', 'sources:get'],
  ['DELETE', '/sources/{sourceId}', 'sources:delete'],
  ['POST', '/sources', 'sources:create'],
  ['GET', '/sources', 'sources:list'],
  ['GET', '/sources/blockedcards', 'sources:blocked-cards:list'],
  ['PATCH', '/sources/blockedcards/{cardBlockId}', 'sources:blocked-cards:update'],
  // Payment tokens
  ['POST', '/tokens', 'tokens:create'],
  ['GET', '/tokens/{paymentTokenId}', 'tokens:get'],
  ['POST', '/tokens/{merchantId}/surchargequote', 'tokens:surcharge-quote'],
  // Pay plans
  ['POST', '/payplans/offer', 'payplans:offer'],
  ['GET', '/payplans', 'payplans:list'],
  ['POST', '/payplans', 'payplans:create'],
  ['GET', '/payplans/{payPlanId}', 'payplans:get'],
  ['POST', '/payplans/max', 'payplans:max'],
  ['POST', '/payplans/parameters', 'payplans:parameters'],
  // Orders
  ['GET', '/orders', 'orders:list'],
  ['POST', '/orders', 'orders:create'],
  ['POST', '/orders/{orderId}/pay', 'orders:pay'],
  ['GET', '/orders/{orderId}', 'orders:get'],
  ['DELETE', '/orders/{orderId}', 'orders:cancel'],
  ['PATCH', '/orders/{orderId}', 'orders:set-reference'],
  // Transactions
  ['GET', '/transactions/{transactionId}', 'transactions:get'],
  ['GET', '/transactions', 'transactions:list'],
  [
    'PATCH',
    '/transactions/{transactionId}',
    ['transactions:refund', 'transactions:capture', 'transactions:cancel-authorisation', 'transactions:transfer', 'transactions:reverse-transfer'],
  ],
  ['POST', '/transactions/payouts', 'payouts:request'],
  ['GET', '/transactions/payouts', 'payouts:list'],
  ['GET', '/transactions/payouts/{payoutId}', 'payouts:get'],
  ['GET', '/transactions/invoices', 'invoices:list'],
  ['GET', '/transactions/invoices/{invoiceId}', 'invoices:get'],
  ['GET', '/transactions/invoices/{invoiceId}/pdf', 'invoices:pdf'],
  ['GET', '/transactions/settlement', 'settlement:list'],
  ['GET', '/transactions/settlement/report', 'settlement:report'],
  ['GET', '/transactions/disputes', 'disputes:list'],
  ['GET', '/transactions/refunds', 'refunds:list'],
  // Marketplaces
  ['GET', '/marketplaces/{marketplaceId}', 'marketplaces:get'],
  ['POST', '/marketplaces/customer', 'marketplaces:customers:upsert'],
  // Webhooks
  ['GET', '/webhooks', 'webhooks:list'],
  ['POST', '/webhooks', 'webhooks:create'],
  ['GET', '/webhooks/{id}', 'webhooks:get'],
  ['PATCH', '/webhooks/{id}', ['webhooks:enable', 'webhooks:disable']],
  // Loans
  ['GET', '/loans', 'loans:list'],
  ['GET', '/loans/statements/{loanStatementId}', 'loans:statements:get'],
  ['GET', '/loans/statements', 'loans:statements:list'],
  ['GET', '/loans/statements/entries', 'loans:entries:list'],
  ['GET', '/loans/enterprise/statements/{loanStatementId}/download', 'loans:statements:download'],
  ['GET', '/loans/statements/entries/report', 'loans:entries:report'],
  // Card issuer
  ['POST', '/issuer/card', 'cards:create'],
  ['GET', '/issuer/card', 'cards:list'],
  // PayTo
  ['GET', '/payto/alias', 'payto:alias'],
  ['POST', '/payto/agreement', 'payto:agree'],
  ['GET', '/payto/agreement', 'payto:status'],
  // Simulation
  ['POST', '/simulation', 'simulate'],
]

const key = (method: string, path: string) => `${method} ${path}`
/** Placeholder names differ between the contract's tables; compare templates by shape. */
const shape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`

function manifestCommands(): Set<string> {
  const file = resolve(ROOT, 'oclif.manifest.json')
  if (!existsSync(file)) throw new Error('oclif.manifest.json is missing: run `npm run build` first')
  return new Set(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { commands: Record<string, unknown> }).commands))
}

describe('the contract operations fixture', () => {
  it('holds the 80 distinct operations of the Endpoints part', () => {
    expect(CONTRACT).toHaveLength(80)
    expect(new Set(CONTRACT.map(([m, p]) => key(m, p))).size).toBe(80)
  })

  it('is routed, operation by operation, by the emulator', () => {
    const routed = new Set(ALL_ROUTES.map((r) => shape(r.method, r.path)))
    const missing = CONTRACT.filter(([m, p]) => !routed.has(shape(m, p))).map(([m, p]) => key(m, p))
    expect(missing).toEqual([])
  })
})

describe('every operation of the contract has a command', () => {
  it('maps exactly the 80 operations of the contract, each once', () => {
    const mapped = OPERATIONS.map(([m, p]) => key(m, p))
    expect(mapped).toHaveLength(80)
    expect(new Set(mapped).size).toBe(80)
    expect([...mapped].sort()).toEqual(CONTRACT.map(([m, p]) => key(m, p)).sort())
  })

  it('names only commands that exist', () => {
    const commands = manifestCommands()
    const missing = OPERATIONS.flatMap(([m, p, ids]) =>
      (Array.isArray(ids) ? ids : [ids]).filter((id) => !commands.has(id)).map((id) => `${key(m, p)} → ${id}`),
    )
    expect(missing, `commands named by the operations table but absent from oclif.manifest.json (run npm run build):\n${missing.join('\n')}`).toEqual([])
  })
})
