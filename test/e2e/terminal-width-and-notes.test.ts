// At a real terminal, through tmux (its own server, -L): a terminal that reports 0
// columns (`stty cols 0`, as some `docker exec -t` and `script` sessions do) gets a table laid
// out at 80 columns, not its first column alone; and settlement reconcile with nothing to report
// says "All N records matched" where a person sees it, while piped stdout stays empty.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN } from '../helpers/spawn-cli.js'
import { TMUX_MISSING, quote, tmuxServer, waitForPane } from '../helpers/tmux.js'

const terminals = tmuxServer(`payfac-operator-${process.pid}`)
const tmux = terminals.run

let ctx: EmulatorEnv
let scratch: string
let session = 0

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  scratch = mkdtempSync(join(tmpdir(), 'payfac-operator-'))
  for (let i = 0; i < 3; i += 1) {
    ctx.emulator.app.request('POST', '/orders', {
      credential: ctx.emulator.credentials.merchantSecretKey,
      body: { CreateOnlineOrder: { referenceOrderId: `zero-cols-${i}`, amount: { minorCurrencyUnits: 1000 + i, currency: 'AUD' }, description: `Order ${i}` } },
    })
  }
}, 60_000)

afterAll(async () => {
  terminals.kill()
  await ctx?.close()
  rmSync(scratch, { recursive: true, force: true })
})

function terminal(width: number) {
  if (!terminals.path) expect.fail(TMUX_MISSING)
  const name = `operator${(session += 1)}`
  const home = mkdtempSync(join(scratch, 'cwd-'))
  tmux('new-session', '-d', '-s', name, '-x', String(width), '-y', '50', '-c', home, 'bash --norc --noprofile -i')
  const env = Object.entries({ ...ctx.env, NO_COLOR: '1' })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `export ${key}=${quote(value as string)}`)
  const type = (text: string) => {
    tmux('send-keys', '-t', name, '-l', '--', text)
    tmux('send-keys', '-t', name, 'Enter')
  }
  type(`unset CI PAYFAC_PROFILE; ${env.join('; ')}; payfac() { ${quote(process.execPath)} ${quote(BIN)} "$@"; }; clear`)
  const history = () => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', name)
  return { type, history }
}

describe('a terminal at work', () => {
  it('a terminal reporting 0 columns gets the table laid out at 80, not its first column alone', async () => {
    const t = terminal(120)
    t.type('stty cols 0; payfac orders list; echo "done=$?"')
    const text = await waitForPane(t.history, 'the orders table', (s) => /done=\d/.test(s))
    expect(text).toContain('done=0')
    const header = text.split('\n').find((line) => line.includes('Order') && line.includes('Amount'))
    expect(header, text).toBeDefined()
    expect(header).toContain('Status')
    expect(text).toContain('zero-cols-2')
  }, 30_000)

  it('reconcile with nothing to report says "All N records matched" on the terminal; piped, stdout is empty', async () => {
    const t = terminal(120)
    const month = new Date().toISOString().slice(0, 7)
    const token = 'TOKEN=$(payfac payto agree --name "Tmux Jo" --bban "062-000 12345678" --open --query token)'
    const approve = `payfac simulate SetPayToAgreementStatus --data "{\\"token\\":\\"$TOKEN\\",\\"status\\":\\"Active\\"}" > /dev/null`
    t.type(`${token}; ${approve}; payfac payto charge "$TOKEN" --amount 7 --currency AUD --reference tmux-charge > /dev/null 2>&1; echo "charged=$?"`)
    await waitForPane(t.history, 'the charge', (s) => /charged=\d/.test(s))
    expect(t.history()).toContain('charged=0')
    t.type(`payfac settlement reconcile --month ${month}; echo "shown=$?"`)
    const shown = await waitForPane(t.history, 'the verdict', (s) => /shown=\d/.test(s))
    expect(shown).toContain('shown=0')
    expect(shown).toMatch(/All \d+ records? matched \(\d+ settlement entr(y|ies)\): nothing to report\./)
    expect(shown).not.toContain('No records.')
    t.type(`payfac settlement reconcile --month ${month} 2>/dev/null | wc -c | sed 's/^ */bytes=/'`)
    const piped = await waitForPane(t.history, 'the piped run', (s) => /bytes=\d+/.test(s))
    expect(piped).toMatch(/bytes=0\b/)
  }, 60_000)
})
