// The cost of a credential kept in the OS keychain: `orders get <id> --json` against a local
// emulator with the profile's key in the keychain, beside the same call with the key in the
// profile file (a paired run, medians), and the keychain read alone in a fresh process (loading
// @napi-rs/keyring and one read over D-Bus, over `node -e 0`). On Linux the keychain is a private
// gnome-keyring on a private session bus started here (the tools: gnome-keyring, dbus); without
// them the figures are skipped, not failed.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url))
const KEYRING_JS = fileURLToPath(new URL('../node_modules/@napi-rs/keyring/index.js', import.meta.url))
const GOAL_CALL = 40
const GOAL_READ = 40

export default async function bench(ctx) {
  const skipped = (why) => [{ figure: 'keychain read', goal: '-', measured: `skipped: ${why}`, baseline: '-', ratio: null, pass: null }]
  if (process.platform !== 'linux') return skipped('measured on Linux only (a private Secret Service)')
  const missing = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
  if (missing.length > 0) return skipped(`not installed: ${missing.join(', ')}`)
  const rounds = ctx.quick ? 3 : 15
  const home = mkdtempSync(join(tmpdir(), 'payfac-bench-keychain-'))
  const session = await startSecretService(home)
  const { startEmulator } = await import('../dist/emulator/index.js')
  const emulator = await startEmulator({ port: 0 })
  const env = { ...process.env, ...session.env, PAYFAC_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', PAYFAC_API_KEY: '', PAYFAC_PROFILE: '' }
  try {
    const key = emulator.credentials.merchantSecretKey
    const add = (name, extra) =>
      run([BIN, 'profiles', 'add', name, '--environment', 'sandbox', '--base-url', emulator.url, '--credential-stdin', ...extra], env, key)
    await add('infile', ['--insecure-storage'])
    const added = await add('inkeychain', [])
    if (!added.stderr.includes('OS keychain')) throw new Error('the profile did not go into the keychain')
    const created = await run([BIN, 'orders', 'create', '--profile', 'infile', '--amount', '1.00', '--currency', 'AUD', '--reference', 'bench', '--json'], env)
    const orderId = JSON.parse(created.stdout).orderId
    const readScript = `const { Entry } = require(${JSON.stringify(KEYRING_JS)}); new Entry('payfac-bench', 'read').getPassword()`
    spawnSync(process.execPath, ['-e', `const { Entry } = require(${JSON.stringify(KEYRING_JS)}); new Entry('payfac-bench', 'read').setPassword('x')`], { env })
    const file = []
    const keychain = []
    const bare = []
    const read = []
    ctx.log(`keychain: ${rounds} rounds of 4 runs`)
    for (let round = 0; round < rounds; round++) {
      file.push((await run([BIN, 'orders', 'get', orderId, '--json', '--profile', 'infile'], env)).ms)
      keychain.push((await run([BIN, 'orders', 'get', orderId, '--json', '--profile', 'inkeychain'], env)).ms)
      bare.push((await run(['-e', '0'], env)).ms)
      read.push((await run(['-e', readScript], env)).ms)
    }
    const [f, k, b, r] = [file, keychain, bare, read].map(median)
    return [
      {
        figure: 'orders get <id> --json, key in the OS keychain, over the key in the profile file',
        goal: `≤ +${GOAL_CALL} ms`,
        measured: `${signed(k - f)} ms (${k.toFixed(0)} ms)`,
        baseline: `key in the file: ${f.toFixed(0)} ms`,
        ratio: k / f,
        pass: k - f <= GOAL_CALL,
      },
      {
        figure: 'keychain read alone (load @napi-rs/keyring, one read over D-Bus), over bare node',
        goal: `≤ +${GOAL_READ} ms`,
        measured: `${signed(r - b)} ms (${r.toFixed(0)} ms)`,
        baseline: `node -e 0: ${b.toFixed(0)} ms`,
        ratio: r / b,
        pass: r - b <= GOAL_READ,
      },
    ]
  } finally {
    await emulator.close()
    session.stop()
    rmSync(home, { recursive: true, force: true })
  }
}

/** A session bus and an unlocked gnome-keyring of our own (as test/helpers/keyring.ts does). */
async function startSecretService(home) {
  const started = spawnSync('dbus-daemon', ['--session', '--print-address=1', '--print-pid=1', '--fork', '--nopidfile'], { encoding: 'utf8' })
  const [address, pid] = started.stdout.trim().split('\n')
  const env = { DBUS_SESSION_BUS_ADDRESS: address, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home }
  const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'ignore', 'ignore'],
  })
  keyring.stdin.end('bench-keyring-password')
  const stop = () => {
    keyring.kill()
    try {
      process.kill(Number(pid))
    } catch {
      // gone already
    }
  }
  const ask = [
    '--session',
    '--dest=org.freedesktop.DBus',
    '--type=method_call',
    '--print-reply',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner',
    'string:org.freedesktop.secrets',
  ]
  for (let i = 0; i < 100; i++) {
    if (spawnSync('dbus-send', ask, { env: { ...process.env, ...env }, encoding: 'utf8' }).stdout.includes('boolean true')) return { env, stop }
    await sleep(50)
  }
  stop()
  throw new Error('gnome-keyring-daemon did not start on the private bus')
}

function signed(ms) {
  return `${ms < 0 ? '−' : '+'}${Math.abs(ms).toFixed(0)}`
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

// Asynchronous: the emulator answering the calls runs in this process.
function run(args, env, input) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] })
    if (input !== undefined) child.stdin.end(input)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim()}`))
      else resolve({ ms, stdout, stderr })
    })
  })
}
