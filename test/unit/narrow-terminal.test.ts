// At 80 columns: a list table leaves out the same columns for one page and for --all (decided by
// the first 20 rows) and says which on the notice line; a later row with a wider whole cell keeps
// the line within the width; a column marked whole (a profile's base URL) is never cut; help
// examples are cut between words with a shell continuation.
import { describe, expect, it } from 'vitest'

import { renderList } from '../../src/output/render.js'
import { hiddenNotice } from '../../src/output/table.js'
import { defineView } from '../../src/output/view.js'
import { profileView, type ProfileRow } from '../../src/output/views/profiles.js'
import { wrapCommand } from '../../src/cli/terminal/help.js'
import { generate, options } from './output-collect.js'

interface Order {
  orderId: string
  status: string
  amount: { minorCurrencyUnits: number; currency: string }
  reference: string
  createdAt: string
  description: string
  email: string
}

const orderView = defineView<Order>({
  name: 'order',
  columns: [
    { key: 'orderId', header: 'Order' },
    { key: 'status', header: 'Status' },
    { key: 'amount', header: 'Amount', kind: 'money' },
    { key: 'reference', header: 'Reference' },
    { key: 'createdAt', header: 'Created', kind: 'date' },
    { key: 'description', header: 'Description' },
    { key: 'email', header: 'Customer email' },
  ],
})

/** Orders whose first 20 have small amounts; later ones (older, further down the list) large ones. */
const order = (i: number): Order => ({
  orderId: `ordr_${String(i).padStart(16, '0')}`,
  status: 'pending',
  amount: { minorCurrencyUnits: i < 20 ? 1000 + i : 123_456_789_012, currency: 'AUD' },
  reference: `ref-${i}`,
  createdAt: '2026-11-01T10:00:00Z',
  description: `A rather long description of order ${i} for the table`,
  email: `buyer${i}@example.com`,
})

/** The table of `count` orders: in one batch, or arriving in pages of `pageSize` (later rows drawn at the first page's widths). */
async function table(count: number, width = 80, pageSize?: number): Promise<{ lines: string[]; notices: string[] }> {
  const notices: string[] = []
  const o = options('table', { isTTY: true, color: false, width, notice: (line) => notices.push(line) })
  await renderList(orderView, pageSize ? generate(count, order, pageSize) : Array.from({ length: count }, (_, i) => order(i)), o)
  return { lines: o.text().split('\n').filter(Boolean), notices }
}

describe('a list table at 80 columns', () => {
  it('shows the columns one page shows when it holds every record (--all)', async () => {
    const page = await table(20)
    const all = await table(500)
    const headers = (line: string | undefined) => line?.trim().split(/\s{2,}/)
    expect(headers(all.lines[0])).toEqual(headers(page.lines[0]))
    expect(headers(page.lines[0])?.length).toBeLessThan(orderView.columns.length)
    expect(all.notices).toEqual(page.notices)
  })

  it('names the columns it left out, once, on the notice line', async () => {
    const { lines, notices } = await table(20)
    expect(lines[0]).not.toContain('Customer email')
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/^\d+ columns? hidden: --wide shows them, --columns picks the columns \(.*Customer email\)$/)
  })

  it('keeps every line within the width when a later page has a wider amount: the description gives up the room', async () => {
    const { lines } = await table(60, 100, 20)
    expect(lines[0]).toContain('Description')
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100)
    expect(lines.some((line) => line.includes('1234567890.12 AUD'))).toBe(true)
  })

  it('says nothing with --wide, or when every column fits', async () => {
    const wide: string[] = []
    await renderList(orderView, [order(1)], options('table', { isTTY: true, color: false, width: 80, wide: true, notice: (l) => wide.push(l) }))
    expect(wide).toEqual([])
    expect((await table(20, 400)).notices).toEqual([])
  })

  it('words the notice for one column and for several', () => {
    expect(hiddenNotice(['Fix'])).toBe('1 column hidden: --wide shows them, --columns picks the columns (Fix)')
    expect(hiddenNotice(['A', 'B', 'C'])).toBe('3 columns hidden: --wide shows them, --columns picks the columns (A, B, C)')
  })
})

describe('profiles list at 80 columns', () => {
  it('keeps the base URL whole, and gives up the key hint first', async () => {
    const rows: ProfileRow[] = [
      {
        name: 'sandbox-payments',
        active: true,
        environment: 'sandbox',
        baseUrl: 'https://sandbox.payments.example.com',
        credentialKind: 'merchant-secret-key',
        credential: 'sandbox_sk_…1234',
      },
      {
        name: 'local',
        active: false,
        environment: 'local',
        baseUrl: 'http://127.0.0.1:4010',
        credentialKind: 'merchant-secret-key',
        credential: 'sandbox_sk_…0001',
      },
    ]
    const notices: string[] = []
    const o = options('table', { isTTY: true, color: true, width: 80, notice: (l) => notices.push(l) })
    await renderList(profileView, rows, o)
    const text = o.text()
    expect(text).toContain('https://sandbox.payments.example.com')
    expect(text).toContain('sandbox-pay')
    expect(text).not.toContain('sandbox_sk_…1234')
    expect(notices[0]).toContain('(Credential')
  })
})

describe('help examples at 80 columns', () => {
  it('are cut between words, never inside a quoted word, with " \\" at the end of each cut line', () => {
    const line = `$ payfac payto agree --name "Jo Citizen" --bban "062-000 12345678" --amount 12.50 --currency AUD --purpose "Order inv-1001"`
    const lines = wrapCommand(line, 78)
    expect(lines.length).toBeGreaterThan(1)
    for (const part of lines) expect(part.length).toBeLessThanOrEqual(78)
    expect(lines.slice(0, -1).every((part) => part.endsWith(' \\'))).toBe(true)
    expect(lines.map((part) => part.replace(/ \\$/, '').trim()).join(' ')).toBe(line)
    expect(lines.join('\n')).toContain('"062-000 12345678"')
  })

  it('put a trailing comment on its own lines above the command', () => {
    const lines = wrapCommand('$ payfac profiles add sandbox    # on a terminal: asks for the environment, the base URL, then the credential', 60)
    expect(lines.at(-1)).toBe('$ payfac profiles add sandbox')
    expect(lines.slice(0, -1).every((part) => part.startsWith('# ') && part.length <= 60)).toBe(true)
  })

  it('leave a command that fits as it is', () => {
    expect(wrapCommand('$ payfac orders list', 78)).toEqual(['$ payfac orders list'])
  })
})
