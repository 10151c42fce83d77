// Spawns bin/run.js as a user would, for real exit codes and stdout/stderr separation.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

export const BIN = resolve(__dirname, '../../bin/run.js')

export interface SpawnResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export function spawnCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<SpawnResult> {
  return new Promise((resolvePromise, reject) => {
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: '1', ...options.env })) if (value !== undefined) env[key] = value
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], ...(options.cwd ? { cwd: options.cwd } : {}) })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolvePromise({ code, signal, stdout, stderr })
    })
    child.stdin.end(options.input ?? '')
  })
}
