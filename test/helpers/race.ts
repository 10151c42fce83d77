// N spawned payfac processes released together by a barrier (barrier-run.mjs): each loads the
// CLI, says it is ready, and waits for one file; the file is made once all are ready.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

import type { SpawnResult } from './spawn-cli.js'

const WRAPPER = resolve(__dirname, 'barrier-run.mjs')

function run(args: string[], env: Record<string, string | undefined>, killAfterMs: number, onStderr: (text: string) => void): { done: Promise<SpawnResult> } {
  const childEnv: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', ...env })) if (value !== undefined) childEnv[key] = value
  const child = spawn(process.execPath, [WRAPPER, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => {
    stderr += d
    onStderr(stderr)
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
  const done = new Promise<SpawnResult>((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolvePromise({ code, signal, stdout, stderr })
    })
  })
  return { done }
}

type Env = Record<string, string | undefined>

export interface RaceOptions {
  /**
   * A last resort against a hang, not a measure: a racer still running after this long is killed
   * (and the test then fails on its result). Generous, so that a slow, busy machine only slows a race.
   */
  killAfterMs?: number
  /** Told each racer's whole stderr so far whenever it grows, with the racer's index. */
  onStderr?: (stderr: string, racer: number) => void
}

/**
 * Runs `payfac ...args` in `n` processes released together; resolves with every result. `args`
 * and `env` may be given per process (a function of its index), for racers that differ.
 */
export async function race(
  n: number,
  args: string[] | ((i: number) => string[]),
  env: Env | ((i: number) => Env),
  options: RaceOptions = {},
): Promise<SpawnResult[]> {
  const killAfterMs = options.killAfterMs ?? 300_000
  const dir = mkdtempSync(join(tmpdir(), 'payfac-race-'))
  const barrier = join(dir, 'go')
  try {
    const argsOf = typeof args === 'function' ? args : () => args
    const envOf = typeof env === 'function' ? env : () => env
    const runs = Array.from({ length: n }, (_, i) =>
      run(argsOf(i), { ...envOf(i), PAYFAC_TEST_BARRIER: barrier }, killAfterMs, (text) => options.onStderr?.(text, i)),
    )
    const deadline = Date.now() + killAfterMs
    while (readdirSync(dir).filter((name) => name.startsWith('go.ready.')).length < n) {
      if (Date.now() > deadline) throw new Error('the racers never all became ready')
      await new Promise((r) => setTimeout(r, 10))
    }
    if (!existsSync(barrier)) writeFileSync(barrier, '')
    return await Promise.all(runs.map((r) => r.done))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
