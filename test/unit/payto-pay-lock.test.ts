// payto pay holds its reference's lock for the whole run; a run whose lock may have been taken
// over (paused past its stale time: config/op-lock.ts) neither writes its journal nor sends.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import type { PayfacClient } from '../../src/client/client.js'
import { UnresolvedOutcomeError } from '../../src/cli/errors.js'
import { runPayToPay } from '../../src/cli/flows/payto-pay.js'
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
