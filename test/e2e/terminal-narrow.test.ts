// payfac at 80 and 200 columns, through tmux (its own server, -L): a list leaves out the same
// columns for one page and for --all and says which on stderr; doctor prints each failing
// check's fix in full below its table; help lines fit, cut between words; profiles list keeps
// the base URL; profiles add asks for a missing name; and bash completion, loaded from
// `payfac completion bash`, offers --status values and never fills in a lone `--`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN } from '../helpers/spawn-cli.js'
import { TMUX_MISSING, quote, tmuxServer, waitForPane } from '../helpers/tmux.js'

const terminals = tmuxServer(`payfac-narrow-${process.pid}`)
const tmux = terminals.run

let ctx: EmulatorEnv
let scratch: string
let session = 0

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  scratch = mkdtempSync(join(tmpdir(), 'payfac-narrow-'))
  // The list is newest first: one page holds small amounts only, the first page of --all also
  // the older, wide ones, which used to leave out other columns.
  for (let i = 0; i < 130; i += 1) {
    ctx.emulator.app.request('POST', '/orders', {
      credential: ctx.emulator.credentials.merchantSecretKey,
      body: {
        CreateOnlineOrder: {
          referenceOrderId: `narrow-${i}`,
          amount: { minorCurrencyUnits: i < 100 ? 123_456_789_012 : 1000 + i, currency: 'AUD' },
          description: `A rather long description of order ${i}`,
        },
      },
    })
  }
}, 60_000)

afterAll(async () => {
  terminals.kill()
  await ctx?.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** A new tmux session of `width` columns running an interactive bash in an empty folder, `payfac` a function. */
function terminal(width: number, extraEnv: Record<string, string> = {}) {
  if (!terminals.path) expect.fail(TMUX_MISSING)
  const name = `narrow${(session += 1)}`
  const home = mkdtempSync(join(scratch, 'cwd-'))
  tmux('new-session', '-d', '-s', name, '-x', String(width), '-y', '50', '-c', home, 'bash --norc --noprofile -i')
  const env = Object.entries({ ...ctx.env, NO_COLOR: undefined as string | undefined, ...extraEnv })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `export ${key}=${quote(value as string)}`)
  const keys = (...k: string[]) => void tmux('send-keys', '-t', name, ...k)
  const literal = (text: string) => keys('-l', '--', text)
  const type = (text: string) => {
    literal(text)
    keys('Enter')
  }
  type(`unset NO_COLOR CI PAYFAC_PROFILE; ${env.join('; ')}; payfac() { ${quote(process.execPath)} ${quote(BIN)} "$@"; }; clear`)
  const pane = () => tmux('capture-pane', '-p', '-J', '-t', name)
  const history = () => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', name)
  return { name, keys, literal, type, pane, history }
}

const done = (pane: () => string, marker: string) => waitForPane(pane, marker, (text) => new RegExp(`${marker}=\\d+`).test(text))
const exitOf = (text: string, marker: string) => Number(new RegExp(`${marker}=(\\d+)`).exec(text)?.[1])

describe.each([80, 200])('at %i columns (tmux)', (width) => {
  it('orders list and orders list --all show the same columns; hidden ones are named on stderr only at 80', async () => {
    const t = terminal(width)
    t.type(`clear; payfac orders list; echo PAGE=$?`)
    const pageTable = await done(t.pane, 'PAGE')
    t.type(`clear; payfac orders list --all; echo ALL=$?`)
    await done(t.pane, 'ALL')
    const allTable = t.history().split('\n')
    const header = (lines: string[]) =>
      lines
        .filter((l) => l.includes('Order ') && l.includes('Status'))
        .at(-1)
        ?.split(/\s*│\s*/)
        .filter(Boolean)
    expect(exitOf(pageTable, 'PAGE')).toBe(0)
    expect(header(allTable)).toEqual(header(pageTable.split('\n')))
    if (width === 80) {
      expect(header(pageTable.split('\n'))).not.toContain('Description')
      // The note is wrapped between words to the terminal's width: read it as one line.
      const unwrapped = (text: string) => text.replace(/\s*\n\s*/g, ' ')
      expect(unwrapped(pageTable)).toMatch(/\d+ columns? hidden: --wide shows them, --columns picks the columns \(.*Description.*\)/)
      expect(unwrapped(allTable.join('\n'))).toMatch(/\d+ columns? hidden: --wide shows them, --columns picks the columns \(.*Description.*\)/)
      for (const line of pageTable.split('\n')) expect(line.length, line).toBeLessThanOrEqual(width)
    } else {
      expect(header(pageTable.split('\n'))).toContain('Description')
      expect(pageTable).not.toContain('hidden: --wide')
    }
    for (const line of pageTable.split('\n').filter((l) => /[│┌└├]/.test(l))) expect(line.length, line).toBeLessThanOrEqual(width)
  }, 90_000)

  it("doctor prints each failing check's fix in full below the table", async () => {
    const t = terminal(width, { PAYFAC_BASE_URL: 'http://127.0.0.1:9' })
    t.type('clear; payfac doctor; echo DOCTOR=$?')
    const text = await done(t.pane, 'DOCTOR')
    expect(exitOf(text, 'DOCTOR')).toBe(7)
    const table = text.split('\n').filter((l) => /[│┌└├]/.test(l))
    expect(table.some((l) => l.includes('FAIL'))).toBe(true)
    for (const line of table) expect(line.length, line).toBeLessThanOrEqual(width)
    const below = text.split('\n').slice(text.split('\n').findIndex((l) => l.startsWith('└')))
    expect(below.join('\n')).toContain(
      'To fix service reachable: Check --base-url / PAYFAC_BASE_URL (http://127.0.0.1:9); for the emulator run `payfac emulator start`',
    )
  }, 40_000)

  it('help lines fit the terminal, long examples cut between words', async () => {
    const t = terminal(width)
    t.type('clear; payfac payto agree --help; payfac profiles add --help; echo HELP=$?')
    await done(t.pane, 'HELP')
    // capture-pane -J joins what the terminal wrapped: a longer line is one the terminal broke.
    for (const line of t
      .history()
      .split('\n')
      .filter((l) => !l.includes('HELP')))
      expect(line.length, line).toBeLessThanOrEqual(width)
    expect(t.history()).toContain('"Jo Citizen"')
    if (width === 80) expect(t.history()).toMatch(/ \\\n {6}\S/)
  }, 40_000)

  it('profiles list keeps the base URL whole', async () => {
    const dir = join(scratch, `profiles-${width}`)
    const t = terminal(width, { PAYFAC_CONFIG_DIR: dir })
    t.type(
      `clear; printf 'sandbox_sk_abcdefabcdef1234' | payfac profiles add sandbox-payments --environment sandbox --base-url https://sandbox.payments.example.com --credential-stdin >/dev/null 2>&1; payfac profiles list; echo LIST=$?`,
    )
    const text = await done(t.pane, 'LIST')
    expect(exitOf(text, 'LIST')).toBe(0)
    expect(text).toContain('https://sandbox.payments.example.com')
    expect(text).toContain('http://127.0.0.1:4010')
    if (width === 200) expect(text).toContain('sandbox_sk_…1234')
  }, 40_000)
})

describe('a person at a terminal (tmux)', () => {
  it('profiles add without a name asks for it, refusing a name the store would refuse', async () => {
    const dir = join(scratch, 'asked')
    const t = terminal(120, { PAYFAC_CONFIG_DIR: dir })
    t.type('clear; payfac profiles add --environment sandbox --base-url https://sandbox.example.com; echo ADD=$?')
    await waitForPane(t.pane, 'the name prompt', (s) => s.includes('Profile name'))
    t.type('bad name!')
    await waitForPane(t.pane, 'the refusal', (s) => s.includes('1 to 64 letters'))
    t.keys('C-u')
    t.type('asked-for')
    await waitForPane(t.pane, 'the credential prompt', (s) => s.includes('Credential (input hidden)'))
    t.type('sandbox_sk_typedAtThePrompt000e5f6')
    const text = await done(t.pane, 'ADD')
    expect(exitOf(text, 'ADD')).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')).profiles['asked-for']).toMatchObject({ baseUrl: 'https://sandbox.example.com' })
  }, 40_000)

  it('bash completion offers --status values, never fills in "--", and skips a flag already typed', async () => {
    const t = terminal(120)
    t.type('clear; source <(payfac completion bash); echo LOADED=$?')
    await done(t.pane, 'LOADED')
    t.literal('payfac orders list --status ')
    t.keys('Tab', 'Tab')
    const values = await waitForPane(t.pane, 'the status values', (s) => /pending\s+paid\s+cancelled|cancelled\s+paid\s+pending/.test(s))
    expect(values).not.toContain('--status --')
    t.literal('pa')
    t.keys('Tab')
    await waitForPane(t.pane, 'paid filled in', (s) => s.includes('payfac orders list --status paid '))
    t.literal('--st')
    t.keys('Tab', 'Tab')
    // --status is typed already: nothing to complete, the line stays as it was.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(t.pane()).toContain('payfac orders list --status paid --st')
    expect(t.pane()).not.toContain('--status paid --status')
    t.keys('C-u')
    t.literal('payfac orders get ')
    t.keys('Tab', 'Tab')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(t.pane()).toMatch(/payfac orders get \s*$/m)
    expect(t.pane()).not.toContain('orders get --')
    t.keys('C-u')
  }, 40_000)
})
