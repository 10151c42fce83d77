// Every ```sh block of README.md runs, in order, as a user would type it: `payfac` is on the
// PATH (a shim for bin/run.js), the config folder and HOME are fresh temporary folders, and the
// working folder is empty. The block that starts the emulator runs it in the background, on a
// free port (`--port 0`, so tests never collide); the later blocks reach it through the built-in
// `local` profile with PAYFAC_BASE_URL pointing at that port.
//
// `npm` is a shim that only records its arguments: installing is what test/e2e/pack.test.ts
// proves (from the packed tarball), and `npm test` here would run this very suite again.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'

import { BIN } from '../helpers/spawn-cli.js'

const README = readFileSync(resolve(__dirname, '../../README.md'), 'utf8')
const NPM_COMMANDS = ['install', 'link', 'test', 'run', 'pack']

/** The ```sh blocks, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string)
}

/** The ```sh blocks under the `## Quickstart` heading (up to the next `## ` heading): the flow a new user runs. */
function quickstartBlocks(markdown: string): string[] {
  const start = markdown.indexOf('\n## Quickstart')
  const end = markdown.indexOf('\n## ', start + 1)
  return start === -1 ? [] : shellBlocks(markdown.slice(start, end === -1 ? undefined : end))
}

const startsEmulator = (block: string) => /^\s*payfac emulator start\b/m.test(block)

let emulator: ChildProcess | undefined
const dir = mkdtempSync(join(tmpdir(), 'payfac-readme-'))

afterAll(() => {
  emulator?.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

function shims(): string {
  const bin = join(dir, 'bin')
  // The config folder is left for payfac to create, as on a new machine.
  spawnSync('mkdir', ['-p', bin, join(dir, 'home'), join(dir, 'work')])
  writeFileSync(join(bin, 'payfac'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`)
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh\ncase "$1" in ${NPM_COMMANDS.join('|')}) echo "npm $*" >> '${join(dir, 'npm.log')}' ;; *) echo "unexpected: npm $*" >&2; exit 1 ;; esac\n`,
  )
  chmodSync(join(bin, 'payfac'), 0o755)
  chmodSync(join(bin, 'npm'), 0o755)
  return bin
}

function userEnv(bin: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('PAYFAC_') && !key.startsWith('npm_')) env[key] = value
  }
  return { ...env, PATH: `${bin}:${process.env.PATH}`, HOME: join(dir, 'home'), PAYFAC_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' }
}

/** Runs the emulator block in the background with `--port 0 --json`; resolves to its base URL. */
function startEmulatorBlock(block: string, env: Record<string, string>): Promise<string> {
  const line = (block.split('\n').find((l) => startsEmulator(l)) as string).replace(/#.*$/, '').trim()
  return new Promise((resolvePromise, reject) => {
    emulator = spawn('sh', ['-c', `exec ${line} --port 0 --json`], { env, cwd: join(dir, 'work'), stdio: ['ignore', 'pipe', 'pipe'] })
    const lines = createInterface({ input: emulator.stdout as NodeJS.ReadableStream })
    lines.once('line', (first) => resolvePromise((JSON.parse(first) as { baseUrl: string }).baseUrl))
    emulator.once('exit', (code) => reject(new Error(`the emulator block exited ${code}`)))
  })
}

describe('README.md', () => {
  it('has shell blocks, one of which starts the emulator', () => {
    const blocks = shellBlocks(README)
    expect(blocks.length).toBeGreaterThan(3)
    expect(blocks.filter(startsEmulator)).toHaveLength(1)
  })

  it('has a flow for scripts that stops at the first failure', () => {
    const flow = quickstartBlocks(README).find((block) => block.includes('payto agree'))
    expect(flow?.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))).toBe('set -euo pipefail')
  })

  it("runs every shell block in order, as written, and the quickstart's flow twice in a row", async () => {
    const bin = shims()
    const env = userEnv(bin)
    const blocks = shellBlocks(README)
    const quickstart = new Set(quickstartBlocks(README).filter((block) => !startsEmulator(block)))
    expect(quickstart.size).toBeGreaterThanOrEqual(2)
    let script = 'set -eu\n'
    let repeat = ''
    for (const [index, block] of blocks.entries()) {
      if (startsEmulator(block)) {
        env.PAYFAC_BASE_URL = await startEmulatorBlock(block, env)
        continue
      }
      // Once the last block of the quickstart has run, its blocks run again, as a person trying
      // the README twice would: nothing of the first run may stop the second.
      const step = `echo "::: README shell block ${index + 1}" >&2\n${block}\n`
      script += step
      if (quickstart.has(block)) repeat += step.replace('::: README shell block', '::: README shell block (again)')
      if (quickstart.has(block) && [...quickstart].at(-1) === block) script += repeat
    }
    const result = spawnSync('bash', ['-c', script], { env, cwd: join(dir, 'work'), encoding: 'utf8', timeout: 120_000 })
    const failedBlock = [...result.stderr.matchAll(/::: README shell block ((?:\(again\) )?\d+)/g)].at(-1)?.[1]
    expect(result.status, `block ${failedBlock} failed:\n${result.stderr.slice(-3000)}`).toBe(0)
    expect(readFileSync(join(dir, 'npm.log'), 'utf8')).toContain('npm link')
    expect(existsSync(join(dir, 'work', 'settlement.csv'))).toBe(true)
    expect(readFileSync(join(dir, 'work', 'orders.csv'), 'utf8')).toMatch(/^orderId,/)
    // Two runs of the flow: two payments, each refunded once, leaving 7.50 AUD each.
    const refunds = [...result.stdout.matchAll(/Refund\s+(rfnd_[A-Za-z0-9_-]+)/g)].map((m) => m[1])
    expect(new Set(refunds).size).toBe(2)
    expect(result.stdout.match(/Remaining refundable\s+7\.50 AUD/g)).toHaveLength(2)
  }, 150_000)
})
