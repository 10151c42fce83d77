// The framework: router, pipeline steps, error builder, lists, ids, clock, persistence.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ACTIONS } from '../../src/client/schemas/actions.js'
import { EmulatorError, errorBody } from '../../src/emulator/api-error.js'
import { createEmulatorApp } from '../../src/emulator/app.js'
import { fakeClock, realClock } from '../../src/emulator/clock.js'
import { isId, randomIds, seededIds } from '../../src/emulator/ids.js'
import { paginate, parseListParams } from '../../src/emulator/lists.js'
import { loadState, saveState, STATE_FORMAT, StateFileError } from '../../src/emulator/persistence.js'
import { ALL_ROUTES } from '../../src/emulator/resources/index.js'
import { route, routeKey } from '../../src/emulator/route.js'
import { Router } from '../../src/emulator/router.js'
import { emptyStore } from '../../src/emulator/store.js'
import { CONTRACT_ROUTES, samplePath } from './contract-routes.js'
import { KEYS, MARKETPLACE, MERCHANT, SUB_MERCHANT, aud, ok, testApp } from './helpers.js'

describe('routes', () => {
  it('registers every operation of the contract, and nothing else', () => {
    expect(ALL_ROUTES.map(routeKey).sort()).toEqual([...CONTRACT_ROUTES].sort())
  })

  it('offers exactly the actions of the shared envelope table on every action route', () => {
    for (const [key, spec] of Object.entries(ACTIONS)) {
      const r = ALL_ROUTES.find((candidate) => routeKey(candidate) === key)
      expect(r, key).toBeDefined()
      if (spec === '*') expect(Object.keys(r?.actions ?? {}).length, key).toBeGreaterThan(0)
      else expect(Object.keys(r?.actions ?? {}).sort(), key).toEqual(Object.keys(spec).sort())
    }
  })

  it('answers every operation of the contract: never an unknown path, 405 or 501', () => {
    const app = testApp()
    for (const key of CONTRACT_ROUTES) {
      const [method, template] = key.split(' ') as [string, string]
      const response = app.request(method, samplePath(template), { body: method === 'GET' || method === 'DELETE' ? undefined : {} })
      // A 404 for the made-up id in the path is an answer; a 404 for the path itself is not.
      expect([405, 501], `${key} answered ${response.status}`).not.toContain(response.status)
      expect((response.body as { errorCode?: string }).errorCode, key).not.toBe('no_such_operation')
      if (response.status >= 400) expect(response.body, key).toMatchObject({ statusCode: response.status, tracer: response.headers['Request-Id'] })
    }
  })
})

describe('router', () => {
  const handle = () => 'ok'
  const router = new Router([
    route({ method: 'GET', path: '/customers/{customerId}', handle }),
    route({ method: 'GET', path: '/customers/delegates', handle }),
    route({ method: 'POST', path: '/customers/delegates', handle }),
    route({ method: 'DELETE', path: '/customers/delegates/{customerDelegateId}', handle }),
    route({ method: 'GET', path: '/merchants/{merchantId}', handle }),
    route({ method: 'PATCH', path: '/merchants/{merchantId}', handle }),
    route({ method: 'GET', path: '/merchants/industries', handle }),
  ])

  it('prefers a literal segment to a parameter', () => {
    expect(router.match('GET', '/customers/delegates').route.path).toBe('/customers/delegates')
    expect(router.match('GET', '/customers/cust_1').params).toEqual({ customerId: 'cust_1' })
    expect(router.match('GET', '/merchants/industries').route.path).toBe('/merchants/industries')
  })

  it('answers 405 with Allow for the most specific template instead of falling through', () => {
    const error = (() => {
      try {
        router.match('PATCH', '/merchants/industries')
      } catch (e) {
        return e as EmulatorError
      }
      return undefined
    })()
    expect(error?.status).toBe(405)
    expect(error?.headers.Allow).toBe('GET')
  })

  it('answers 404 for unknown paths, empty segments and bad escapes', () => {
    for (const path of ['/nope', '/customers/a/b/c', '/customers//x', '/customers/%E0%A4%A', '/']) {
      expect(() => router.match('GET', path), path).toThrow(expect.objectContaining({ status: 404 }))
    }
  })

  it('decodes path parameters and ignores a trailing slash', () => {
    expect(router.match('GET', '/customers/a%20b/').params.customerId).toBe('a b')
  })

  it('refuses two declarations of one operation', () => {
    expect(() => new Router([route({ method: 'GET', path: '/a/{x}', handle }), route({ method: 'GET', path: '/a/{y}', handle })])).toThrow()
  })
})

describe('pipeline', () => {
  it('puts a request id on every answer, and uses it as the tracer of errors', () => {
    const app = testApp()
    const good = app.request('GET', '/orders')
    const bad = app.request('GET', '/orders', { credential: null })
    expect(good.headers['Request-Id']).toMatch(/^req_[A-Za-z0-9_-]{16}$/)
    expect(bad.headers['Request-Id']).toMatch(/^req_/)
    expect(bad.body.tracer).toBe(bad.headers['Request-Id'])
  })

  it('refuses a missing, malformed, unknown or production credential with 401', () => {
    const app = testApp()
    for (const [credential, code] of [
      [null, 'missing_credential'],
      ['sandbox_sk_nobody', 'unknown_credential'],
      ['live_sk_something', 'wrong_environment'],
    ] as const) {
      const response = app.request('GET', '/orders', { credential })
      expect(response.status).toBe(401)
      expect(response.body).toMatchObject({ statusCode: 401, errorCode: code })
    }
    expect(app.handle({ method: 'GET', url: '/orders', headers: { authorization: 'Basic abc' } }).status).toBe(401)
  })

  it('checks the credential before the route', () => {
    expect(testApp().request('GET', '/no/such/path', { credential: null }).status).toBe(401)
  })

  it('refuses context headers naming entities the caller may not act for (403)', () => {
    const app = testApp()
    expect(app.request('GET', '/orders', { headers: { 'Merchant-Id': SUB_MERCHANT } }).status).toBe(403)
    expect(app.request('GET', '/orders', { headers: { 'Marketplace-Id': 'mktp_other0000000000' } }).status).toBe(403)
    expect(app.request('GET', '/orders', { headers: { 'Customer-Id': 'cust_nobody0000000000' } }).status).toBe(403)
    expect(app.request('GET', '/orders', { credential: KEYS.marketplaceApiKey, headers: { 'Merchant-Id': SUB_MERCHANT } }).status).toBe(200)
    expect(app.request('GET', '/orders', { credential: KEYS.marketplaceApiKey, headers: { 'Marketplace-Id': MARKETPLACE } }).status).toBe(200)
    expect(app.request('GET', '/orders', { headers: { 'Merchant-Id': MERCHANT } }).status).toBe(200)
  })

  it('refuses a credential kind the operation does not take (403)', () => {
    const response = testApp().request('GET', '/orders', { credential: KEYS.merchantPublicKey })
    expect(response.status).toBe(403)
    expect(response.body.errorCode).toBe('credential_not_allowed')
  })

  it('answers 400 for malformed JSON, a missing body and a non-JSON content type', () => {
    const app = testApp()
    expect(app.request('POST', '/orders', { body: '{"CreateOnlineOrder": ' }).body.errorCode).toBe('malformed_json')
    expect(app.request('POST', '/orders', {}).body.errorCode).toBe('missing_body')
    const xml = app.request('POST', '/orders', { body: '<order/>', headers: { 'content-type': 'application/xml' } })
    expect(xml.status).toBe(400)
    expect(xml.body.errorCode).toBe('unsupported_content_type')
  })

  it('accepts exactly one known action key in an envelope (400 otherwise)', () => {
    const app = testApp()
    const order = { amount: aud(100) }
    const bodies = [
      {},
      [],
      '"x"',
      'null',
      { CreateOnlineOrder: order, CreatePayByLinkOrder: order },
      { CreateOrder: order },
      '{"__proto__": {"amount": {"minorCurrencyUnits": 1, "currency": "AUD"}}}',
    ]
    for (const body of bodies) {
      const response = app.request('POST', '/orders', { body })
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(['invalid_envelope', 'unknown_action']).toContain(response.body.errorCode)
    }
  })

  it('validates action values with the shared schemas (unknown fields accepted and reported; refused when strict)', () => {
    const lenient = testApp().request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), colour: 'red' } } })
    expect(lenient.status).toBe(200)
    expect(lenient.headers['Emulator-Warning']).toContain('"CreateOnlineOrder.colour"')
    const strict = createEmulatorApp({ integrators: { strict: true } }).request('POST', '/orders', {
      body: { CreateOnlineOrder: { amount: aud(100), colour: 'red' } },
    })
    expect(strict.status).toBe(400)
    expect(strict.body.errorCode).toBe('invalid_request')
    expect(strict.body.message).toContain('colour')
  })

  it('validates with the emulator’s own schemas where the contract shows no fields', () => {
    const response = testApp().request('POST', '/simulation', { body: { AdvanceClock: { seconds: 'soon' } } })
    expect(response.status).toBe(400)
    expect(response.body.message).toContain('AdvanceClock.seconds')
  })

  it('answers 406 when the Accept header allows no JSON', () => {
    const response = testApp().request('GET', '/orders', { headers: { accept: 'text/html' } })
    expect(response.status).toBe(406)
    expect(response.headers['Content-Type']).toMatch(/^application\/json/)
  })

  it('turns an unexpected failure into a 500 ApiError', () => {
    const built = errorBody(new TypeError('boom'), 'req_x')
    expect(built.status).toBe(500)
    expect(built.body).toMatchObject({ statusCode: 500, errorCode: 'internal_error', tracer: 'req_x', detail: 'boom' })
  })
})

describe('lists', () => {
  const query = (text: string) => new URLSearchParams(text)
  const records = Array.from({ length: 45 }, (_, i) => ({ id: i, group: i % 3, createdAt: `2025-01-01T00:00:${String(i).padStart(2, '0')}.000Z` }))
  const options = {
    sortable: {
      createdAt: (r: (typeof records)[number]) => r.createdAt,
      group: (r: (typeof records)[number]) => r.group,
      id: (r: (typeof records)[number]) => r.id,
    },
    view: (r: (typeof records)[number]) => r.id,
  }

  it('defaults to 20 per page, page 1, newest first, with the totals in headers', () => {
    const reply = paginate(records, query(''), options)
    expect(reply.body).toEqual(Array.from({ length: 20 }, (_, i) => 44 - i))
    expect(reply.headers).toEqual({ 'Page-Count': '3', 'Total-Record-Count': '45' })
  })

  it('sorts by several fields, earlier first, - for descending', () => {
    const reply = paginate(records, query('sort=group,-id&limit=4'), options)
    expect(reply.body).toEqual([42, 39, 36, 33])
  })

  it('answers an empty page past the end', () => {
    const reply = paginate(records, query('page=4'), options)
    expect(reply.body).toEqual([])
    expect(reply.headers['Total-Record-Count']).toBe('45')
  })

  it('refuses bad limit, page and sort values', () => {
    for (const text of ['limit=0', 'limit=501', 'limit=ten', 'page=0', 'page=-1', 'page=1.5', 'sort=colour', 'sort=id,,group', 'limit=5&limit=6']) {
      expect(() => parseListParams(query(text), ['id', 'group']), text).toThrow(expect.objectContaining({ status: 400 }))
    }
    expect(parseListParams(query('limit=500&page=2147483647'), [])).toMatchObject({ limit: 500, page: 2147483647 })
  })
})

describe('ids and clock', () => {
  it('makes <prefix>_ + 16 URL-safe base64 characters', () => {
    const ids = randomIds()
    for (let i = 0; i < 50; i++) expect(ids.next('ordr')).toMatch(/^ordr_[A-Za-z0-9_-]{16}$/)
    expect(ids.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('takes an id of any length after its prefix (fixtures), as the contract calls ids opaque', () => {
    expect(isId('ordr_NoSuchOrderWithALongerId01', 'ordr')).toBe(true)
    expect(isId('ordr_x', 'ordr')).toBe(true)
    expect(isId('ordr_', 'ordr')).toBe(false)
    expect(isId('ordr_a/b', 'ordr')).toBe(false)
    expect(isId('tran_NoSuchOrderWithALongerId01', 'ordr')).toBe(false)
  })

  it('repeats a seeded sequence', () => {
    const a = seededIds('s')
    const b = seededIds('s')
    expect([a.next('x'), a.next('x'), a.secret(32)]).toEqual([b.next('x'), b.next('x'), b.secret(32)])
  })

  it('advances a fake clock and a real clock by an offset', () => {
    const fake = fakeClock('2025-01-01T00:00:00.000Z')
    fake.advance(2.5)
    expect(fake.now().toISOString()).toBe('2025-01-01T00:00:02.500Z')
    const real = realClock()
    real.advance(3600)
    expect(real.now().getTime() - Date.now()).toBeGreaterThan(3_590_000)
    expect(() => real.advance(-1)).toThrow()
  })
})

describe('seed', () => {
  it('holds the well-known marketplace, merchant, sub-merchant and keys', () => {
    const app = testApp()
    expect(app.store.merchants.get(MERCHANT)).toMatchObject({ marketplaceId: MARKETPLACE, publicKey: KEYS.merchantPublicKey, manualPayoutsEnabled: true })
    expect(app.store.merchants.get(MERCHANT)?.bankAccounts[0]?.isPrimary).toBe(true)
    expect(app.store.merchants.get(SUB_MERCHANT)?.marketplaceId).toBe(MARKETPLACE)
    for (const key of Object.values(KEYS)) expect(app.store.apiKeys.get(key)).toBeDefined()
    expect(JSON.stringify(testApp().store)).toBe(JSON.stringify(app.store))
  })
})

describe('persistence', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'payfac-emulator-'))

  it('saves after every change and loads it back, clock offset included', () => {
    const path = join(dir(), 'state.json')
    const clock = realClock()
    const first = createEmulatorApp({ statePath: path, clock })
    ok(first.request('POST', '/customers', { body: { UpsertConsumerCustomer: { emailAddress: 'a@example.com' } } }))
    ok(first.request('POST', '/simulation', { body: { AdvanceClock: { seconds: 600 } } }))
    const second = createEmulatorApp({ statePath: path })
    expect(second.store.customers.all().map((c) => c.emailAddress)).toEqual(['a@example.com'])
    expect(second.clock.offsetMs()).toBe(600_000)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ format: STATE_FORMAT, version: 1 })
  })

  it('writes through a temporary file and leaves none behind', () => {
    const folder = dir()
    const path = join(folder, 'state.json')
    saveState(path, emptyStore(), 0, new Date())
    saveState(path, emptyStore(), 0, new Date())
    expect(readdirSync(folder)).toEqual(['state.json'])
  })

  it('refuses a damaged file and leaves it untouched', () => {
    const path = join(dir(), 'state.json')
    for (const text of [
      '{"format": "payfac-emulator-state", "version": 1, "store": ',
      '[]',
      '{"format":"other","version":1,"store":{}}',
      '{"format":"payfac-emulator-state","version":1,"store":{"orders":[]}}',
    ]) {
      writeFileSync(path, text)
      expect(() => createEmulatorApp({ statePath: path }), text).toThrow(StateFileError)
      expect(() => createEmulatorApp({ statePath: path })).toThrow(/damaged/)
      expect(readFileSync(path, 'utf8')).toBe(text)
    }
  })

  it('refuses a file of a newer format version and leaves it untouched', () => {
    const path = join(dir(), 'state.json')
    const text = JSON.stringify({ format: STATE_FORMAT, version: 99, store: {} })
    writeFileSync(path, text)
    expect(() => loadState(path)).toThrow(/newer emulator/)
    expect(readFileSync(path, 'utf8')).toBe(text)
  })

  it('says clearly when the state file cannot be written', () => {
    expect(() => createEmulatorApp({ statePath: join(dir(), 'no', 'such', 'folder', 'state.json') })).toThrow(/Cannot write the state file/)
  })

  it('loads an older file that lacks later collections', () => {
    const path = join(dir(), 'state.json')
    writeFileSync(path, JSON.stringify({ format: STATE_FORMAT, version: 1, store: { orders: {} } }))
    expect(loadState(path)?.store.settlementEntries.all()).toEqual([])
  })
})

describe('api-error', () => {
  it('builds statusCode, errorCode, message, tracer, and the optional fields', () => {
    const built = errorBody(new EmulatorError(409, 'x_y', 'Nope', { detail: 'more' }), 'req_1')
    expect(built.body).toEqual({
      statusCode: 409,
      errorCode: 'x_y',
      message: 'Nope',
      tracer: 'req_1',
      detail: 'more',
      errorTypeDescription: expect.any(String),
    })
  })
})
