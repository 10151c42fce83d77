// A walk that makes no progress stops at the page that shows it (issue 26, item 3): a page of
// records already delivered, or the same page twice, whether or not the service sends counts.
import { describe, expect, it } from 'vitest'

import { collect } from '../helpers/collect.js'

import { ListIntegrityError } from '../../src/client/errors.js'
import { type Page, iteratePages, toPage } from '../../src/client/pagination.js'

const full = (page: number, ids: string[], headers: Record<string, string> = {}): Page<{ id: string } | { n: number }> =>
  toPage(
    ids.map((id) => ({ id })),
    headers,
    { page, limit: ids.length },
  )

describe.concurrent('a walk that makes no progress', () => {
  it('stops at page 2 when the service answers the same page for ever without counts', async () => {
    const requested: number[] = []
    const fetchPage = async (page: number) => {
      requested.push(page)
      return full(page, ['a', 'b', 'c'])
    }
    const { items, error } = await collect(iteratePages(fetchPage, 1, { identify: (r) => (r as { id: string }).id, what: '/orders' }))
    expect(error).toBeInstanceOf(ListIntegrityError)
    expect((error as ListIntegrityError).page).toBe(2)
    expect((error as ListIntegrityError).reason).toBe('repeated-page')
    expect((error as Error).message).toBe('Page 2 of /orders repeated records already delivered (all 3 of them): the walk stopped')
    expect(items).toHaveLength(3)
    expect(Math.max(...requested)).toBeLessThanOrEqual(2)
  })

  it('stops at page 2 for records without identifiers when page 2 is page 1 again', async () => {
    const requested: number[] = []
    const fetchPage = async (page: number) => {
      requested.push(page)
      return toPage([{ n: 1 }, { n: 2 }], {}, { page, limit: 2 })
    }
    const { items, error } = await collect(iteratePages(fetchPage, 1, { what: '/things' }))
    expect((error as Error).message).toBe('Page 2 of /things repeated page 1: the walk stopped')
    expect(items).toEqual([{ n: 1 }, { n: 2 }])
    expect(Math.max(...requested)).toBeLessThanOrEqual(2)
  })

  it('stops when pages of records without identifiers alternate (A, B, A…), at the first page seen before', async () => {
    const requested: number[] = []
    const fetchPage = async (page: number) => {
      requested.push(page)
      return toPage(page % 2 === 1 ? [{ n: 1 }, { n: 2 }] : [{ n: 3 }, { n: 4 }], {}, { page, limit: 2 })
    }
    const { items, error } = await collect(iteratePages(fetchPage, 1, { what: '/things', concurrency: 1 }))
    expect((error as Error).message).toBe('Page 3 of /things repeated page 1: the walk stopped')
    expect(items).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }])
    expect(Math.max(...requested)).toBeLessThanOrEqual(3)
  })

  it('stops at a page of records already seen even when the counts promise more pages', async () => {
    const fetchPage = async (page: number) =>
      full(page, page === 3 ? ['p1a', 'p1b'] : [`p${page}a`, `p${page}b`], { 'page-count': '1000', 'total-record-count': '2000' })
    const { items, error } = await collect(iteratePages(fetchPage, 1, { identify: (r) => (r as { id: string }).id, concurrency: 1 }))
    expect((error as ListIntegrityError).page).toBe(3)
    expect((error as ListIntegrityError).reason).toBe('repeated-page')
    expect(items).toHaveLength(4)
  })

  it('goes on over a page that only partly repeats the one before (the list shifted)', async () => {
    const pages: Record<number, string[]> = { 1: ['a', 'b', 'c'], 2: ['c', 'd', 'e'], 3: ['f'] }
    const fetchPage = async (page: number) => full(page, pages[page] ?? [])
    const { items, error } = await collect(iteratePages(fetchPage, 1, { identify: (r) => (r as { id: string }).id }))
    expect(error).toBeUndefined()
    expect(items.map((r) => (r as { id: string }).id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
  })

  it('with allowPartial, warns and ends the walk instead of failing', async () => {
    const warnings: string[] = []
    const fetchPage = async (page: number) => full(page, ['a', 'b'])
    const { items, error } = await collect(
      iteratePages(fetchPage, 1, { identify: (r) => (r as { id: string }).id, allowPartial: true, onWarning: (m) => warnings.push(m) }),
    )
    expect(error).toBeUndefined()
    expect(items).toHaveLength(2)
    expect(warnings).toEqual(['Page 2 of the list repeated records already delivered (all 2 of them): the walk stopped'])
  })
})
