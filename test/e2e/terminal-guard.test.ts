// The production guard at a real terminal (tmux, as in terminal.test.ts): a refund on a
// production target shows what it will do and asks; "no" exits 3 with nothing sent, "yes"
// sends the refund once. Against a recording server, which takes the live key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { BIN } from '../helpers/spawn-cli.js'
import { quote, tmuxServer, waitForPane } from '../helpers/tmux.js'

const SOCKET = `payfac-guard-${process.pid}`
const TRAN = 'tran_TerminalGuard001'
const terminals = tmuxServer(SOCKET)
const TMUX = terminals.path
const tmux = terminals.run

let server: RecordingServer
let configDir: string

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'payfac-guard-tty-'))
  const transaction = {
    purchaseDetails: { transactionId: TRAN, status: 'paid', amount: { minorCurrencyUnits: 2000, currency: 'AUD' }, refundedAmount: 0, refundIds: [] },
    timelines: [],
  }
  server = await startRecordingServer(() => ({ body: transaction }))
})

afterAll(async () => {
  terminals.kill()
  await server?.close()
  rmSync(configDir, { recursive: true, force: true })
})

const waitFor = (session: string, what: string, test: (text: string) => boolean) => waitForPane(() => tmux('capture-pane', '-p', '-t', session), what, test)

describe('the production guard at a terminal (tmux)', () => {
  it.each([
    ['n', 3, 0],
    ['y', 0, 1],
  ] as const)(
    'answering "%s" exits %i with %i refund sent',
    async (answer, exit, patches) => {
      if (!TMUX) expect.fail('tmux is not installed: this test drives a real terminal through tmux (install it, e.g. apt-get install tmux)')
      server.requests.length = 0
      const session = `guard-${answer}`
      tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', 'bash --norc --noprofile -i')
      const env = `PAYFAC_CONFIG_DIR=${quote(configDir)} PAYFAC_BASE_URL=${quote(server.url)} PAYFAC_API_KEY=live_sk_terminalGuardKey0001 NO_COLOR=1`
      // The command (and its live key) goes into a script, so the pane shows only what payfac prints.
      const script = join(configDir, `refund-${answer}.sh`)
      writeFileSync(script, `env -u PAYFAC_PROFILE -u CI ${env} ${quote(process.execPath)} ${quote(BIN)} transactions refund ${TRAN} --amount 5.00\n`)
      tmux('send-keys', '-t', session, '-l', `bash ${quote(script)}; echo EXIT=$?`)
      tmux('send-keys', '-t', session, 'Enter')
      const asked = await waitFor(session, 'the question', (text) => text.includes('Go ahead?'))
      expect(asked).toMatch(/PRODUCTION: PAYFAC_API_KEY \(no profile\), environment production/)
      expect(asked).toContain(`About to send on PRODUCTION: refund of 5.00 AUD on transaction ${TRAN}`)
      expect(asked).toMatch(/environment\s+production/)
      expect(asked).toMatch(new RegExp(`target\\s+PATCH ${server.url.replace(/[.]/g, '\\.')}/transactions/${TRAN}`))
      expect(asked).toContain('"refundAmount":500')
      expect(asked).not.toContain('live_sk_terminalGuardKey0001')
      expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0)
      tmux('send-keys', '-t', session, answer)
      tmux('send-keys', '-t', session, 'Enter')
      const done = await waitFor(session, 'the exit status', (text) => /EXIT=\d+/.test(text))
      expect(done).toContain(`EXIT=${exit}`)
      if (exit === 3) expect(done).toContain('Not confirmed: nothing was sent.')
      expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(patches)
    },
    40_000,
  )
})

describe('on a terminal, CI and --no-input never ask', () => {
  it.each([
    ['CI=true, a refund (refused before any request)', 'CI=true', `transactions refund ${TRAN} --amount 5.00`, 'CI is set (CI=true)'],
    [
      '--no-input, a PATCH through `api` (refused at the write)',
      '',
      `api PATCH /webhooks/webhook_TerminalGuard01 --data '{"enabled":true}' --no-input`,
      '--no-input was given',
    ],
  ])(
    '%s: exit 3, no question, and a "y" typed ahead confirms nothing',
    async (name, ci, command, why) => {
      if (!TMUX) expect.fail('tmux is not installed: this test drives a real terminal through tmux (install it, e.g. apt-get install tmux)')
      server.requests.length = 0
      const session = `guard-${ci ? 'ci' : 'no-input'}`
      tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '40', 'bash --norc --noprofile -i')
      const env = `PAYFAC_CONFIG_DIR=${quote(configDir)} PAYFAC_BASE_URL=${quote(server.url)} PAYFAC_API_KEY=live_sk_terminalGuardKey0001 NO_COLOR=1 ${ci}`
      const script = join(configDir, `${session}.sh`)
      writeFileSync(script, `env -u PAYFAC_PROFILE -u CI ${env} ${quote(process.execPath)} ${quote(BIN)} ${command}\n`)
      tmux('send-keys', '-t', session, '-l', `bash ${quote(script)}; echo EXIT=$?`)
      tmux('send-keys', '-t', session, 'Enter')
      tmux('send-keys', '-t', session, '-l', 'y')
      tmux('send-keys', '-t', session, 'Enter')
      const done = await waitFor(session, 'the exit status', (text) => /EXIT=\d+/.test(text))
      expect(done, name).toContain('EXIT=3')
      expect(done).not.toContain('Go ahead?')
      expect(done).toContain(`needs confirmation, and ${why}: nothing was sent`)
      expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(0)
    },
    40_000,
  )
})

describe('a command in no list asks too', () => {
  it('webhooks enable on production shows its PATCH and asks; "n" exits 3 with nothing sent', async () => {
    if (!TMUX) expect.fail('tmux is not installed: this test drives a real terminal through tmux (install it, e.g. apt-get install tmux)')
    server.requests.length = 0
    const session = 'guard-enable'
    tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '40', 'bash --norc --noprofile -i')
    const env = `PAYFAC_CONFIG_DIR=${quote(configDir)} PAYFAC_BASE_URL=${quote(server.url)} PAYFAC_API_KEY=live_sk_terminalGuardKey0001 NO_COLOR=1`
    const script = join(configDir, `${session}.sh`)
    writeFileSync(script, `env -u PAYFAC_PROFILE -u CI ${env} ${quote(process.execPath)} ${quote(BIN)} webhooks enable webhook_TerminalGuard001\n`)
    tmux('send-keys', '-t', session, '-l', `bash ${quote(script)}; echo EXIT=$?`)
    tmux('send-keys', '-t', session, 'Enter')
    const asked = await waitFor(session, 'the question', (text) => text.includes('Go ahead?'))
    expect(asked).toContain('About to send on PRODUCTION: payfac webhooks enable')
    expect(asked).toMatch(/target\s+PATCH http:\/\/127\.0\.0\.1:\d+\/webhooks\/webhook_TerminalGuard001/)
    expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(0)
    tmux('send-keys', '-t', session, 'n')
    tmux('send-keys', '-t', session, 'Enter')
    const done = await waitFor(session, 'the exit status', (text) => /EXIT=\d+/.test(text))
    expect(done).toContain('EXIT=3')
    expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(0)
  }, 40_000)
})
