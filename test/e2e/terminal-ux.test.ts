// The terminal side of payfac through tmux (its own server, -L): tables that fit 80 and 200
// columns, one table for --all, progress on stderr while the data goes to a file, a prompt
// answered, the profiles add wizard with its hidden credential, and Ctrl-C at a prompt. The same
// commands without a terminal are at the end: they must not ask, and say which flags are missing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN, spawnCli } from '../helpers/spawn-cli.js'
import { quote, tmuxServer, waitForPane } from '../helpers/tmux.js'

const SOCKET = `payfac-ux-${process.pid}`
const terminals = tmuxServer(SOCKET)
const TMUX = terminals.path
const tmux = terminals.run
const ORDERS = 600

let ctx: EmulatorEnv
let scratch: string
let session = 0

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  scratch = mkdtempSync(join(tmpdir(), 'payfac-ux-tty-'))
  for (let i = 0; i < ORDERS; i += 1) {
    ctx.emulator.app.request('POST', '/orders', {
      credential: ctx.emulator.credentials.merchantSecretKey,
      body: {
        CreateOnlineOrder: {
          referenceOrderId: `tty-${i}`,
          amount: { minorCurrencyUnits: 1000 + i, currency: 'AUD' },
          description: `A rather long description of order ${i} for the table`,
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

/** A new tmux window of `width` columns running an interactive bash; returns its name. */
function terminal(
  width: number,
  extraEnv: Record<string, string> = {},
): { name: string; type: (text: string) => void; keys: (...keys: string[]) => void; pane: () => string } {
  if (!TMUX) expect.fail('tmux is not installed: these tests drive a real terminal (install it, e.g. apt-get install tmux)')
  const name = `ux${(session += 1)}`
  tmux('new-session', '-d', '-s', name, '-x', String(width), '-y', '50', 'bash --norc --noprofile -i')
  const env = Object.entries({ ...ctx.env, NO_COLOR: undefined as string | undefined, ...extraEnv })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `export ${key}=${quote(value as string)}`)
  tmux('send-keys', '-t', name, '-l', `unset NO_COLOR CI PAYFAC_PROFILE; ${env.join('; ')}; payfac() { ${quote(process.execPath)} ${quote(BIN)} "$@"; }; clear`)
  tmux('send-keys', '-t', name, 'Enter')
  return {
    name,
    type: (text) => {
      tmux('send-keys', '-t', name, '-l', text)
      tmux('send-keys', '-t', name, 'Enter')
    },
    keys: (...keys) => {
      tmux('send-keys', '-t', name, ...keys)
    },
    pane: () => tmux('capture-pane', '-p', '-J', '-t', name),
  }
}

const waitFor = (pane: () => string, what: string, test: (text: string) => boolean, ms = 20_000) => waitForPane(pane, what, test, ms)

const exitOf = (text: string) => Number(/EXIT=(\d+)/.exec(text)?.[1])

describe('tables on a terminal (tmux)', () => {
  it.each([80, 200])(
    'fit %i columns: orders, transactions and merchants lists, one line a row',
    async (width) => {
      const t = terminal(width)
      const marketplace = ctx.emulator.credentials.marketplaceApiKey
      t.type(`clear; payfac orders list; payfac transactions list; PAYFAC_API_KEY=${marketplace} payfac merchants list; echo EXIT=$?`)
      const text = await waitFor(t.pane, 'the exit status', (s) => /EXIT=\d+/.test(s))
      expect(exitOf(text)).toBe(0)
      // capture-pane -J joins wrapped lines: a line longer than the width is a row that wrapped.
      const lines = text.split('\n')
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width)
      expect(lines.filter((l) => l.startsWith('┌'))).toHaveLength(2) // orders and merchants (no transactions yet)
      const ordersHeader = lines.find((l) => l.includes('Order ') && l.includes('Status')) as string
      if (width === 80) expect(ordersHeader).not.toContain('Description')
      else expect(ordersHeader).toContain('Description')
    },
    40_000,
  )

  it('--all draws one table, with every order in it', async () => {
    const t = terminal(120)
    t.type(`clear; payfac orders list --all --limit 100 > /dev/tty; echo EXIT=$?`)
    await waitFor(t.pane, 'the exit status', (s) => /EXIT=\d+/.test(s))
    const history = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', t.name)
    expect(history.split('\n').filter((l) => l.startsWith('┌'))).toHaveLength(1)
    expect(history.split('\n').filter((l) => l.startsWith('└'))).toHaveLength(1)
    expect(history.split('\n').filter((l) => l.startsWith('│ ordr_')).length).toBe(ORDERS)
  }, 60_000)

  it('shows progress on stderr while --all goes to a file, and clears it at the end', async () => {
    const t = terminal(120)
    const file = join(scratch, 'orders.csv')
    t.type(`clear; payfac orders list --all --limit 5 --csv > ${quote(file)}; echo EXIT=$?`)
    const during = await waitFor(t.pane, 'the progress line', (s) => /Fetched page \d+ of \d+ \(\d+ of \d+ records\)/.test(s) || /EXIT=\d+/.test(s))
    expect(during).toMatch(new RegExp(`Fetched page \\d+ of ${ORDERS / 5} \\(\\d+ of ${ORDERS} records\\)`))
    const done = await waitFor(t.pane, 'the exit status', (s) => /EXIT=\d+/.test(s), 60_000)
    expect(exitOf(done)).toBe(0)
    expect(done).not.toContain('Fetched page')
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(ORDERS + 1)
  }, 90_000)
})

describe('prompts on a terminal (tmux)', () => {
  it('asks for the currency, amount and reference of an order, on stderr, and creates it', async () => {
    const t = terminal(120)
    t.type('clear; payfac orders create -q; echo EXIT=$?')
    await waitFor(t.pane, 'the currency prompt', (s) => s.includes('Currency (ISO 4217'))
    t.type('AUD')
    await waitFor(t.pane, 'the amount prompt', (s) => s.includes('Amount in AUD'))
    t.type('12.505')
    await waitFor(t.pane, 'the refusal of 3 decimals', (s) => /3 decimal|decimal places/.test(s))
    t.keys('C-u')
    t.type('12.50')
    await waitFor(t.pane, 'the reference prompt', (s) => s.includes('Your reference for the order'))
    t.type('typed-at-the-prompt')
    const done = await waitFor(t.pane, 'the exit status', (s) => /EXIT=\d+/.test(s))
    expect(exitOf(done)).toBe(0)
    const id = /^(ordr_\S+)$/m.exec(done)?.[1] as string
    expect(id).toBeDefined()
    const order = await spawnCli(['orders', 'get', id, '--json'], { env: ctx.env })
    expect(JSON.parse(order.stdout)).toMatchObject({ referenceOrderId: 'typed-at-the-prompt', amount: { minorCurrencyUnits: 1250, currency: 'AUD' } })
  }, 40_000)

  it('profiles add: asks the environment and base URL, refuses http for production before the secret, then hides the secret', async () => {
    const dir = join(scratch, 'wizard')
    const t = terminal(120, { PAYFAC_CONFIG_DIR: dir })
    const secret = 'live_sk_typedIntoTheWizard00000a9b8'
    t.type('clear; payfac profiles add prod; echo EXIT=$?')
    await waitFor(t.pane, 'the environment choice', (s) => s.includes('Environment'))
    t.keys('Down')
    t.keys('Enter')
    await waitFor(t.pane, 'the base URL prompt', (s) => s.includes('Base URL of the service'))
    t.type('http://payments.example.com')
    await waitFor(t.pane, 'the https refusal', (s) => s.includes('must use https://'))
    expect(t.pane()).not.toContain('Credential')
    t.keys('C-u')
    t.type('https://payments.example.com')
    await waitFor(t.pane, 'the hidden credential prompt', (s) => s.includes('Credential (input hidden)'))
    t.type(secret)
    const done = await waitFor(t.pane, 'the exit status', (s) => /EXIT=\d+/.test(s))
    expect(exitOf(done)).toBe(0)
    expect(done).not.toContain(secret)
    expect(done).toContain('live_sk_…a9b8')
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).toContain('"baseUrl": "https://payments.example.com"')
  }, 40_000)

  it('Ctrl-C at a prompt exits 130 with one short line, and sends nothing', async () => {
    const t = terminal(120)
    const before = (await spawnCli(['orders', 'list', '--json', '--limit', '1'], { env: ctx.env })).stdout
    t.type('clear; payfac orders create; echo EXIT=$?')
    await waitFor(t.pane, 'the currency prompt', (s) => s.includes('Currency (ISO 4217'))
    t.keys('C-c')
    const done = await waitFor(t.pane, 'the exit status', (s) => /EXIT=\d+/.test(s))
    expect(exitOf(done)).toBe(130)
    expect(done).toContain('Error: Interrupted at the prompt; nothing was sent or saved')
    expect(done).not.toMatch(/force closed|bug|\n\s+at /)
    expect((await spawnCli(['orders', 'list', '--json', '--limit', '1'], { env: ctx.env })).stdout).toBe(before)
  }, 40_000)
})

describe('the same commands without a terminal', () => {
  it('never ask: a missing input is exit 2 naming the flags, with nothing on stdout', async () => {
    const order = await spawnCli(['orders', 'create'], { env: ctx.env })
    expect(order.code).toBe(2)
    expect(order.stderr).toContain('--amount, --currency and --reference')
    expect(order.stdout).toBe('')
    const agree = await spawnCli(['payto', 'agree', '--name', 'Jo', '--amount', '1', '--currency', 'AUD'], { env: ctx.env })
    expect(agree.code).toBe(2)
    expect(agree.stderr).toContain('--bban')
    const profile = await spawnCli(['profiles', 'add', 'x'], { env: { ...ctx.env, PAYFAC_CONFIG_DIR: join(scratch, 'none') } })
    expect(profile.code).toBe(2)
    expect(profile.stderr).toContain('--environment and --base-url')
  })

  it('print tab-separated tables with no box or colour, and no progress', async () => {
    const result = await spawnCli(['orders', 'list', '--all', '--limit', '100'], { env: { ...ctx.env, NO_COLOR: undefined } })
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n')[0]).toBe('Order\tStatus\tAmount\tTransaction\tReference\tCreated\tDescription\tCustomer email')
    expect(result.stdout).not.toMatch(/[┌│─]|\u001b\[/)
    expect(result.stderr).toBe('')
  })
})
