// The OpenAPI document (issue 22): the one the build wrote is the one the client's schemas make,
// a validator accepts it, it holds every operation the emulator routes and every client method,
// and the golden request and answer payloads of test/fixtures pass its schemas (and broken ones
// do not). Needs `npm run build` (dist/openapi.json).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { validate } from '@readme/openapi-parser'
// ajv is the JSON Schema validator @readme/openapi-parser itself depends on; 2020-12 is the
// dialect of OpenAPI 3.1.
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'

import { createClient } from '../../src/client/index.js'
import { openApiDocument } from '../../src/client/openapi/document.js'
import { ALL_ROUTES } from '../../src/emulator/resources/index.js'
import type { RunningEmulator } from '../../src/emulator/index.js'
import { call, startTestEmulator } from '../emulator/integrators-helpers.js'
import { runCommand } from '../helpers/run-command.js'
import { spawnCli } from '../helpers/spawn-cli.js'

const ROOT = resolve(__dirname, '../..')
const FIXTURES = join(ROOT, 'test/fixtures')
const BUILT = join(ROOT, 'dist/openapi.json')
const CONTRACT: Array<[string, string]> = JSON.parse(readFileSync(join(FIXTURES, 'contract-operations.json'), 'utf8'))
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

type Doc = { paths: Record<string, Record<string, any>>; components: any; servers: any[] }

function built(): Doc {
  if (!existsSync(BUILT)) throw new Error('dist/openapi.json is missing: run npm run build first')
  return JSON.parse(readFileSync(BUILT, 'utf8')) as Doc
}

const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`

function operationsOf(doc: Doc): Array<{ key: string; op: any }> {
  return Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ key: shape(m, path), op: item[m] })))
}

describe('the OpenAPI document', () => {
  it('is the one the client’s schemas make (dist/openapi.json is built, not written by hand)', () => {
    expect(built()).toEqual(JSON.parse(JSON.stringify(openApiDocument())))
  })

  it('is valid OpenAPI 3.1 for @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(built()) as any)
    const errors = result.valid ? [] : result.errors
    expect(errors, JSON.stringify(errors, null, 2).slice(0, 2000)).toEqual([])
    expect(result.valid).toBe(true)
    expect(result.specification).toBe('OpenAPI')
  })

  it('is refused by the validator when broken (the validation can fail)', async () => {
    const doc = structuredClone(built()) as any
    doc.paths['/orders'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/NoSuchSchema' }
    expect((await validate(doc)).valid).toBe(false)
  })

  it('holds the 80 operations of the contract, each once, with a unique operationId', () => {
    const ops = operationsOf(built())
    expect(ops.map((o) => o.key).sort()).toEqual(CONTRACT.map(([m, p]) => shape(m, p)).sort())
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(80)
  })

  it('holds every route the emulator serves', () => {
    const documented = new Set(operationsOf(built()).map((o) => o.key))
    const missing = ALL_ROUTES.map((r) => shape(r.method, r.path)).filter((k) => !documented.has(k))
    expect(missing).toEqual([])
  })

  it('names every method of the client, and only methods it has', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', credential: 'sandbox_sk_openapi' }) as unknown as Record<string, unknown>
    const methods: string[] = []
    const walk = (value: Record<string, unknown>, at: string[]) => {
      for (const [name, member] of Object.entries(value)) {
        if (typeof member === 'function' && name !== 'iterate') methods.push([...at, name].join('.'))
        else if (member && typeof member === 'object' && !Array.isArray(member)) walk(member as Record<string, unknown>, [...at, name])
      }
    }
    for (const [group, resource] of Object.entries(client)) if (resource && typeof resource === 'object') walk(resource as Record<string, unknown>, [group])
    const named = operationsOf(built()).flatMap((o) => o.op['x-payfac-client'] as string[])
    expect(methods.length).toBeGreaterThanOrEqual(80)
    expect(methods.filter((m) => !named.includes(m))).toEqual([])
    expect(named.filter((m) => !methods.includes(m))).toEqual([])
  })

  it('gives lists their paging parameters and headers, repeatable filters as exploded arrays, and ApiError on errors', () => {
    const doc = built()
    const list = doc.paths['/orders']!.get
    expect(list.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['limit', 'page', 'sort', 'orderId']))
    expect(list.parameters.find((p: any) => p.name === 'orderId')).toMatchObject({ style: 'form', explode: true, schema: { type: 'array' } })
    expect(Object.keys(list.responses['200'].headers)).toEqual(['Page-Count', 'Total-Record-Count'])
    for (const { op } of operationsOf(doc)) expect(op.responses['409']).toEqual({ $ref: '#/components/responses/ApiError' })
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.servers.map((s: any) => s.description)).toEqual(['Sandbox', 'Production'])
  })

  it('offers every envelope variant of an action as oneOf, and says "not shown" where the contract does', () => {
    const schemas = built().components.schemas
    expect(schemas.UpdateTransactionRequest.oneOf.map((v: any) => v.required[0])).toEqual([
      'CreateRefund',
      'ReverseFundsTransfer',
      'TransferFunds',
      'CaptureFunds',
      'CancelAuthorisation',
    ])
    expect(schemas.NotShown).toMatchObject({ type: 'object', additionalProperties: {} })
    expect(schemas.NotShown.description).toMatch(/^Not shown by the contract/)
  })
})

describe('the golden payloads of test/fixtures pass their operation’s schema', () => {
  const doc = built()
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
  ajv.addSchema(doc as object, 'openapi')
  const check = (schema: { $ref: string }, value: unknown) => {
    const run = ajv.compile({ $ref: `openapi${schema.$ref}` })
    return run(value) ? [] : (run.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
  const answerOf = (method: string, path: string, status = '200') => {
    const response = doc.paths[path]![method]!.responses[status]
    const resolved = response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response
    return resolved.content['application/json'].schema
  }
  const requestOf = (method: string, path: string) => doc.paths[path]![method]!.requestBody.content['application/json'].schema
  const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))

  const answers: Array<[string, string, string, string?]> = [
    ['golden/agreement-sent.json', 'post', '/payto/agreement'],
    ['golden/api-error.json', 'post', '/orders/{orderId}/pay', '409'],
    ['golden/customer-upserted.json', 'post', '/customers'],
    ['golden/online-order.json', 'post', '/orders'],
    ['golden/pay-order-complete.json', 'post', '/orders/{orderId}/pay'],
    ['golden/payto-token.json', 'post', '/tokens'],
    ['golden/saved-payment-source.json', 'post', '/sources'],
    ['golden/sign-in-result.json', 'post', '/auth/signin'],
    ['golden/transaction-details-refunded.json', 'patch', '/transactions/{transactionId}'],
    ['golden/webhook-subscription.json', 'post', '/webhooks'],
  ]
  const requests: Array<[string, string, string]> = [
    ['plugin/register-customer.json', 'post', '/customers'],
    ['plugin/order-shipping-discount.json', 'post', '/orders'],
    ['plugin/order-virtual-goods.json', 'post', '/orders'],
  ]

  it('covers every fixture file', () => {
    const files = ['golden', 'plugin'].flatMap((dir) =>
      readdirSync(join(FIXTURES, dir))
        .filter((f) => f.endsWith('.json'))
        .map((f) => `${dir}/${f}`),
    )
    expect([...answers, ...requests].map(([f]) => f).sort()).toEqual(files.sort())
  })

  it.each(answers)('answer %s (%s %s)', (file, method, path, status) => {
    expect(check(answerOf(method, path, status), fixture(file))).toEqual([])
  })

  it.each(requests)('request %s (%s %s)', (file, method, path) => {
    expect(check(requestOf(method, path), fixture(file))).toEqual([])
  })

  it('refuses payloads the contract does not allow', () => {
    const order = fixture('plugin/order-virtual-goods.json')
    expect(check(requestOf('post', '/orders'), { ...order, CreatePayByLinkOrder: order.CreateOnlineOrder })).not.toEqual([])
    expect(check(requestOf('post', '/orders'), { CreateOnlineOrder: { ...order.CreateOnlineOrder, amount: undefined, surprise: 1 } })).not.toEqual([])
    expect(check(requestOf('post', '/orders'), { NoSuchAction: {} })).not.toEqual([])
    expect(check(answerOf('post', '/orders/{orderId}/pay'), { PayOrderComplete: {} })).not.toEqual([])
    expect(check(answerOf('post', '/orders'), { OnlineOrder: { order: { orderId: 'ordr_1' } } })).not.toEqual([])
  })
})

describe('the emulator serves the document', () => {
  let emulator: RunningEmulator
  beforeAll(async () => {
    emulator = await startTestEmulator()
  })
  afterAll(async () => emulator.close())

  it('at /__emulator/openapi.json, with its own address as the server', async () => {
    const answer = await call(emulator.url, 'GET', '/__emulator/openapi.json', { credential: null })
    expect(answer.status).toBe(200)
    const { servers, ...rest } = answer.body as Doc
    expect(servers).toEqual([{ url: emulator.url.replace(/\/$/, ''), description: 'This payfac emulator' }])
    const { servers: _contract, ...expected } = built()
    expect(rest).toEqual(expected)
  })
})

describe('payfac openapi', () => {
  it('prints the built document, as JSON and as YAML (spawned: the quick path before oclif)', async () => {
    const json = await spawnCli(['openapi'])
    expect(json.code, json.stderr).toBe(0)
    expect(json.stderr).toBe('')
    expect(JSON.parse(json.stdout)).toEqual(built())
    const yaml = await spawnCli(['openapi', '--yaml'])
    expect(yaml.code, yaml.stderr).toBe(0)
    expect(parseYaml(yaml.stdout)).toEqual(built())
  })

  it('runs as a command too (through oclif: flags parsed, a wrong one refused with exit 2)', async () => {
    const yaml = await runCommand(['openapi', '--yaml'])
    expect(yaml.code, yaml.stderr).toBe(0)
    expect(parseYaml(yaml.stdout)).toEqual(built())
    const wrong = await spawnCli(['openapi', '--yml'])
    expect(wrong.code).toBe(2)
    expect(wrong.stdout).toBe('')
  })
})
