// SIGINT or SIGTERM while a refund is in flight: the emulator has applied it and holds the
// answer back (latency fault), payfac is interrupted, says the outcome is unknown and names the
// check, and exits 130 (SIGINT) or 143 (SIGTERM). Running the same command again finds the
// refund and sends nothing: the emulator holds one refund.
import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type Runners, runnersFor } from '../helpers/command-harness.js'
import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { paidByPayTo } from '../helpers/flows.js'
import { BIN } from '../helpers/spawn-cli.js'

let ctx: EmulatorEnv
let run: Runners

beforeAll(async () => {
  ctx = await startEmulatorEnv()
  run = runnersFor(() => ctx.env)
})

afterAll(async () => {
  await ctx?.close()
})

/** Spawns payfac; resolves with its exit once it ends. */
function start(args: string[]) {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...ctx.env })) if (value !== undefined) env[key] = value
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
  return { child, done }
}

/** Waits until the emulator's request log shows a PATCH of the transaction (applied, answer held back). */
async function untilInFlight(transactionId: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const log = (await run.json('emulator', 'requests', '--limit', '20')) as Array<{ method: string; url: string }>
    if (log.some((r) => r.method === 'PATCH' && r.url.includes(transactionId))) return
    await sleep(50)
  }
  throw new Error('the refund never reached the emulator')
}

describe('an interruption while a refund is in flight', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: outcome unknown, exit %i; the re-run finds the refund; one refund',
    async (signal, exit) => {
      const { transactionId } = await paidByPayTo(run.json, '9.00', `interrupt-${signal}`)
      await run.json('emulator', 'faults', '--add', 'latency=8000', '--method', 'PATCH', '--path', '/transactions/*')
      try {
        const refund = start(['transactions', 'refund', transactionId, '--amount', '4.00'])
        await untilInFlight(transactionId)
        const killedAt = Date.now()
        refund.child.kill(signal)
        const ended = await refund.done
        // It does not wait for the held answer (8 s).
        expect(Date.now() - killedAt).toBeLessThan(5_000)
        expect(ended.code, ended.stderr).toBe(exit)
        expect(ended.stderr).toContain(
          `Outcome unknown: refund of 4.00 AUD on transaction ${transactionId}. Interrupted by ${signal} while the request was in flight`,
        )
        expect(ended.stderr).toContain(`payfac transactions get ${transactionId}`)
      } finally {
        await run.json('emulator', 'faults', '--clear')
      }
      const again = await run.payfac('transactions', 'refund', transactionId, '--amount', '4.00')
      expect(again.code, again.stderr).toBe(0)
      expect(again.stderr).toContain('It happened')
      const transaction = await run.json('transactions', 'get', transactionId)
      expect(transaction.purchaseDetails.refundedAmount).toBe(400)
      expect(transaction.purchaseDetails.refundIds).toHaveLength(1)
    },
    30_000,
  )
})
