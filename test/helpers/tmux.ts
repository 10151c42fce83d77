// Driving a real terminal through tmux for the e2e terminal tests: a tmux server of the test's
// own (-L), so no session of the developer's is touched, a shell quote, and a wait for the pane.
import { execFileSync, spawnSync } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'

export interface TmuxServer {
  /** The tmux binary, or undefined when tmux is not installed (the tests then fail, saying so). */
  path: string | undefined
  /** Runs a tmux command on this server and returns what it printed. */
  run(...args: string[]): string
  /** Stops the server and every session in it. */
  kill(): void
}

export const TMUX_MISSING = 'tmux is not installed: this test drives a real terminal through tmux (install it, e.g. apt-get install tmux)'

export function tmuxServer(socket: string): TmuxServer {
  const found = spawnSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' })
  const path = found.status === 0 && found.stdout.trim() ? found.stdout.trim() : undefined
  return {
    path,
    run: (...args) => execFileSync(path as string, ['-L', socket, ...args], { encoding: 'utf8' }),
    kill: () => {
      if (path) spawnSync(path, ['-L', socket, 'kill-server'])
    },
  }
}

/** A value quoted for a POSIX shell. */
export const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`

/** Reads the pane every 100 ms until `test` accepts it; fails with what it shows after `ms` (a hang's diagnosis, inside the tests' own time limit: a slow machine only waits longer). */
export async function waitForPane(read: () => string, what: string, test: (text: string) => boolean, ms = 100_000): Promise<string> {
  const deadline = Date.now() + ms
  let text = ''
  while (Date.now() < deadline) {
    text = read()
    if (test(text)) return text
    await sleep(100)
  }
  throw new Error(`the pane never showed ${what}; it shows:\n${text}`)
}
