// The deadline as a lost answer: the emulator applies a refund and holds its answer back
// (latency fault) past the client's deadline. The refund runs through the same runner as the
// command (a client with a short deadline, since the command has no flag for one), is journaled
// as unknown, and the command run again finds the refund: one refund on the emulator.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { createClient } from '../../src/client/index.js'
import { OutcomeUnknownError } from '../../src/client/errors.js'
import { SafetySession } from '../../src/cli/safety/session.js'
import { refundOperation } from '../../src/cli/safety/transaction-ops.js'
import type { ResolvedSettings } from '../../src/config/resolve.js'
import { useEmulator } from '../helpers/command-harness.js'
import { paidByPayTo } from '../helpers/flows.js'

const { ctx, payfac, json } = useEmulator()

let savedConfigDir: string | undefined
beforeEach(() => {
  savedConfigDir = process.env.PAYFAC_CONFIG_DIR
  process.env.PAYFAC_CONFIG_DIR = ctx.env.PAYFAC_CONFIG_DIR
})
afterEach(() => {
  if (savedConfigDir === undefined) delete process.env.PAYFAC_CONFIG_DIR
  else process.env.PAYFAC_CONFIG_DIR = savedConfigDir
})

describe('a refund whose answer comes after the deadline', () => {
  it('is an unknown outcome naming the check; the command run again finds it; one refund', async () => {
    const { transactionId } = await paidByPayTo(json, '15.00', 'deadline')
    const settings: ResolvedSettings = {
      profileName: undefined,
      source: 'env',
      environment: 'local',
      baseUrl: ctx.emulator.url,
      credential: ctx.env.PAYFAC_API_KEY as string,
      credentialKind: 'merchant-secret-key',
      context: {},
      notices: [],
    }
    const session = new SafetySession({ commandId: 'transactions:refund', settings, dryRun: false, yes: false, again: false, bin: 'payfac', terminal: false })
    const client = createClient({
      baseUrl: settings.baseUrl,
      credential: settings.credential,
      timeoutMs: 300,
      intercept: session.intercept,
      signal: session.controller.signal,
    })

    await json('emulator', 'faults', '--add', 'latency=1500', '--method', 'PATCH', '--path', '/transactions/*')
    let error: unknown
    try {
      await refundOperation(session, client, { transactionId, amount: '5.00', currency: undefined, expectRefunded: undefined })
    } catch (caught) {
      error = caught
    } finally {
      await json('emulator', 'faults', '--clear')
    }
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error).toMatchObject({
      lost: 'timeout',
      action: `refund of 5.00 AUD on transaction ${transactionId}`,
      check: `payfac transactions get ${transactionId}`,
    })

    const again = await payfac('transactions', 'refund', transactionId, '--amount', '5.00')
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('It happened')
    const transaction = await json('transactions', 'get', transactionId)
    expect(transaction.purchaseDetails).toMatchObject({ refundedAmount: 500, refundIds: [expect.any(String)] })
  })
})
