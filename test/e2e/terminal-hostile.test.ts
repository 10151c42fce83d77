// Through a real terminal (tmux, its own server -L): the bytes payfac writes to the pane are
// captured with pipe-pane. `--json` on a terminal escapes the C1 and bidi controls of the
// service's data (still valid JSON), TERM=dumb gets no colour, a C locale gets ASCII borders.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN } from '../helpers/spawn-cli.js'
import { quote, TMUX_MISSING, tmuxServer, waitForPane } from '../helpers/tmux.js'

const terminals = tmuxServer(`payfac-hostile-${process.pid}`)
const tmux = terminals.run
const SESSION = 'hostile'
const DESCRIPTION = 'Coffee \u009b2J then \u202egnp.exe \u001b]52;c;eA==\u0007'

let ctx: EmulatorEnv
let scratch: string
let orderId: string

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  scratch = mkdtempSync(join(tmpdir(), 'payfac-hostile-tty-'))
  const created = ctx.emulator.app.request('POST', '/orders', {
    credential: ctx.emulator.credentials.merchantSecretKey,
    body: { CreateOnlineOrder: { referenceOrderId: 'hostile-1', amount: { minorCurrencyUnits: 1250, currency: 'AUD' }, description: DESCRIPTION } },
  })
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300)
  orderId = (created.body as { OnlineOrder: { order: { orderId: string } } }).OnlineOrder.order.orderId
  expect(orderId, JSON.stringify(created.body)).toMatch(/^ordr_/)
}, 30_000)

afterAll(async () => {
  terminals.kill()
  await ctx?.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** Runs `command` in the pane and returns the bytes it wrote there (between two markers). */
async function bytesOf(command: string, n: number): Promise<string> {
  const raw = join(scratch, `pane-${n}.raw`)
  tmux('pipe-pane', '-o', '-t', SESSION, `cat > ${quote(raw)}`)
  tmux('send-keys', '-t', SESSION, '-l', `echo BEGIN$((${n}+0)); ${command}; echo END$((${n}+0))`)
  tmux('send-keys', '-t', SESSION, 'Enter')
  const pane = () => tmux('capture-pane', '-p', '-J', '-t', SESSION)
  await waitForPane(pane, `END${n}`, (text) => new RegExp(`^END${n}$`, 'm').test(text))
  tmux('pipe-pane', '-t', SESSION)
  const text = readFileSync(raw, 'utf8')
  const start = text.lastIndexOf(`BEGIN${n}\r\n`)
  const end = text.lastIndexOf(`END${n}\r\n`)
  expect(start, text).toBeGreaterThanOrEqual(0)
  return text.slice(start + `BEGIN${n}\r\n`.length, end)
}

describe('hostile data and plain terminals (tmux)', () => {
  it('escapes C1 and U+202E in --json on a terminal; no colour on TERM=dumb; ASCII borders in the C locale', async () => {
    if (!terminals.path) expect.fail(TMUX_MISSING)
    tmux('new-session', '-d', '-s', SESSION, '-x', '160', '-y', '50', 'bash --norc --noprofile -i')
    const env = Object.entries({ ...ctx.env, NO_COLOR: undefined as string | undefined, LANG: 'C.UTF-8', LC_ALL: undefined, LC_CTYPE: undefined })
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `export ${key}=${quote(value as string)}`)
    tmux(
      'send-keys',
      '-t',
      SESSION,
      '-l',
      `unset NO_COLOR CI PAYFAC_PROFILE LC_ALL LC_CTYPE; ${env.join('; ')}; payfac() { ${quote(process.execPath)} ${quote(BIN)} "$@"; }; clear`,
    )
    tmux('send-keys', '-t', SESSION, 'Enter')

    // --json on the terminal: no raw C1 or bidi control, ESC escaped, and the text is still the JSON of the order.
    const json = await bytesOf(`payfac orders get ${orderId} --json`, 1)
    expect(json).not.toMatch(/[\u0080-\u009f\u202e\u001b]/)
    expect(json).toContain('Coffee \\u009b2J then \\u202egnp.exe \\u001b]52;c;eA==\\u0007')
    expect(JSON.parse(json.replace(/\r\n/g, '\n'))).toMatchObject({ orderId, description: DESCRIPTION })

    // Colour and box drawing on this terminal; none of the colour on TERM=dumb.
    const coloured = await bytesOf('payfac orders list --limit 3', 2)
    expect(coloured).toMatch(/\u001b\[(1|90)m/)
    expect(coloured).toMatch(/[┌│─]/)
    const dumb = await bytesOf('TERM=dumb payfac orders list --limit 3', 3)
    expect(dumb).toContain(orderId)
    expect(dumb).not.toContain('\u001b[')
    expect(dumb).not.toMatch(/[┌│─]/)

    // The C locale: the same table with + - | borders and nothing beyond ASCII but the data.
    const ascii = await bytesOf('LC_ALL=C payfac orders list --limit 3', 4)
    const plain = ascii.replace(/\u001b\[[0-9;]*m/g, '')
    expect(plain).toMatch(/^\+-+\+/m)
    expect(plain).toContain(`| ${orderId}`)
    expect(plain).not.toMatch(/[┌┐└┘├┤┬┴┼│─…]/)
  }, 60_000)
})
