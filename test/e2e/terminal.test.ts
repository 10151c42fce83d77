// A real terminal, driven through tmux: `payfac payto agree … --poll` shows a spinner with the
// status and the time waited, Ctrl-C stops it with the token and the command that resumes, and
// the exit status is 130; `payfac profiles add` asks for the credential without echoing it.
//
// Needs tmux (the test fails, saying so, when it is missing) and the compiled dist and manifest
// (`npx tsc -p tsconfig.json && npx oclif manifest`). It runs its own tmux server (-L), so it
// never touches a tmux session of yours.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { BIN } from '../helpers/spawn-cli.js'
import { quote, tmuxServer, waitForPane as waitForText } from '../helpers/tmux.js'

const SOCKET = `payfac-e2e-${process.pid}`
const SESSION = 'payfac'

const terminals = tmuxServer(SOCKET)
const TMUX = terminals.path
const tmux = terminals.run
const pane = () => tmux('capture-pane', '-p', '-t', SESSION)

let ctx: EmulatorEnv

beforeAll(async () => {
  ctx = await startEmulatorEnv()
})

afterAll(async () => {
  terminals.kill()
  await ctx?.close()
})

const waitForPane = (what: string, test: (text: string) => boolean, ms?: number) => waitForText(pane, what, test, ms)

describe('a terminal session (tmux)', () => {
  it('shows a spinner with the status and the time waited; Ctrl-C prints the token and the resume command and exits 130', async () => {
    if (!TMUX) {
      expect.fail('tmux is not installed: this test drives a real terminal through tmux (install it, e.g. apt-get install tmux)')
    }
    const env = Object.entries(ctx.env)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${quote(value as string)}`)
      .join(' ')
    // An interactive shell with job control, as a person has: Ctrl-C goes to the command only.
    tmux('new-session', '-d', '-s', SESSION, '-x', '120', '-y', '30', 'bash --norc --noprofile -i')
    const command =
      `env -u PAYFAC_PROFILE -u CI ${env} ${quote(process.execPath)} ${quote(BIN)} payto agree --name 'Jo Citizen' ` +
      `--bban '062-000 22222222' --amount 12.50 --currency AUD --poll --interval 200ms; echo EXIT=$?`
    tmux('send-keys', '-t', SESSION, 'clear', 'Enter')
    tmux('send-keys', '-t', SESSION, '-l', command)
    tmux('send-keys', '-t', SESSION, 'Enter')

    const spinning = await waitForPane('the spinner', (text) => /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for agreement ptagr_\S+: Pending \(\d+s\)/.test(text))
    const token = /Waiting for agreement (ptagr_\S+): Pending/.exec(spinning)?.[1] as string
    expect(spinning).toContain(`Agreement ${token} sent; waiting for the customer to approve it`)
    // The time waited moves on in place (the spinner line is redrawn, not repeated).
    const later = await waitForPane('the time waited moving on', (text) => /Pending \(([2-9]|\d\d)s\)/.test(text))
    expect(later.match(/Waiting for agreement/g)).toHaveLength(1)

    tmux('send-keys', '-t', SESSION, 'C-c')
    const done = await waitForPane('the exit status', (text) => /EXIT=\d+/.test(text))
    expect(done).toContain('EXIT=130')
    expect(done).toMatch(new RegExp(`Error: Interrupted while waiting for agreement ${token} \\(Pending after \\d+s\\)`))
    expect(done).toContain(`Hint: Resume with: payfac payto status ${token} --poll`)
    // The spinner line was cleared, not left behind.
    expect(done).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for agreement/)
  }, 40_000)

  it('asks for a credential with hidden input, stores it for its owner only, and shows it masked', async () => {
    if (!TMUX) expect.fail('tmux is not installed: this test drives a real terminal through tmux (install it, e.g. apt-get install tmux)')
    const dir = mkdtempSync(join(tmpdir(), 'payfac-tty-'))
    const secret = 'sandbox_sk_typedAtThePrompt000e5f6'
    try {
      tmux('new-session', '-d', '-s', 'prompt', '-x', '120', '-y', '30', 'bash --norc --noprofile -i')
      const command =
        `env -u PAYFAC_PROFILE -u CI PAYFAC_CONFIG_DIR=${quote(dir)} ${quote(process.execPath)} ${quote(BIN)} profiles add tty ` +
        `--environment sandbox --base-url https://sandbox.example.com; echo EXIT=$?`
      tmux('send-keys', '-t', 'prompt', '-l', command)
      tmux('send-keys', '-t', 'prompt', 'Enter')
      const read = () => tmux('capture-pane', '-p', '-t', 'prompt')
      await waitForText(read, 'the credential prompt', (text) => /Credential \(input hidden\)/.test(text))
      tmux('send-keys', '-t', 'prompt', '-l', secret)
      tmux('send-keys', '-t', 'prompt', 'Enter')
      const text = await waitForText(read, 'the exit status', (text) => /EXIT=\d+/.test(text))
      expect(text).toContain('EXIT=0')
      expect(text).toContain('sandbox_sk_…e5f6')
      expect(text).not.toContain(secret)
      const file = join(dir, 'profiles.json')
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(readFileSync(file, 'utf8')).toContain(secret)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 40_000)
})
