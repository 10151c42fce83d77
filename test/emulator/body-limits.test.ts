// An emulator that cannot be poisoned: bodies too deep or too large are refused (400/413, the
// ApiError shape) before anything is stored, so no request can make later ones fail, and memory
// stays bounded when a client sends large bodies again and again.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MAX_FORM_FIELD_BYTES,
  MAX_JSON_BODY_BYTES,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  MAX_STRING_CHARS,
  checkJsonLimits,
} from '../../src/emulator/body-limits.js'
import { createEmulatorApp, startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { KEYS, aud, ok, testApp } from './helpers.js'

/** An order whose metadata nests `depth` objects. */
function deepOrder(depth: number): string {
  return `{"CreateOnlineOrder":{"amount":{"minorCurrencyUnits":100,"currency":"AUD"},"metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`
}

function orderWithDescription(length: number): string {
  return JSON.stringify({ CreateOnlineOrder: { amount: aud(100), description: 'x'.repeat(length) } })
}

describe('the JSON limits, checked on the text', () => {
  it('passes what real bodies look like, escapes and nesting included', () => {
    expect(() => checkJsonLimits('{"a":[1,-2.5e3,true,false,null,"q\\"uote\\\\",{"b":{}}]}')).not.toThrow()
    expect(() => checkJsonLimits(deepOrder(MAX_JSON_DEPTH - 3))).not.toThrow()
  })

  it('refuses nesting past the depth limit with 400 json_too_deep, naming where', () => {
    expect(() => checkJsonLimits(deepOrder(MAX_JSON_DEPTH))).toThrow(expect.objectContaining({ status: 400, errorCode: 'json_too_deep' }))
    expect(() => checkJsonLimits('['.repeat(5000))).toThrow(expect.objectContaining({ errorCode: 'json_too_deep' }))
    let thrown: unknown
    try {
      checkJsonLimits(deepOrder(40))
    } catch (error) {
      thrown = error
    }
    expect((thrown as { detail?: string } | undefined)?.detail).toMatch(/^at CreateOnlineOrder\.metadata\.a\.a/)
  })

  it('refuses a string past the cap, a key too, and too many values, with 413', () => {
    expect(() => checkJsonLimits(orderWithDescription(MAX_STRING_CHARS))).not.toThrow()
    expect(() => checkJsonLimits(orderWithDescription(MAX_STRING_CHARS + 1))).toThrow(expect.objectContaining({ status: 413, errorCode: 'string_too_large' }))
    expect(() => checkJsonLimits(`{"${'k'.repeat(MAX_STRING_CHARS + 1)}":1}`)).toThrow(expect.objectContaining({ errorCode: 'string_too_large' }))
    expect(() =>
      checkJsonLimits(
        `[${Array(MAX_JSON_VALUES + 1)
          .fill(0)
          .join(',')}]`,
      ),
    ).toThrow(expect.objectContaining({ status: 413, errorCode: 'too_many_values' }))
    expect(() => checkJsonLimits(`{"a":"${'x'.repeat(MAX_JSON_BODY_BYTES)}"}`)).toThrow(
      expect.objectContaining({ status: 413, errorCode: 'payload_too_large' }),
    )
  })
})

describe('a poisoned request stores nothing and breaks nothing', () => {
  it('refuses metadata nested 5 000 deep before storing it; lists, state and persistence keep working', () => {
    const dir = mkdtempSync(join(tmpdir(), 'payfac-limits-'))
    const statePath = join(dir, 'state.json')
    const app = createEmulatorApp({ statePath })
    const before = app.store.orders.size
    const refused = app.request('POST', '/orders', { body: deepOrder(5_000) })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ statusCode: 400, errorCode: 'json_too_deep', tracer: expect.stringMatching(/^req_/) })
    expect(app.store.orders.size).toBe(before)

    ok(app.request('POST', '/orders', { body: { CreateOnlineOrder: { amount: aud(100), referenceOrderId: 'after-poison' } } }))
    expect(ok(app.request('GET', '/orders')).map((o: { referenceOrderId: string }) => o.referenceOrderId)).toContain('after-poison')
    expect(app.handle({ method: 'GET', url: '/__emulator/state', headers: {} }).status).toBe(200)
    expect(readFileSync(statePath, 'utf8')).toContain('after-poison')
  })

  it('refuses a too-deep value sent to the control plane too (a triggered event is delivered later)', () => {
    const app = testApp()
    const text = `{"eventType":"OrderCreated","data":${'['.repeat(100)}${']'.repeat(100)}}`
    const answer = app.handle({ method: 'POST', url: '/__emulator/trigger', headers: { 'content-type': 'application/json' }, body: text })
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body as string).errorCode).toBe('json_too_deep')
  })
})

describe('over HTTP', () => {
  let emulator: RunningEmulator
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 })
  })
  afterAll(async () => {
    await emulator.close()
  })

  const post = async (path: string, body: string | FormData, type?: string) => {
    const response = await fetch(`${emulator.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.merchantSecretKey}`, ...(type ? { 'content-type': type } : {}) },
      body,
    })
    return { status: response.status, body: (await response.json()) as any }
  }

  it('refuses a JSON body over 1 MB with 413 in the ApiError shape, while an upload may be larger', async () => {
    const big = await post('/orders', orderWithDescription(MAX_JSON_BODY_BYTES + 10), 'application/json')
    expect(big.status).toBe(413)
    expect(big.body).toMatchObject({ statusCode: 413, errorCode: 'payload_too_large', tracer: expect.stringMatching(/^req_/) })

    const form = new FormData()
    form.set('file', new Blob([Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2 * 1024 * 1024, 0x20)])], { type: 'application/pdf' }), 'large.pdf')
    const upload = await post('/merchants/mcht_LocalMerchant001/files', form)
    expect(upload.status, JSON.stringify(upload.body)).toBe(200)
  })

  it('refuses a form field over its cap with 413', async () => {
    const form = new FormData()
    form.set('file', new Blob([Buffer.from('%PDF-1.4\n')], { type: 'application/pdf' }), 'a.pdf')
    form.set('purpose', 'p'.repeat(MAX_FORM_FIELD_BYTES + 1))
    const answer = await post('/merchants/mcht_LocalMerchant001/files', form)
    expect(answer.status).toBe(413)
    expect(answer.body.errorCode).toBe('field_too_large')
  })

  it('keeps its memory bounded when large bodies come again and again', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const heap = () => {
      gc()
      gc()
      return process.memoryUsage().heapUsed
    }
    const baseline = heap()
    const rssBefore = process.memoryUsage.rss()
    // Twenty bodies of 3 MB (refused) and twenty orders at the string cap (accepted): a modest
    // version of twenty 11 MB orders, which once took the emulator from 174 MB to 1.1 GB.
    for (let i = 0; i < 20; i++) {
      expect((await post('/orders', orderWithDescription(3 * 1024 * 1024), 'application/json')).status).toBe(413)
      expect((await post('/orders', orderWithDescription(MAX_STRING_CHARS), 'application/json')).status).toBe(200)
    }
    const grown = heap() - baseline
    const rssGrown = process.memoryUsage.rss() - rssBefore
    // What is kept: twenty orders of 64 K characters (about 1.3 MB as strings) and a request log
    // of short snippets. Nothing near the 60 MB that was sent.
    expect(grown).toBeLessThan(16 * 1024 * 1024)
    expect(rssGrown).toBeLessThan(200 * 1024 * 1024)
  })
})
