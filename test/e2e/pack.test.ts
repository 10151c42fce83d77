// The package a user installs: `npm pack` holds only what is needed, and the tarball installed
// into an empty folder runs `payfac --version`, `--help` and a command against the emulator.
//
// The install is offline (`--offline`: the dependencies come from npm's cache). On a machine
// whose cache lacks them it falls back to `--prefer-offline`, which fetches what is missing from
// the registry once; later runs are offline. Needs `npm run build` first (dist/ is packed as is).
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js'

const ROOT = resolve(__dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'payfac-pack-'))
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }
let emulator: RunningEmulator
let tarball: string
let files: string[]

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 })
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', env: npmEnv })
  expect(packed.status, packed.stderr).toBe(0)
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
  tarball = join(dir, (info as { filename: string }).filename)
  files = (info as { files: Array<{ path: string }> }).files.map((f) => f.path)
}, 60_000)

afterAll(async () => {
  await emulator?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('npm pack', () => {
  it('holds the bundled CLI, the library, the emulator and the docs, and nothing of the sources or tests', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/run.js',
        'oclif.manifest.json',
        'dist/bundle/cli/start/main.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/emulator/index.js',
        'README.md',
        'package.json',
      ]),
    )
    const unwanted = files.filter((f) =>
      /^(src|test|bench|scripts|node_modules)\/|^dist\/(commands|cli|output|config)\/|^bin\/dev\.js$|\.test\.|tsconfig/.test(f),
    )
    expect(unwanted).toEqual([])
  })

  it('installs into an empty folder and runs --version, --help and a command against the emulator', async () => {
    const app = join(dir, 'app')
    spawnSync('mkdir', ['-p', app])
    const install = (mode: string) =>
      spawnSync('npm', ['install', mode, '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app, encoding: 'utf8', env: npmEnv, timeout: 240_000 })
    let installed = install('--offline')
    if (installed.status !== 0 && /ENOTCACHED/.test(installed.stderr)) installed = install('--prefer-offline')
    expect(installed.status, installed.stderr).toBe(0)

    const payfac = join(app, 'node_modules', '.bin', 'payfac')
    // A user's environment: none of the test runner's variables (NODE_ENV=test makes oclif look for TypeScript).
    const { NODE_ENV: _node, VITEST: _vitest, ...user } = process.env
    const env = {
      ...user,
      PAYFAC_BASE_URL: emulator.url,
      PAYFAC_API_KEY: emulator.credentials.merchantSecretKey,
      PAYFAC_CONFIG_DIR: join(dir, 'config'),
      NO_COLOR: '1',
    }
    // Asynchronous: the emulator answers from this process.
    const run = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
        execFile(payfac, args, { cwd: app, encoding: 'utf8', env }, (error, stdout, stderr) =>
          done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        ),
      )
    expect((await run('--version')).stdout).toMatch(/^payfac\/\d+\.\d+\.\d+ /)
    expect((await run('--help')).stdout).toContain('orders')
    const created = await run('orders', 'create', '--amount', '1.00', '--currency', 'AUD', '--reference', 'from-the-tarball', '-q')
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^ordr_\S+\n$/)
    // An upload makes a FormData, whose code the bundle requires from undici's installation
    // (scripts/bundle/undici-plugin.mjs).
    const scan = join(dir, 'scan.png')
    writeFileSync(scan, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))
    const uploaded = await run('merchants', 'files', 'upload', 'mcht_LocalMerchant001', scan, '--purpose', 'identity', '--json')
    expect(uploaded.stderr).toBe('')
    expect(JSON.parse(uploaded.stdout)).toMatchObject({ fileName: 'scan.png', purpose: 'identity' })
    // An unknown command is answered by oclif's own configuration loader, whose globbing and
    // semver dependencies the bundle requires from oclif's installation (scripts/bundle/oclif-plugin.mjs).
    const unknown = await run('nosuch')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('"nosuch" is not a payfac command')
    const library = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('payfac'); console.log(typeof m.createClient)"], {
      cwd: app,
      encoding: 'utf8',
    })
    expect(library.stdout.trim()).toBe('function')
  }, 300_000)
})
