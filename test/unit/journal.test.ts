// The journal of `payto pay` (config/journal.ts): where it lives, atomic 0600 writes, damaged
// files refused, and how inputs are compared.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { ConfigError } from '../../src/config/errors.js'
import {
  changedInputs,
  journalFileName,
  journalPath,
  journalScope,
  journalKey,
  maskAccount,
  newPayToPayRun,
  protectAccount,
  readPayToPayRun,
  writePayToPayRun,
  type PayToPayInputs,
} from '../../src/config/journal.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

const key = Buffer.alloc(32, 7)
const inputs: PayToPayInputs = {
  customerName: 'Jo Citizen',
  account: protectAccount(key, 'Bban', '062000 12345678'),
  amount: { minorCurrencyUnits: 1250, currency: 'AUD' },
  purpose: null,
  description: null,
}

let cleanup: (() => void) | undefined
afterEach(() => cleanup?.())

function tempDir(): string {
  const temp = makeTempConfigDir('payfac-journal-')
  cleanup = temp.cleanup
  return temp.dir
}

describe('where a journal lives', () => {
  it('is <config>/journal/<profile>/<reference>.json', () => {
    expect(journalPath('/cfg', journalScope('dev', 'https://sandbox.example.com'), 'inv-1001')).toBe(path.join('/cfg', 'journal', 'dev', 'inv-1001.json'))
  })

  it('uses a hash of the base URL when no profile is in use, the same with or without a trailing slash', () => {
    const scope = journalScope(undefined, 'http://127.0.0.1:4010')
    expect(scope).toMatch(/^url-[0-9a-f]{16}$/)
    expect(journalScope(undefined, 'http://127.0.0.1:4010/')).toBe(scope)
    expect(journalScope(undefined, 'http://127.0.0.1:4011')).not.toBe(scope)
  })

  it('keeps a plain reference as the file name and makes any other one safe and distinct', () => {
    expect(journalFileName('inv-1001')).toBe('inv-1001.json')
    const odd = journalFileName('../../etc/passwd')
    expect(odd).not.toContain('/')
    expect(odd).toMatch(/^etc_passwd-[0-9a-f]{12}\.json$/)
    expect(journalFileName('order 1')).not.toBe(journalFileName('order_1'))
    expect(journalFileName('..')).toMatch(/^[0-9a-f]{12}\.json$/)
  })
})

describe('reading and writing', () => {
  it('reads nothing when there is no journal', () => {
    expect(readPayToPayRun(path.join(tempDir(), 'journal', 'x', 'none.json'))).toBeUndefined()
  })

  it('writes atomically with mode 0600 in a 0700 folder, and reads back what it wrote', () => {
    const file = journalPath(tempDir(), 'local', 'inv-1')
    const run = newPayToPayRun('inv-1', inputs, new Date('2026-01-01T00:00:00Z'))
    run.agreement = { state: 'sent', token: 'ptagr_1', approved: false, at: '2026-01-01T00:00:01.000Z' }
    const saved = writePayToPayRun(file, run, new Date('2026-01-01T00:00:02Z'))
    expect(saved.updatedAt).toBe('2026-01-01T00:00:02.000Z')
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700)
    expect(fs.readdirSync(path.dirname(file))).toEqual(['inv-1.json'])
    expect(readPayToPayRun(file)).toEqual(saved)
    expect(saved.runId).toMatch(/^run_/)
  })

  it('refuses a damaged journal with its path (exit 3) and leaves it as it is', () => {
    const file = journalPath(tempDir(), 'local', 'inv-2')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, '{"format": "payfac-journal", "version": 1, "flow": "payto-pay"')
    expect(() => readPayToPayRun(file)).toThrow(ConfigError)
    expect(() => readPayToPayRun(file)).toThrow(/inv-2\.json is damaged: it is not valid JSON/)
    fs.writeFileSync(file, JSON.stringify({ format: 'payfac-journal', version: 2, flow: 'payto-pay', reference: 'inv-2' }))
    expect(() => readPayToPayRun(file)).toThrow(/is damaged: runId/)
    expect(fs.readFileSync(file, 'utf8')).toContain('inv-2')
  })

  it('refuses a journal of another version', () => {
    const file = journalPath(tempDir(), 'local', 'inv-3')
    const run = writePayToPayRun(file, newPayToPayRun('inv-3', inputs))
    fs.writeFileSync(file, JSON.stringify({ ...run, version: 3 }))
    expect(() => readPayToPayRun(file)).toThrow(/damaged: version/)
  })
})

describe('the account at rest', () => {
  it('is masked and hashed under the folder key: never the full number, and the same number matches', () => {
    const dir = tempDir()
    const folderKey = journalKey(dir)
    expect(fs.statSync(path.join(dir, 'journal-key')).mode & 0o777).toBe(0o600)
    expect(journalKey(dir)).toEqual(folderKey)
    const account = protectAccount(folderKey, 'Bban', '062-000 12345678')
    expect(account.masked).toBe('***678')
    expect(JSON.stringify(account)).not.toMatch(/12345678|062-000/)
    expect(protectAccount(folderKey, 'Bban', '062-000 12345678')).toEqual(account)
    expect(protectAccount(folderKey, 'Bban', '062-000 12345679').hash).not.toBe(account.hash)
    expect(protectAccount(Buffer.alloc(32, 1), 'Bban', '062-000 12345678').hash).not.toBe(account.hash)
    expect(maskAccount('Email', 'jo@example.com')).toBe('j***om')
  })

  it('a format-1 journal (account as sent) is read with the account protected, so its run resumes', () => {
    const file = journalPath(tempDir(), 'local', 'inv-old')
    const run = writePayToPayRun(file, newPayToPayRun('inv-old', inputs))
    fs.writeFileSync(file, JSON.stringify({ ...run, version: 1, inputs: { ...run.inputs, account: { type: 'Bban', value: '062000 12345678' } } }))
    const read = readPayToPayRun(file, key)
    expect(read?.version).toBe(2)
    expect(read && changedInputs(read.inputs, inputs)).toEqual([])
    expect(() => readPayToPayRun(file)).toThrow(/older payfac \(format 1\)/)
  })
})

describe('changedInputs', () => {
  it('is empty for the same inputs and names each one that changed', () => {
    expect(changedInputs(inputs, { ...inputs })).toEqual([])
    expect(changedInputs(inputs, { ...inputs, amount: { minorCurrencyUnits: 1251, currency: 'AUD' } })).toEqual(['amount'])
    expect(changedInputs(inputs, { ...inputs, account: protectAccount(key, 'Phone', '+61412345678'), customerName: 'J C' })).toEqual(['name', 'account'])
    expect(changedInputs(inputs, { ...inputs, purpose: 'Rent', description: 'May' })).toEqual(['purpose', 'description'])
  })
})
