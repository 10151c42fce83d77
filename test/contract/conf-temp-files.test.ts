// The profile store's promise that a killed write leaves nothing behind rests on one thing conf
// does not document: the name of the temporary file its atomic write (atomically) makes beside
// profiles.json, `profiles.json.tmp-<10 digits><6 hex>`, which src/config/store-write.ts removes
// under the lock. This canary runs payfac's store with the real conf in a child process, kills
// it (SIGKILL) at the moment conf renames its temporary file into place, and checks that the
// store is unchanged and that the next change removes what the killed write left. It fails when
// a conf or atomically upgrade names its temporary files otherwise.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import type { Profile } from '../../src/config/profiles.js'
import { ProfileStore } from '../../src/config/store.js'
import { makeTempConfigDir, type TempConfigDir } from '../helpers/tmp-config.js'

const ROOT = path.resolve(__dirname, '../..')

function profile(name: string): Profile {
  return {
    name,
    environment: 'sandbox',
    baseUrl: 'https://sandbox.example.com',
    credentialKind: 'merchant-secret-key',
    credential: `sandbox_sk_${name}SecretValue0001`,
    merchantId: 'mcht_Dev0000000000001',
  }
}

// Loaded before anything else in the child: the rename that would put a new profiles.json in
// place kills the process instead, as a kill -9 landing between conf's write and its rename would.
const KILL_AT_RENAME = `
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
const rename = fs.renameSync
fs.renameSync = function (from, to) {
  if (String(to).endsWith('profiles.json')) process.kill(process.pid, 'SIGKILL')
  return rename.apply(this, arguments)
}
syncBuiltinESMExports()
`

let tmp: TempConfigDir
beforeEach(() => {
  tmp = makeTempConfigDir()
})
afterEach(() => tmp.cleanup())

/** Runs `ProfileStore.add` of the built store in a child killed at conf's rename; resolves with the signal it ended by. */
function addKilledAtRename(dir: string, added: Profile): Promise<NodeJS.Signals | null> {
  const preload = path.join(dir, '..', `${path.basename(dir)}-kill-at-rename.mjs`)
  fs.writeFileSync(preload, KILL_AT_RENAME)
  const store = pathToFileURL(path.join(ROOT, 'dist/config/store.js')).href
  const script = `const { ProfileStore } = await import(${JSON.stringify(store)}); await new ProfileStore({ dir: ${JSON.stringify(dir)} }).add(${JSON.stringify(added)})`
  const child = spawn(process.execPath, ['--import', pathToFileURL(preload).href, '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk)
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      fs.rmSync(preload, { force: true })
      if (signal === null) reject(new Error(`the child was not killed at the rename (exit ${code}): ${stderr}`))
      else resolve(signal)
    })
  })
}

describe('conf, killed mid-write: the store is kept and its temporary file is removed by the next change', () => {
  it('names its temporary file as store-write.ts expects, and the next change removes it', async () => {
    const file = path.join(tmp.dir, 'profiles.json')
    await new ProfileStore({ dir: tmp.dir }).add(profile('first'))
    const before = fs.readFileSync(file, 'utf8')

    expect(await addKilledAtRename(tmp.dir, profile('killed'))).toBe('SIGKILL')
    // Atomic: the store is the one before the killed write.
    expect(fs.readFileSync(file, 'utf8')).toBe(before)
    // What the killed write left: conf's temporary file, holding the credential it was writing.
    const left = fs.readdirSync(tmp.dir).filter((name) => name !== 'profiles.json' && name !== 'profiles.json.lock')
    expect(left).toHaveLength(1)
    expect(left[0]).toMatch(/^profiles\.json\.tmp-\d{10}[0-9a-f]{6}$/)
    expect(fs.readFileSync(path.join(tmp.dir, left[0] as string), 'utf8')).toContain('sandbox_sk_killedSecretValue0001')

    // The lock the killed process held is taken over once stale (profiles-store.test.ts shows it);
    // removed here so that the next change need not wait for that.
    fs.rmSync(`${file}.lock`, { recursive: true, force: true })
    await new ProfileStore({ dir: tmp.dir }).add(profile('next'))
    expect(fs.readdirSync(tmp.dir), 'the next change left what the killed write made').toEqual(['profiles.json'])
    expect(new ProfileStore({ dir: tmp.dir }).list().map((p) => p.name)).toEqual(['first', 'next'])
  })
})
