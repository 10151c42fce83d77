// The OpenAPI document agrees with the contract, with the emulator and with payfac (issue 37):
// checks by tools nobody here wrote (Redocly lint, a Prism validating proxy, a generated client)
// found the document and the emulator or payfac disagreeing in a few places; each has a test here.
// Queries payfac really sends (a recording server) and answers the emulator really gives are
// validated against the document's own schemas (ajv, JSON Schema 2020-12, the dialect of OpenAPI
// 3.1). Needs `npm run build` (dist/openapi.json and the bundled CLI).
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { RunningEmulator } from '../../src/emulator/index.js'
import { KEYS } from '../emulator/helpers.js'
import { aud, call, startTestEmulator } from '../emulator/integrators-helpers.js'
import { useRecordingServer } from '../helpers/command-harness.js'
import type { RecordedRequest, ScriptedAnswer } from '../helpers/recording-server.js'

const BUILT = join(resolve(__dirname, '../..'), 'dist/openapi.json')
if (!existsSync(BUILT)) throw new Error('dist/openapi.json is missing: run npm run build first')
type Json = Record<string, any>
const doc: Json = JSON.parse(readFileSync(BUILT, 'utf8'))
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
ajv.addSchema(doc, 'openapi')

/** A schema of the document (its `$ref`s pointed into it) as a validator's problems for `value`. */
function problems(schema: unknown, value: unknown): string[] {
  const pointed = JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"openapi#/'))
  const run = ajv.compile(typeof pointed === 'object' && pointed !== null ? pointed : {})
  return run(value) ? [] : (run.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
}

function operation(method: string, path: string): Json {
  const op = doc.paths[path]?.[method.toLowerCase()]
  if (!op) throw new Error(`no ${method} ${path} in the document`)
  return op
}

function answerSchema(method: string, path: string, status = '200'): unknown {
  let response = operation(method, path).responses[status]
  if (response?.$ref) response = doc.components.responses[response.$ref.split('/').pop()]
  return response.content['application/json'].schema
}

/** The operation a request reached: its method and the path template its path matches. */
function operationOf(request: RecordedRequest): Json {
  // A literal path wins over a template (/transactions/settlement is not /transactions/{transactionId}).
  const paths = Object.keys(doc.paths).sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
  const template = paths.find((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(request.path))
  if (!template) throw new Error(`${request.path} is not a path of the document`)
  return operation(request.method, template)
}

/** Every query parameter of a request that the document does not declare, or whose value its schema refuses. */
function queryProblems(request: RecordedRequest): string[] {
  const op = operationOf(request)
  const declared = new Map<string, Json>(op.parameters.filter((p: Json) => p.in === 'query').map((p: Json) => [p.name, p]))
  const found: string[] = []
  for (const name of new Set(request.query.keys())) {
    const param = declared.get(name)
    if (!param) {
      found.push(`${name}: not declared by ${op.operationId}`)
      continue
    }
    const values = request.query.getAll(name)
    const schema = param.schema
    const kinds = [schema.type, ...(schema.anyOf ?? []).map((s: Json) => s.type)]
    const typed = (v: string) => (kinds.includes('integer') ? Number(v) : kinds.includes('boolean') ? v === 'true' : v)
    const value = schema.type === 'array' ? values : values.length === 1 ? typed(values[0] as string) : values
    for (const problem of problems(schema, value)) found.push(`${name}=${values.join(',')}: ${problem}`)
  }
  return found
}

let emulator: RunningEmulator
beforeAll(async () => {
  emulator = await startTestEmulator()
})
afterAll(async () => emulator.close())

const api = (method: string, path: string, body?: unknown, credential?: string) =>
  call(emulator.url, method, path, { ...(body === undefined ? {} : { body }), ...(credential ? { credential } : {}) })

describe('an order item quantity', () => {
  const item = (quantity: number) => ({ CreateOnlineOrder: { amount: aud(300), items: [{ amount: aud(150), description: 'Beans', quantity }] } })
  const request = () => operation('POST', '/orders').requestBody.content['application/json'].schema

  it('is an integer in the document, as the contract says, and the document says the emulator’s leniency', () => {
    const quantity = doc.components.schemas.OrderItemInput.properties.quantity
    expect(quantity.type).toBe('integer')
    expect(quantity.description).toMatch(/decimals .*--strict/)
    expect(problems(request(), item(2))).toEqual([])
    expect(problems(request(), item(1.5))).not.toEqual([])
  })

  it('a lenient emulator takes 1.5 (real clients send it) and says so; test/emulator/choices.test.ts pins both modes', async () => {
    const answer = await api('POST', '/orders', item(1.5))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('emulator-warning')).toMatch(/decimal quantity accepted/)
  })
})

describe('the loan entries report', () => {
  it('declares the date ranges the contract requires without loanSettlementId or loanId, as the emulator reads them', async () => {
    const op = operation('GET', '/loans/statements/entries/report')
    const names = op.parameters.map((p: Json) => p.name)
    expect(names).toEqual(expect.arrayContaining(['loanSettlementId', 'loanId', 'currency', 'createdAfter', 'createdBefore', 'dueAfter', 'dueBefore']))
    expect(op.description).toMatch(/createdAfter and createdBefore .* or dueAfter and dueBefore/)
    const refused = await api('GET', '/loans/statements/entries/report?currency=AUD')
    expect([refused.status, refused.body.errorCode]).toEqual([400, 'loan_entries_filter_required'])
    for (const range of ['createdAfter=2024-10-01T00:00:00.000Z&createdBefore=2025-01-01T00:00:00.000Z', 'dueAfter=2024-10-01&dueBefore=2025-01-01']) {
      expect((await api('GET', `/loans/statements/entries/report?currency=AUD&${range}`)).status).toBe(200)
    }
  })
})

describe('what payfac sends: every query parameter is declared and passes the document’s schema', () => {
  const { cli, server } = useRecordingServer(
    (request): ScriptedAnswer =>
      request.path === '/transactions/settlement/report'
        ? { status: 200, headers: { 'content-type': 'text/csv' }, body: 'settlementEntryId,createdAt,type,amountMinorUnits,currency\r\n' }
        : { status: 200, body: [], headers: { 'Page-Count': '0', 'Total-Record-Count': '0' } },
  )

  it.each([
    ['--month (a date-only createdAfter used to be sent)', ['orders', 'list', '--month', '2026-11']],
    ['--last-month, --page, --limit', ['orders', 'list', '--last-month', '--page', '3', '--limit', '7']],
    ['--created-after, --created-before', ['transactions', 'list', '--created-after', '2026-11-01', '--created-before', '2026-11-15T12:00:00+10:00']],
    ['settlement --month', ['settlement', 'list', '--currency', 'AUD', '--month', '2026-11']],
    ['settlement report --from --to', ['settlement', 'report', '--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-12-01', '--csv']],
    ['loan entries report --month', ['loans', 'entries', 'report', '--currency', 'AUD', '--month', '2026-11']],
    ['loan entries by due date', ['loans', 'entries', 'list', '--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-12-01', '--date-field', 'due']],
    ['service tokens --month', ['auth', 'tokens', 'list', '--merchant-id', 'mcht_LocalMerchant001', '--month', '2026-11', '--no-expired']],
  ])('%s', async (_what, argv) => {
    const result = await cli(...argv)
    expect(result.code, result.stderr).toBe(0)
    expect(server.requests.length).toBeGreaterThan(0)
    for (const request of server.requests) expect(queryProblems(request), `${request.path}?${request.query}`).toEqual([])
  })

  it('and the check refuses what the document does not allow (it can fail)', () => {
    const request = (query: string) => ({ method: 'GET', path: '/orders', query: new URLSearchParams(query), headers: {}, body: '', json: undefined })
    expect(queryProblems(request('createdAfter=2026-11-01'))).toEqual([expect.stringContaining('createdAfter=2026-11-01')])
    expect(queryProblems(request('page=2147483648'))).toEqual([expect.stringContaining('page')])
    expect(queryProblems(request('colour=red'))).toEqual(['colour: not declared by listOrders'])
  })
})

describe('answers are documented as the envelopes the emulator sends', () => {
  const order = (action: string) => ({ [action]: { amount: aud(500), referenceOrderId: `env-${action}` } })

  it('POST /orders: OnlineOrder or PayByLinkOrder, exactly one variant, and never a bare order', async () => {
    const schema = answerSchema('POST', '/orders')
    expect(doc.components.schemas.CreateOrderAnswer.oneOf).toHaveLength(2)
    for (const action of ['CreateOnlineOrder', 'CreatePayByLinkOrder', 'CreatePayByLink']) {
      const answer = await api('POST', '/orders', order(action))
      expect(answer.status).toBe(200)
      expect(problems(schema, answer.body), action).toEqual([])
    }
    const bare = (await api('POST', '/orders', order('CreateOnlineOrder'))).body.OnlineOrder.order
    expect(problems(schema, bare)).not.toEqual([])
    // Cancel and change of reference answer the order itself.
    expect(
      problems(
        answerSchema('PATCH', '/orders/{orderId}'),
        (await api('PATCH', `/orders/${bare.orderId}`, { UpdateReferenceOrderId: { referenceOrderId: 'env-2' } })).body,
      ),
    ).toEqual([])
    expect(problems(answerSchema('DELETE', '/orders/{orderId}'), (await api('DELETE', `/orders/${bare.orderId}`)).body)).toEqual([])
  })

  it('webhook subscriptions: under WebhookMerchantSubscription or WebhookMarketplaceSubscription, in every answer and list entry', async () => {
    const merchant = await api('POST', '/webhooks', { CreateWebhookMerchantSubscription: { url: 'https://example.com/hooks', events: ['TransactionPaid'] } })
    const marketplace = await api(
      'POST',
      '/webhooks',
      { CreateWebhookMarketplaceSubscription: { url: 'https://example.com/market', events: ['MerchantCreated'] } },
      KEYS.marketplaceApiKey,
    )
    const answers: Array<[string, string, unknown]> = [
      ['POST', '/webhooks', merchant.body],
      ['POST', '/webhooks', marketplace.body],
    ]
    const id = merchant.body.WebhookMerchantSubscription.id
    answers.push(['GET', '/webhooks/{id}', (await api('GET', `/webhooks/${id}`)).body])
    answers.push(['PATCH', '/webhooks/{id}', (await api('PATCH', `/webhooks/${id}`, { UpdateWebhookSubscriptionStatus: { status: 'Suspended' } })).body])
    answers.push(['GET', '/webhooks', (await api('GET', '/webhooks', undefined, KEYS.marketplaceApiKey)).body])
    for (const [method, path, body] of answers) expect(problems(answerSchema(method, path), body), `${method} ${path}`).toEqual([])
    expect(problems(answerSchema('GET', '/webhooks/{id}'), merchant.body.WebhookMerchantSubscription)).not.toEqual([])
  })
})

describe('limit and page are int32, as the emulator bounds them', () => {
  it('the document says so, and the emulator takes the largest and refuses one more (400)', async () => {
    const params = operation('GET', '/orders').parameters
    const schema = (name: string) => params.find((p: Json) => p.name === name).schema
    expect(schema('page')).toMatchObject({ type: 'integer', format: 'int32', minimum: 1, maximum: 2_147_483_647 })
    expect(schema('limit')).toMatchObject({ type: 'integer', format: 'int32', minimum: 1, maximum: 500 })
    const last = await api('GET', '/orders?page=2147483647&limit=500')
    expect([last.status, last.body]).toEqual([200, []])
    for (const query of ['page=2147483648', 'page=0', 'limit=501', 'limit=0']) expect((await api('GET', `/orders?${query}`)).status, query).toBe(400)
  })
})

describe('413 where the emulator answers it', () => {
  it('is declared on the operations that take a body, and the emulator’s answer is an ApiError', async () => {
    expect(operation('POST', '/orders').responses['413']).toEqual({ $ref: '#/components/responses/PayloadTooLarge' })
    expect(operation('POST', '/merchants/{merchantId}/files').responses['413']).toBeDefined()
    expect(operation('GET', '/orders').responses['413']).toBeUndefined()
    const big = await api('POST', '/orders', { CreateOnlineOrder: { amount: aud(100), description: 'x'.repeat(1_100_000) } })
    expect(big.status).toBe(413)
    expect(problems(answerSchema('POST', '/orders', '413'), big.body)).toEqual([])
  })
})

describe('what Redocly’s recommended rules found (its lint is run by hand: docs/emulator.md)', () => {
  it('no oneOf or anyOf of fewer than two schemas, and a licence with an SPDX identifier', () => {
    const lonely: string[] = []
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value))
        value.forEach((v, i) => {
          walk(v, `${at}[${i}]`)
        })
      else if (value && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          if ((key === 'oneOf' || key === 'anyOf') && Array.isArray(v) && v.length < 2) lonely.push(`${at}.${key}`)
          if (key !== 'example') walk(v, `${at}.${key}`)
        }
      }
    }
    walk(doc, '$')
    expect(lonely).toEqual([])
    expect(doc.info.license).toMatchObject({ name: expect.any(String), identifier: expect.any(String) })
  })
})
