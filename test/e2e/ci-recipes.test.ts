// The CI jobs of docs/emulator.md ("A CI job") run as written: the GitHub Actions job step by step
// (each `run:` a shell of its own, `$GITHUB_ENV` carried to the later steps as the runner does) and
// the GitLab CI job (`script` in one shell, `after_script` in another). Every step runs with
// CI=true, no terminal (stdin from nothing, stdout and stderr pipes) and in a session of its own
// (setsid), as a runner starts it; its exit code must be 0. After the job: `emulator status` says
// none, the emulator's process is gone and its port refuses connections. `payfac` is a shim for
// bin/run.js on the PATH; the steps that install payfac or use an action are the runner's, not
// run here.
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'

import { BIN } from '../helpers/spawn-cli.js'

const DOC = readFileSync(resolve(__dirname, '../../docs/emulator.md'), 'utf8')
const root = mkdtempSync(join(tmpdir(), 'payfac-ci-'))

afterAll(() => rmSync(root, { recursive: true, force: true }))

/** The ```yaml blocks of the "A CI job" section, in order. */
function ciBlocks(): unknown[] {
  const start = DOC.indexOf('\n### A CI job')
  const end = DOC.indexOf('\n## ', start + 1)
  const section = DOC.slice(start, end)
  return [...section.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => parseYaml(m[1] as string))
}

interface Step {
  name?: string
  run?: string
  uses?: string
  if?: string
}

interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** A job's folder, payfac shim, config folder and environment, with nothing of this shell's PAYFAC_ settings. */
function jobEnv(name: string, extra: Record<string, string>): { env: Record<string, string>; cwd: string; config: string } {
  const dir = join(root, name)
  const bin = join(dir, 'bin')
  const cwd = join(dir, 'work')
  const config = join(dir, 'config')
  for (const d of [bin, cwd, join(dir, 'home')]) mkdirSync(d, { recursive: true })
  writeFileSync(join(bin, 'payfac'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`)
  chmodSync(join(bin, 'payfac'), 0o755)
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('PAYFAC_') && !key.startsWith('npm_')) env[key] = value
  return {
    cwd,
    config,
    env: {
      ...env,
      ...extra,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: join(dir, 'home'),
      PAYFAC_CONFIG_DIR: config,
      CI: 'true',
      NO_COLOR: '1',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/payfac-tests-have-no-session-bus',
    },
  }
}

/** One step as a runner runs it: bash -e, a session of its own (setsid), no terminal. */
function runStep(script: string, env: Record<string, string>, cwd: string): Promise<Ran> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }))
  })
}

/** The pid and port of every background emulator the config folder has a record of. */
function records(config: string): Array<{ pid: number; port: number }> {
  const dir = join(config, 'emulators')
  let names: string[] = []
  try {
    names = readdirSync(dir).filter((n) => /^\d+\.json$/.test(n))
  } catch {
    return []
  }
  return names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as { pid: number; port: number })
}

/** True while `pid` runs (a zombie, dead but not yet reaped by the system, does not count). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolvePromise(false)
    })
    socket.once('error', () => resolvePromise(true))
  })
}

/** After a job: `status` says none, the process it ran is gone, and its port refuses connections. */
async function nothingLeft(seen: Array<{ pid: number; port: number }>, env: Record<string, string>, cwd: string): Promise<void> {
  const status = await runStep('payfac emulator status', env, cwd)
  expect(status.code, status.stderr).toBe(0)
  expect(status.stdout).toBe('')
  expect(status.stderr).toContain('No emulator started with --detach is running.')
  expect(seen).toHaveLength(1)
  for (const { pid, port } of seen) {
    expect(running(pid), `process ${pid} is still running`).toBe(false)
    expect(await refused(port), `port ${port} still answers`).toBe(true)
  }
}

describe('the CI jobs of docs/emulator.md', () => {
  const [github, gitlab] = ciBlocks() as [
    { jobs: Record<string, { steps: Step[] }> },
    Record<string, { script: string[]; after_script: string[]; before_script: string[] }>,
  ]

  it('are a GitHub Actions job and a GitLab CI job that use only payfac emulator commands to run it', () => {
    const steps = Object.values(github.jobs)[0]?.steps ?? []
    const job = Object.values(gitlab)[0]
    const emulatorLines = [...steps.flatMap((s) => (s.run ?? '').split('\n')), ...(job?.script ?? []), ...(job?.after_script ?? [])].filter((l) =>
      /emulator/.test(l),
    )
    expect(emulatorLines.length).toBeGreaterThanOrEqual(6)
    for (const line of emulatorLines) expect(line).toMatch(/^(eval "\$\()?payfac emulator (start --detach|wait|stop)\b/)
    expect(steps.find((s) => s.name === 'Stop the emulator')?.if).toBe('always()')
  })

  it('GitHub Actions: every step exits 0, then nothing is left running', async () => {
    const steps = (Object.values(github.jobs)[0]?.steps ?? []).filter((s) => s.run !== undefined && !/^Install/.test(s.name ?? ''))
    expect(steps.map((s) => s.name)).toEqual(['Start the emulator', 'Wait until it answers', 'An order, its payment and a refund', 'Stop the emulator'])
    const { env, cwd, config } = jobEnv('github', { GITHUB_RUN_ID: String(process.pid) })
    const githubEnv = join(cwd, '..', 'github-env')
    writeFileSync(githubEnv, '')
    const seen: Array<{ pid: number; port: number }> = []
    for (const step of steps) {
      // The runner adds the NAME=value lines a step appended to $GITHUB_ENV to the later steps' environment.
      const carried = Object.fromEntries(
        readFileSync(githubEnv, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      )
      if (step.name === 'Stop the emulator') seen.push(...records(config))
      const ran = await runStep(step.run as string, { ...env, ...carried, GITHUB_ENV: githubEnv }, cwd)
      expect(ran.code, `${step.name}: ${ran.stderr}`).toBe(0)
      if (step.name === 'Start the emulator') expect(readFileSync(githubEnv, 'utf8')).toMatch(/^PAYFAC_BASE_URL=http:\/\/127\.0\.0\.1:\d+\n$/)
      if (step.name === 'An order, its payment and a refund') expect(ran.stdout).toMatch(/refund/i)
    }
    expect(readFileSync(join(cwd, 'emulator.log'), 'utf8')).toContain('Emulator stopped (payfac emulator stop)')
    await nothingLeft(seen, env, cwd)
  })

  it('GitLab CI: script and after_script exit 0, then nothing is left running', async () => {
    const job = Object.values(gitlab)[0] as { script: string[]; after_script: string[] }
    const { env, cwd, config } = jobEnv('gitlab', { CI_PIPELINE_ID: String(process.pid) })
    const script = await runStep(job.script.join('\n'), env, cwd)
    expect(script.code, script.stderr).toBe(0)
    expect(script.stdout).toMatch(/refund/i)
    const seen = records(config)
    const after = await runStep(job.after_script.join('\n'), env, cwd)
    expect(after.code, after.stderr).toBe(0)
    await nothingLeft(seen, env, cwd)
  })
})
