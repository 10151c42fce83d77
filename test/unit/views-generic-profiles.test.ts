import { describe, expect, it } from 'vitest'
import { renderList, renderRecord } from '../../src/output/render.js'
import { GENERIC_LIST_COLUMNS, genericView, profileView, rawView, type ProfileRow } from '../../src/output/views/index.js'
import { ANSI, options } from './output-collect.js'

describe('rawView (generic)', () => {
  const record = {
    id: 'webhook_1',
    url: 'https://example.com/hook',
    events: ['MerchantCreated'],
    amount: { minorCurrencyUnits: 990, currency: 'USD' },
    config: { retries: 3 },
    a: 1,
    b: true,
    c: null,
    d: 'four',
    e: 5,
    f: 'six',
    g: 'seven',
  }

  it(`lists the first ${GENERIC_LIST_COLUMNS} top-level scalar or money fields, headed by their names`, async () => {
    const o = options('table')
    await renderList(rawView, [record], o)
    const [header, line] = o.text().split('\n')
    expect(header?.split(/\s+/)).toEqual(['id', 'url', 'amount', 'a', 'b', 'c', 'd', 'e'])
    expect(line).toMatch(/^webhook_1\s+https:\/\/example\.com\/hook\s+9\.90 USD\s+1\s+true\s+-\s+four\s+5$/)
  })

  it('details every top-level field', async () => {
    const o = options('table')
    await renderRecord(rawView, record, o)
    expect(o.text()).toContain('events  MerchantCreated')
    expect(o.text()).toContain('config  {"retries":3}')
    expect(o.text()).toContain('g       seven')
  })

  it('takes --columns from the field names', async () => {
    const o = options('table', { columns: ['url', 'config'] })
    await renderRecord(rawView, record, o)
    expect(o.text()).toBe('url     https://example.com/hook\nconfig  {"retries":3}\n')
  })

  it('shows an array answer as a list, and a scalar as one value', async () => {
    const list = options('table')
    await renderRecord(
      rawView,
      [
        { id: 'x', n: 1 },
        { id: 'y', n: 2 },
      ],
      list,
    )
    expect(list.text()).toBe('id\tn\nx\t1\ny\t2\n')
    const scalar = options('table')
    await renderRecord(rawView, 'ok', scalar)
    expect(scalar.text()).toBe('value  ok\n')
  })

  it('writes nested fields as dot-path CSV columns', async () => {
    const o = options('csv')
    await renderList(genericView('thing'), [{ id: 'x', amount: { minorCurrencyUnits: 5, currency: 'JPY' }, deep: { a: { b: 1 } }, tags: [1, 2] }], o)
    expect(o.text()).toBe('id,amount.minorCurrencyUnits,amount.currency,deep.a.b,tags\nx,5,JPY,1,"[1,2]"\n')
  })
})

describe('profileView', () => {
  const row: ProfileRow = {
    name: 'sandbox',
    active: true,
    source: 'stored',
    environment: 'sandbox',
    baseUrl: 'https://sandbox.example.com',
    credentialKind: 'merchant-secret-key',
    credential: 'sandbox_sk_…a1b2',
    merchantId: 'mcht_Dev0000000000001',
  }

  it('lists profiles with the active one marked and the credential masked', async () => {
    const o = options('table')
    await renderList(profileView, [row, { ...row, name: 'other', active: false }], o)
    const lines = o.text().trimEnd().split('\n')
    expect(lines[0]).toMatch(/^Active\s+Name\s+Environment\s+Base URL\s+Credential kind\s+Credential$/)
    expect(lines[1]).toMatch(/^\*\s+sandbox\s+sandbox\s+https:\/\/sandbox\.example\.com\s+merchant-secret-key\s+sandbox_sk_…a1b2$/)
    expect(lines[2]?.startsWith('\tother\t')).toBe(true)
  })

  it('refuses to show a credential that was not masked, in tables and CSV', async () => {
    const leaked = { ...row, credential: 'sandbox_sk_wholeSecretValue' }
    for (const format of ['table', 'csv'] as const) {
      const o = options(format)
      await renderList(profileView, [leaked], o)
      expect(o.text()).not.toContain('wholeSecretValue')
      expect(o.text()).toContain('(hidden)')
    }
  })

  it('details the context ids and where the profile comes from', async () => {
    const o = options('table', { isTTY: true })
    await renderRecord(profileView, row, o)
    expect(o.text()).toContain('Merchant')
    expect(o.text()).toContain('mcht_Dev0000000000001')
    expect(o.text()).toContain('stored')
    expect(o.text()).not.toMatch(ANSI)
  })
})
