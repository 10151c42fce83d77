import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'

import { checkKeyPrefix, checkNode, checkStorePermissions, doctorExitCode } from '../../src/cli/diagnose/checks.js'
import { listProgress, wantsProgress, formatBytes } from '../../src/cli/runtime/progress.js'
import { canPrompt } from '../../src/cli/terminal/prompts.js'
import type { ResolvedSettings } from '../../src/config/index.js'

const scratch = mkdtempSync(join(tmpdir(), 'payfac-doctor-unit-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('progress', () => {
  it('is shown only with stderr on a terminal, stdout elsewhere, and not for JSON', () => {
    expect(wantsProgress('csv', false, true)).toBe(true)
    expect(wantsProgress('table', false, true)).toBe(true)
    expect(wantsProgress('json', false, true)).toBe(false)
    expect(wantsProgress('csv', true, true)).toBe(false)
    expect(wantsProgress('csv', false, false)).toBe(false)
  })

  it('redraws one line with pages and records of Total-Record-Count, and clears it at the end', () => {
    const out = new PassThrough()
    let text = ''
    out.on('data', (chunk: Buffer) => (text += chunk.toString()))
    const progress = listProgress(out)
    progress.onPage({ page: 1, pageCount: 3, totalRecordCount: 250, items: new Array(100) })
    progress.onPage({ page: 2, pageCount: 3, totalRecordCount: 250, items: new Array(100) })
    progress.end()
    expect(text).toBe('\r\u001b[2KFetched page 1 of 3 (100 of 250 records)\r\u001b[2KFetched page 2 of 3 (200 of 250 records)\r\u001b[2K')
  })

  it('formats bytes', () => {
    expect([formatBytes(980), formatBytes(12_345), formatBytes(4_500_000)]).toEqual(['980 B', '12.3 KB', '4.5 MB'])
  })
})

describe('prompts', () => {
  it('never ask under CI or --no-input, or off a terminal', () => {
    expect(canPrompt(true, {})).toBe(false)
    expect(canPrompt(false, { CI: 'true' })).toBe(false)
    // The test runner's stdin is not a terminal.
    expect(canPrompt(false, {})).toBe(Boolean(process.stdin.isTTY && process.stderr.isTTY))
  })
})

describe('doctor checks', () => {
  it('passes a 0700 folder with a 0600 store, and names the chmod for anything readable by others', () => {
    const good = join(scratch, 'good')
    mkdirSync(good, { mode: 0o700 })
    writeFileSync(join(good, 'profiles.json'), '{}', { mode: 0o600 })
    expect(checkStorePermissions(good).ok).toBe(true)

    const openFile = join(scratch, 'open-file')
    mkdirSync(openFile, { mode: 0o700 })
    writeFileSync(join(openFile, 'profiles.json'), '{}')
    chmodSync(join(openFile, 'profiles.json'), 0o644)
    expect(checkStorePermissions(openFile)).toMatchObject({ ok: false, fix: `chmod 600 '${join(openFile, 'profiles.json')}'` })

    const openDir = join(scratch, 'open-dir')
    mkdirSync(openDir)
    chmodSync(openDir, 0o755)
    expect(checkStorePermissions(openDir)).toMatchObject({ ok: false, fix: `chmod 700 '${openDir}'` })
  })

  it('checks the Node version against 20.18.1', () => {
    expect(checkNode('20.18.1').ok).toBe(true)
    expect(checkNode('22.0.0').ok).toBe(true)
    expect(checkNode('20.17.9')).toMatchObject({ ok: false })
    expect(checkNode('18.20.0')).toMatchObject({ ok: false })
  })

  it('checks the key prefix against the environment', () => {
    const settings = (environment: string, credential: string) => ({ environment, credential, credentialKind: 'merchant-secret-key' }) as ResolvedSettings
    expect(checkKeyPrefix(settings('sandbox', 'sandbox_sk_x')).ok).toBe(true)
    expect(checkKeyPrefix(settings('production', 'live_sk_x')).ok).toBe(true)
    expect(checkKeyPrefix(settings('production', 'sandbox_sk_x')).ok).toBe(false)
    expect(checkKeyPrefix(settings('local', 'live_sk_x')).ok).toBe(false)
  })

  it('exits 0 only when every check passes', () => {
    const ok = { check: 'node', ok: true, detail: '' }
    expect(doctorExitCode([ok])).toBe(0)
    expect(doctorExitCode([ok, { check: 'service reachable', ok: false, detail: '' }])).toBe(7)
    expect(doctorExitCode([{ check: 'credential accepted', ok: false, detail: '' }])).toBe(4)
    expect(doctorExitCode([{ check: 'config store permissions', ok: false, detail: '' }])).toBe(3)
  })
})
