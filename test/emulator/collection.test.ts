// The indexed collection against a naive scan: every query, sort and page gives the records a
// plain filter-and-sort of all of them gives, after inserts, in-place changes of indexed fields
// (with reindex), replacements, time changes and deletes.
import { describe, expect, it } from 'vitest'
import { Collection, type Query } from '../../src/emulator/collection.js'
import { paginate, type ListOptions } from '../../src/emulator/lists.js'

interface Row {
  id: string
  merchantId: string
  status: string
  reference: string | null
  amount: number
  createdAt: string
}

/** A small deterministic PRNG (mulberry32), so a failure repeats. */
function prng(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const MERCHANTS = ['m1', 'm2', 'm3']
const STATUSES = ['pending', 'paid', 'cancelled']

function rows() {
  return new Collection<Row>({
    indexes: { merchantId: (r) => r.merchantId, status: (r) => r.status, reference: (r) => r.reference },
  })
}

const options: ListOptions<Row, Row> = {
  sortable: { createdAt: (r) => r.createdAt, amount: (r) => r.amount, reference: (r) => r.reference, status: (r) => r.status },
  view: (r) => r,
}

/** What the old code did: every record in creation order, filtered, then `paginate` sorts and cuts. */
function naive(collection: Collection<Row>, q: Query<Row>): Row[] {
  return collection.all().filter(
    (r) =>
      (q.ids === undefined || q.ids.includes(r.id)) &&
      Object.entries(q.where ?? {}).every(([name, keys]) => {
        if (keys === undefined) return true
        const value = name === 'merchantId' ? r.merchantId : name === 'status' ? r.status : r.reference
        return value !== null && keys.includes(value)
      }) &&
      (q.after === undefined || r.createdAt >= q.after) &&
      (q.before === undefined || r.createdAt < q.before) &&
      (q.filter === undefined || q.filter(r)),
  )
}

function page(records: readonly Row[] | ReturnType<Collection<Row>['select']>, query: string) {
  const reply = paginate(records, new URLSearchParams(query), options)
  return { ids: (reply.body as Row[]).map((r) => r.id), headers: reply.headers }
}

const time = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString()

function randomQuery(random: () => number, ids: string[]): Query<Row> {
  const pick = <T>(list: readonly T[]) => list.filter(() => random() < 0.5)
  const q: Query<Row> = { where: {} }
  if (random() < 0.15) q.ids = [...pick(ids).slice(0, 5), 'r_missing']
  if (random() < 0.5) q.where!.merchantId = pick(MERCHANTS)
  if (random() < 0.3) q.where!.status = pick(STATUSES)
  if (random() < 0.2) q.where!.reference = ['ref-1', 'ref-2', 'ref-3']
  if (random() < 0.3) q.after = time(Math.floor(random() * 200))
  if (random() < 0.3) q.before = time(Math.floor(random() * 200))
  if (random() < 0.2) {
    const min = Math.floor(random() * 500)
    q.filter = (r) => r.amount >= min
    q.filterKey = String(min)
  }
  return q
}

const QUERIES = [
  '',
  'limit=7',
  'limit=7&page=2',
  'limit=5&page=40',
  'sort=createdAt&limit=9&page=2',
  'sort=-createdAt&limit=9',
  'sort=-amount,reference&limit=8&page=3',
  'sort=status,-createdAt&limit=500',
  'sort=reference',
]

describe('an indexed collection', () => {
  it('answers every query, sort and page as a naive scan does, through inserts (one by one and in bulk), changes and deletes', () => {
    const random = prng(13)
    const c = rows()
    const ids: string[] = []
    let next = 0
    const insert = () => {
      const id = `r_${next++}`
      ids.push(id)
      // Times repeat (ties) and are not in creation order.
      c.set(id, {
        id,
        merchantId: MERCHANTS[Math.floor(random() * 3)] as string,
        status: STATUSES[Math.floor(random() * 3)] as string,
        reference: random() < 0.3 ? null : `ref-${Math.floor(random() * 6)}`,
        amount: Math.floor(random() * 1000),
        createdAt: time(Math.floor(random() * 200)),
      })
    }
    for (let round = 0; round < 12; round++) {
      // Every other round adds in bulk (runs put back in order once, at the end).
      if (round % 2 === 0) c.bulk(() => Array.from({ length: 40 }, insert))
      else for (let i = 0; i < 40; i++) insert()
      for (let i = 0; i < 15; i++) {
        const id = ids[Math.floor(random() * ids.length)] as string
        const row = c.get(id)
        if (!row) continue
        const change = random()
        if (change < 0.3) {
          row.status = STATUSES[Math.floor(random() * 3)] as string
          row.reference = random() < 0.5 ? null : `ref-${Math.floor(random() * 6)}`
          c.reindex(id)
        } else if (change < 0.5) {
          row.createdAt = time(Math.floor(random() * 200))
          c.reindex(id)
        } else if (change < 0.7) {
          c.set(id, { ...row, merchantId: MERCHANTS[Math.floor(random() * 3)] as string, amount: Math.floor(random() * 1000) })
        } else {
          c.delete(id)
        }
      }
      for (let n = 0; n < 25; n++) {
        const q = randomQuery(random, ids)
        const expected = naive(c, q)
        const selection = c.select(q)
        expect(selection.total).toBe(expected.length)
        for (const query of QUERIES) {
          expect(page(c.select(q), query), `${JSON.stringify({ ...q, filter: q.filterKey })} ${query}`).toEqual(page(expected, query))
        }
        expect([...c.scan(q)].map((r) => r.id).sort()).toEqual(expected.map((r) => r.id).sort())
      }
    }
  })

  it('keeps pages of a cached sort right after a record changes', () => {
    const c = rows()
    for (let i = 0; i < 30; i++) c.set(`r_${i}`, { id: `r_${i}`, merchantId: 'm1', status: 'pending', reference: null, amount: i, createdAt: time(i) })
    const first = page(c.select({ where: { merchantId: ['m1'] } }), 'sort=-amount&limit=3')
    expect(first.ids).toEqual(['r_29', 'r_28', 'r_27'])
    const row = c.get('r_0') as Row
    row.amount = 100
    c.touch()
    expect(page(c.select({ where: { merchantId: ['m1'] } }), 'sort=-amount&limit=3').ids).toEqual(['r_0', 'r_29', 'r_28'])
  })

  it('finds records by index key, and leaves null keys out of the index', () => {
    const c = rows()
    c.set('a', { id: 'a', merchantId: 'm1', status: 'paid', reference: null, amount: 1, createdAt: time(2) })
    c.set('b', { id: 'b', merchantId: 'm1', status: 'paid', reference: 'x', amount: 2, createdAt: time(1) })
    expect(c.byIndex('status', 'paid').map((r) => r.id)).toEqual(['b', 'a'])
    expect(c.select({ where: { reference: ['x', 'null'] } }).total).toBe(1)
    expect(c.select({ where: { merchantId: [] } }).total).toBe(0)
  })

  it('answers an index key in creation order or timeline order, and the ids of several keys', () => {
    const c = rows()
    c.set('a', { id: 'a', merchantId: 'm1', status: 'paid', reference: null, amount: 1, createdAt: time(2) })
    c.set('b', { id: 'b', merchantId: 'm2', status: 'paid', reference: null, amount: 2, createdAt: time(1) })
    c.set('c', { id: 'c', merchantId: 'm1', status: 'paid', reference: null, amount: 3, createdAt: time(0) })
    expect(c.byIndex('status', 'paid', 'creation').map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(c.byIndex('status', 'paid').map((r) => r.id)).toEqual(['c', 'b', 'a'])
    expect(c.idsByIndex('merchantId', ['m2', 'm1', 'm3'])).toEqual(['b', 'c', 'a'])
  })

  it('tells its watchers of each new record, and of every removal, replacement or change in place', () => {
    const c = rows()
    const seen: string[] = []
    c.watch({ added: (r) => seen.push(`+${r.id}`), rewritten: () => seen.push('~') })
    const a: Row = { id: 'a', merchantId: 'm1', status: 'paid', reference: null, amount: 1, createdAt: time(2) }
    c.set('a', a)
    c.bulk(() => c.set('b', { ...a, id: 'b', createdAt: time(1) }))
    c.touch()
    c.reindex('a')
    c.set('a', { ...a, amount: 5 })
    c.delete('b')
    c.clear()
    expect(seen).toEqual(['+a', '+b', '~', '~', '~', '~'])
  })

  it('writes itself as JSON in creation order and reads that back', () => {
    const c = rows()
    c.set('b', { id: 'b', merchantId: 'm1', status: 'paid', reference: null, amount: 1, createdAt: time(9) })
    c.set('a', { id: 'a', merchantId: 'm2', status: 'paid', reference: null, amount: 2, createdAt: time(1) })
    const text = JSON.stringify(c)
    expect(Object.keys(JSON.parse(text))).toEqual(['b', 'a'])
    const back = rows()
    expect(back.load(JSON.parse(text))).toBe(true)
    expect(back.all()).toEqual(c.all())
    expect(back.load([])).toBe(false)
  })
})
