// A run whose lock may have been taken over by another (it was paused past the lock's stale time,
// or its lock folder was made anew: config/op-lock.ts) sends nothing: a money operation checks
// right before sending (journal-ops.ts), payto pay before each journal write and request.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import type { PayfacClient } from '../../src/client/client.js'
import { UnresolvedOutcomeError } from '../../src/cli/errors/index.js'
import { runPayToPay } from '../../src/cli/flows/payto-pay.js'
import { payoutOperation } from '../../src/cli/safety/creation-ops.js'
import { SafetySession } from '../../src/cli/safety/session.js'
import type { ResolvedSettings } from '../../src/config/resolve.js'
import { makeTempConfigDir } from '../helpers/tmp-config.js'

describe('payto pay after its lock was lost', () => {
  it('sends nothing and writes no journal', async () => {
    const { dir, cleanup } = makeTempConfigDir()
    const journalFile = path.join(dir, 'journal', 'svc-x', 'lost-1.json')
    const sent: string[] = []
    const client = {
      orders: { list: async () => ({ items: [], page: 1, limit: 100, pageCount: 1, totalRecordCount: 0 }) },
      payto: { sendAgreement: async () => void sent.push('agreement') },
    } as unknown as PayfacClient
    const request = {
      reference: 'lost-1',
      agreement: {
        customerName: 'Jo Citizen',
        customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
        terms: { AgreementRequestTermsOneOff: { amount: { amount: 400, currency: 'AUD' } } },
        purpose: 'test',
      },
      description: undefined,
      approve: true,
      restart: false,
      intervalMs: 100,
      timeoutMs: 1000,
    }
    const context = {
      client,
      environment: 'local' as const,
      journalFile,
      resume: 'payfac payto pay …',
      stderr: { write: () => true, isTTY: false },
      signal: new AbortController().signal,
      accountKey: Buffer.alloc(32, 1),
      check: 'payfac orders list --reference lost-1',
      lost: () => 'this run was paused for 12 s while it held the lock',
    }
    await expect(runPayToPay(request as never, context as never)).rejects.toBeInstanceOf(UnresolvedOutcomeError)
    expect(sent).toEqual([])
    expect(fs.existsSync(journalFile)).toBe(false)
    cleanup()
  })
})

/** Every `*.lock` folder under `dir`. */
function lockFolders(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.endsWith('.lock'))
    .map((e) => path.join(e.parentPath, e.name))
}

describe('a money operation whose lock was taken over while it read', () => {
  it('sends nothing (exit 7, naming the check) and journals no intent', async () => {
    const { dir, cleanup } = makeTempConfigDir()
    const restore = useConfigDir(dir)
    const sent: unknown[] = []
    const client = {
      transactions: {
        payouts: {
          // The witness read: meanwhile another run takes the lock over (its folder made anew).
          list: async () => {
            for (const folder of lockFolders(dir)) {
              fs.rmdirSync(folder)
              fs.mkdirSync(folder)
            }
            return { items: [], page: 1, limit: 100, pageCount: 1, totalRecordCount: 0 }
          },
          request: async (body: unknown) => void sent.push(body),
        },
      },
    } as unknown as PayfacClient
    const session = payoutSession('0001')
    try {
      const run = payoutOperation(session, client, { amount: { minorCurrencyUnits: 1000, currency: 'AUD' } })
      await expect(run).rejects.toBeInstanceOf(UnresolvedOutcomeError)
      await expect(run).rejects.toThrow(/taken over by another payfac run.*Nothing was sent/)
      expect(sent).toEqual([])
      const records = fs.readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.json') && String(name).includes('payout-'))
      expect(records).toEqual([])
    } finally {
      restore()
      cleanup()
    }
  })
})

describe('a money operation whose lock is taken over once its intent is written', () => {
  it('sends nothing when asked right before the request leaves (after any confirmation), and leaves the record to the other run', async () => {
    const { dir, cleanup } = makeTempConfigDir()
    const restore = useConfigDir(dir)
    const sent: unknown[] = []
    const session = payoutSession('0002')
    const client = {
      transactions: {
        payouts: {
          list: async () => ({ items: [], page: 1, limit: 100, pageCount: 1, totalRecordCount: 0 }),
          // The intent is written; before the request leaves (a prompt, a pause) another run takes
          // the lock over. The client asks the session's hook right before sending, as its transport does.
          request: async (body: unknown) => {
            for (const folder of lockFolders(dir)) {
              fs.rmdirSync(folder)
              fs.mkdirSync(folder)
            }
            await session.intercept({ method: 'POST', url: 'http://127.0.0.1:9/payouts', path: '/payouts', headers: {}, body })
            sent.push(body)
          },
        },
      },
    } as unknown as PayfacClient
    try {
      const run = payoutOperation(session, client, { amount: { minorCurrencyUnits: 1000, currency: 'AUD' } })
      await expect(run).rejects.toBeInstanceOf(UnresolvedOutcomeError)
      await expect(run).rejects.toThrow(/taken over by another payfac run.*Nothing was sent/)
      expect(sent).toEqual([])
      // The intent stays `sending` (this run wrote no outcome over what the other run may write).
      const records = fs.readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith('.json') && String(name).includes('payout-'))
      expect(records).toHaveLength(1)
      const record = JSON.parse(fs.readFileSync(path.join(dir, String(records[0])), 'utf8'))
      expect(record.state).toBe('sending')
      expect(session.beforeSend).toBeUndefined()
    } finally {
      restore()
      cleanup()
    }
  })
})

/** A `payouts request` safety session of a local merchant, its credential and merchant ending in `n`. */
function payoutSession(n: string): SafetySession {
  const settings: ResolvedSettings = {
    profileName: undefined,
    source: 'env',
    environment: 'local',
    baseUrl: 'http://127.0.0.1:9',
    credential: `sandbox_sk_lostLockTest${n}`,
    credentialKind: 'merchant-secret-key',
    context: { merchantId: `mcht_LostLockTest${n}` },
    notices: [],
  }
  return new SafetySession({ commandId: 'payouts:request', settings, dryRun: false, yes: false, again: false, bin: 'payfac', terminal: false })
}

/** Points PAYFAC_CONFIG_DIR at `dir`; the function it returns puts it back. */
function useConfigDir(dir: string): () => void {
  const saved = process.env.PAYFAC_CONFIG_DIR
  process.env.PAYFAC_CONFIG_DIR = dir
  return () => {
    if (saved === undefined) delete process.env.PAYFAC_CONFIG_DIR
    else process.env.PAYFAC_CONFIG_DIR = saved
  }
}
