// What each part of a real API call costs at start-up, and what each lever of issue 32 gives:
// every row is a fresh process, paired with a bare `node -e 0` in the same rounds, and reported
// as wall time over it (median). The parts are made the way the build makes the CLI (esbuild, one
// minified ESM file, Node's compile cache on), from the same packages, so that a row says what that
// package costs payfac. No goal: these rows explain the `orders get --json` row of startup.bench.mjs
// (docs/cli.md, "Start-up"; BENCHMARKS.md lists the levers, kept or not).
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin/run.js')
const BANNER = "import{createRequire as __r}from'node:module';const require=__r(import.meta.url);"

// Each part: the source of one entry module, bundled as the build bundles (ESM unless `cjs`).
const PARTS = {
  'oclif-command': `import { Command } from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import * as Args from '@oclif/core/args'
globalThis.kept = [Command, Flags, Args]`,
  'oclif-config': `import { Command } from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import { Config } from '@oclif/core/config'
globalThis.kept = [Command, Flags]
await Config.load(process.env.PAYFAC_ROOT)`,
  'oclif-help': `import { Command } from '@oclif/core/command'
import * as Help from '@oclif/core/help'
globalThis.kept = [Command, Help]`,
  'undici-get': `import { request } from 'undici'
const answer = await request(process.env.URL, { headers: { authorization: process.env.AUTH } })
await answer.body.text()`,
  'fetch-get': `const answer = await fetch(process.env.URL, { headers: { authorization: process.env.AUTH } })
await answer.text()`,
  'http-get': `import { get } from 'node:http'
await new Promise((resolve, reject) => get(process.env.URL, { headers: { authorization: process.env.AUTH } }, (answer) => answer.resume().on('end', resolve)).on('error', reject))`,
  zod: `import { z } from 'zod'
globalThis.kept = z.object({ orderId: z.string(), amount: z.number().int() })`,
  'zod-schemas': `import * as schemas from '${join(ROOT, 'dist/client/schemas/index.js')}'
globalThis.kept = schemas`,
  conf: `import Conf from 'conf'
globalThis.kept = Conf`,
  'oclif-config-undici-get': `import { Command } from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import { Config } from '@oclif/core/config'
import { request } from 'undici'
globalThis.kept = [Command, Flags]
await Config.load(process.env.PAYFAC_ROOT)
const answer = await request(process.env.URL, { headers: { authorization: process.env.AUTH } })
await answer.body.text()`,
  'oclif-config-fetch-get': `import { Command } from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'
import { Config } from '@oclif/core/config'
globalThis.kept = [Command, Flags]
await Config.load(process.env.PAYFAC_ROOT)
const answer = await fetch(process.env.URL, { headers: { authorization: process.env.AUTH } })
await answer.text()`,
}

// A V8 start-up snapshot (`node --build-snapshot`) needs a CommonJS entry that sets what runs at launch.
const SNAPSHOT = {
  'snapshot-oclif-zod': `const { Command } = require('@oclif/core/command')
const Flags = require('@oclif/core/flags')
const { z } = require('zod')
const kept = [Command, Flags, z.object({ orderId: z.string() })]
require('node:v8').startupSnapshot.setDeserializeMainFunction(() => { globalThis.kept = kept })`,
  'snapshot-undici': `const { request } = require('undici')
require('node:v8').startupSnapshot.setDeserializeMainFunction(() => { globalThis.kept = request })`,
}

export default async function bench(ctx) {
  const rounds = ctx.quick ? 5 : 15
  const { build } = await import('esbuild')
  const { startEmulator } = await import('../dist/emulator/index.js')
  const dir = mkdtempSync(join(tmpdir(), 'payfac-levers-'))
  const emulator = await startEmulator({ port: 0 })
  try {
    const key = emulator.credentials.merchantSecretKey
    const configDir = join(dir, 'config')
    mkdirSync(configDir)
    const cliEnv = { ...process.env, PAYFAC_BASE_URL: emulator.url, PAYFAC_API_KEY: key, PAYFAC_CONFIG_DIR: configDir, NO_COLOR: '1' }
    const created = await run([BIN, 'orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'levers', '--json'], cliEnv)
    const orderId = JSON.parse(created.stdout).orderId
    const env = { ...cliEnv, URL: `${emulator.url}/orders/${orderId}`, AUTH: `Bearer ${key}`, PAYFAC_ROOT: ROOT }

    // The launcher turns on the compile cache as bin/run.js does, then imports the part.
    const launcher = join(dir, 'launch.mjs')
    writeFileSync(launcher, "import module from 'node:module'\nmodule.enableCompileCache()\nawait import(process.argv[2])\n")
    const cases = []
    for (const [name, source] of Object.entries(PARTS)) {
      const entry = join(dir, `${name}.entry.mjs`)
      const out = join(dir, `${name}.mjs`)
      writeFileSync(entry, source)
      await build({
        entryPoints: [entry],
        outfile: out,
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node22',
        minify: true,
        banner: { js: BANNER },
        logLevel: 'silent',
        nodePaths: [join(ROOT, 'node_modules')],
      })
      cases.push({ name, args: [launcher, out] })
    }
    const snapshots = []
    for (const [name, source] of Object.entries(SNAPSHOT)) {
      const entry = join(dir, `${name}.entry.cjs`)
      const out = join(dir, `${name}.cjs`)
      const blob = join(dir, `${name}.blob`)
      writeFileSync(entry, source)
      await build({
        entryPoints: [entry],
        outfile: out,
        bundle: true,
        format: 'cjs',
        platform: 'node',
        target: 'node22',
        minify: true,
        logLevel: 'silent',
        nodePaths: [join(ROOT, 'node_modules')],
      })
      const made = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', out], { encoding: 'utf8' })
      if (made.status === 0) cases.push({ name, args: ['--snapshot-blob', blob] })
      else {
        // V8 names what it could not keep (for undici: Node's HTTP parser, a handle loaded with node:http).
        const why = made.stderr.split('\n').find((line) => /not serialized|HTTPParser|Check failed/.test(line)) ?? `exit ${made.status ?? made.signal}`
        snapshots.push({ name, failed: why.trim().slice(0, 120) })
      }
    }
    const get = ['orders', 'get', orderId, '--json']
    cases.push({ name: 'payfac-orders-get', args: [BIN, ...get] })
    cases.push({ name: 'payfac-orders-get-no-compile-cache', args: [BIN, ...get], env: { NODE_DISABLE_COMPILE_CACHE: '1' } })
    cases.push({ name: 'payfac-version', args: [BIN, '--version'] })
    cases.push({ name: 'payfac-help', args: [BIN, 'orders', 'get', '--help'] })

    ctx.log(`startup-levers: ${rounds} rounds of ${cases.length + 1} runs`)
    const bare = []
    const samples = cases.map(() => [])
    for (let round = 0; round < rounds; round++) {
      bare.push((await run(['-e', '0'], env)).ms)
      for (const [i, c] of cases.entries()) samples[i].push((await run(c.args, { ...env, ...c.env })).ms)
    }
    const base = median(bare)
    const rows = cases.map((c, i) => {
      const ms = median(samples[i])
      return {
        figure: `${DESCRIBE[c.name]} (${c.name})`,
        goal: '-',
        measured: `+${(ms - base).toFixed(0)} ms (${ms.toFixed(0)} ms)`,
        baseline: `node -e 0: ${base.toFixed(0)} ms`,
        ratio: ms / base,
        pass: null,
      }
    })
    for (const s of snapshots)
      rows.push({ figure: `${DESCRIBE[s.name]} (${s.name})`, goal: '-', measured: `cannot be built: ${s.failed}`, baseline: '-', ratio: null, pass: null })
    return rows
  } finally {
    await emulator.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const DESCRIBE = {
  'oclif-command': "oclif's command, flags and args entry points, loaded",
  'oclif-config': "the same and oclif's Config.load of payfac (its 900 KB manifest)",
  'oclif-help': "oclif's command and help entry points, loaded",
  'undici-get': "one GET with undici's request, undici loaded whole (its only entry point)",
  'fetch-get': "one GET with Node's global fetch (Node's own undici)",
  'http-get': 'one GET with node:http (the floor: Node loads its HTTP stack)',
  zod: 'zod loaded and one schema built',
  'zod-schemas': "zod and every schema of the contract built (the client's schemas/)",
  conf: 'conf loaded (with ajv)',
  'oclif-config-undici-get': "oclif's entry points and Config.load, then one GET with undici",
  'oclif-config-fetch-get': "oclif's entry points and Config.load, then one GET with fetch",
  'snapshot-oclif-zod': "a V8 start-up snapshot holding oclif's command and flags and zod (launched with --snapshot-blob)",
  'snapshot-undici': 'a V8 start-up snapshot holding undici',
  'payfac-orders-get': 'payfac orders get <id> --json as it is',
  'payfac-orders-get-no-compile-cache': "the same without Node's compile cache (NODE_DISABLE_COMPILE_CACHE=1)",
  'payfac-version': 'payfac --version',
  'payfac-help': 'payfac orders get --help',
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

// Asynchronous: the emulator that answers runs in this process.
function run(args, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim().split('\n')[0]}`))
      else resolve({ ms, stdout })
    })
  })
}
