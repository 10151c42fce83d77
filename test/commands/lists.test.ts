// `--all` against the emulator: a list that comes back short is exit 7 naming the page (or a
// warning with --allow-partial), a malformed page is exit 7, and orders created during the walk
// never make an order appear twice or go missing.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'

import { useEmulator } from '../helpers/command-harness.js'
import { runCommand } from '../helpers/run-command.js'

const { ctx, payfac } = useEmulator()

const ORDERS = 1600

const runWithEnv = (extra: Record<string, string>, ...argv: string[]) => runCommand(argv, { env: { ...ctx.env, ...extra } })

function createOrders(count: number, tag: string): string[] {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const answer = ctx.emulator.app.request('POST', '/orders', {
      body: { CreateOnlineOrder: { amount: { minorCurrencyUnits: 100 + i, currency: 'AUD' }, referenceOrderId: `${tag}-${i}` } },
    })
    ids.push((answer.body as { OnlineOrder: { order: { orderId: string } } }).OnlineOrder.order.orderId)
  }
  return ids
}

function addFault(fault: string): void {
  const answer = ctx.emulator.app.request('POST', '/__emulator/faults', { body: { pathPattern: '/orders', method: 'GET', fault } })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
}

/** The order ids of a CSV listing, in order. */
function csvIds(stdout: string): string[] {
  const [header, ...rows] = stdout.trim().split('\n')
  const column = (header ?? '').split(',').indexOf('orderId')
  expect(column).toBeGreaterThanOrEqual(0)
  return rows.map((row) => row.split(',')[column] as string)
}

/** Every order in the emulator, newest first (its default order), read in-process. */
function everyOrder(): string[] {
  const ids: string[] = []
  for (let page = 1; ; page++) {
    const items = ctx.emulator.app.request('GET', `/orders?limit=500&page=${page}`).body as Array<{ orderId: string }>
    ids.push(...items.map((o) => o.orderId))
    if (items.length < 500) return ids
  }
}

let existing: string[] = []
beforeAll(() => {
  createOrders(ORDERS, 'walk')
  existing = everyOrder()
  expect(existing.length).toBeGreaterThanOrEqual(ORDERS)
  expect(existing.length).toBeLessThanOrEqual(2000)
})

afterEach(() => {
  ctx.emulator.app.request('DELETE', '/__emulator/faults')
})

describe('orders list --all', () => {
  it('walks 500 a page and prints every order once', async () => {
    const result = await payfac('orders', 'list', '--all', '--csv')
    expect(result.code, result.stderr).toBe(0)
    const ids = csvIds(result.stdout)
    expect(ids).toEqual(existing)
    const log = ctx.emulator.app.request('GET', '/__emulator/requests?limit=10').body as Array<{ url: string }>
    // The walk's pages (the test's own reads carry no createdBefore).
    const pages = log.map((r) => new URL(r.url, 'http://x').searchParams).filter((q) => q.has('createdBefore'))
    expect(pages.map((q) => [q.get('limit'), q.get('page')])).toEqual([
      ['500', '1'],
      ['500', '2'],
      ['500', '3'],
      ['500', '4'],
    ])
    expect(new Set(pages.map((q) => q.get('createdBefore'))).size).toBe(1)
  })

  it('with the emulator answering an empty page 3 of 4, exits 7 naming page 3', async () => {
    addFault('empty-page=3')
    const result = await payfac('orders', 'list', '--all', '--csv')
    expect(result.code).toBe(7)
    expect(result.stderr).toMatch(/^Error: Page 3 of 4 had 0 records where 500 were promised/)
    expect(result.stderr).toMatch(/--allow-partial/)
    expect(csvIds(result.stdout)).toEqual(existing.slice(0, 1000))
  })

  it('with --allow-partial, prints what there is and warns on stderr', async () => {
    addFault('empty-page=3')
    const result = await payfac('orders', 'list', '--all', '--csv', '--allow-partial')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/^Warning: Page 3 of 4 had 0 records/)
    expect(csvIds(result.stdout)).toEqual([...existing.slice(0, 1000), ...existing.slice(1500)])
  })

  it('a malformed page is exit 7 naming the page, not a bug', async () => {
    addFault('malformed-page=2')
    const result = await payfac('orders', 'list', '--all', '--csv')
    expect(result.code).toBe(7)
    expect(result.stderr).toMatch(/^Error: Page 2 of \/orders is malformed/)
    expect(result.stderr).not.toMatch(/bug/)
  })

  it('with orders created during the walk, every order appears exactly once', async () => {
    // Each page is held back a little, and orders are created all the while.
    addFault('latency=30')
    let creating = true
    let created = 0
    const creator = (async () => {
      while (creating) {
        createOrders(7, `during-${created}`)
        created += 7
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    })()
    const result = await payfac('orders', 'list', '--all', '--csv', '--concurrency', '2')
    creating = false
    await creator
    expect(result.code, result.stderr).toBe(0)
    expect(created).toBeGreaterThan(0)
    const ids = csvIds(result.stdout)
    expect(new Set(ids).size).toBe(ids.length)
    // Exactly the orders that existed when the walk began (some were made while payfac started):
    // the oldest ones, newest first, with none missing and none twice.
    const all = everyOrder()
    expect(all.length).toBeGreaterThan(ids.length)
    expect(ids.length).toBeGreaterThanOrEqual(existing.length)
    expect(ids).toEqual(all.slice(all.length - ids.length))
  })
})

describe('--timeout', () => {
  it('refuses a timeout that is not a duration above zero, before sending anything', async () => {
    const before = (ctx.emulator.app.request('GET', '/__emulator/requests?limit=1000').body as unknown[]).length
    for (const value of ['0', '2x', '-1s']) {
      const result = await payfac('orders', 'list', '--timeout', value)
      expect(result.code, value).toBe(2)
      expect(result.stderr).toMatch(/--timeout takes a duration above 0/)
    }
    const bad = await runWithEnv({ PAYFAC_TIMEOUT: 'soon' }, 'orders', 'list')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^Error: PAYFAC_TIMEOUT takes a duration above 0/)
    const after = (ctx.emulator.app.request('GET', '/__emulator/requests?limit=1000').body as unknown[]).length
    expect(after).toBe(before)
  })

  it('takes PAYFAC_TIMEOUT, and --timeout over it', async () => {
    expect((await runWithEnv({ PAYFAC_TIMEOUT: '20s' }, 'orders', 'list', '--limit', '1')).code).toBe(0)
    expect((await runWithEnv({ PAYFAC_TIMEOUT: 'soon' }, 'orders', 'list', '--limit', '1', '--timeout', '20s')).code).toBe(0)
  })
})
