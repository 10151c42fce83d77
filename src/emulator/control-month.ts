// Control-plane routes of the month-end fixture (control-plane.ts lists them):
//   POST   /__emulator/fixtures/month          {subMerchants?, transactions?, days?, seed?, mismatch?}
//   DELETE /__emulator/settlement/{entryId}    remove one settlement entry
import { z } from 'zod'
import { describeIssues } from '../client/schemas/common.js'
import { WELL_KNOWN } from '../well-known.js'
import { EmulatorError, badRequest } from './api-error.js'
import { buildMonth, type Operation } from './month.js'
import { MISMATCH_KINDS, removeSettlementEntry, seedMismatch } from './month-mismatch.js'
import type { Namespace } from './namespaces.js'
import { handleRequest } from './pipeline.js'
import type { IdGenerator } from './ids.js'

const MonthBody = z.strictObject({
  subMerchants: z.number().int().min(0).max(20).optional(),
  transactions: z.number().int().min(1).max(5000).optional(),
  days: z.number().int().min(1).max(31).optional(),
  seed: z.string().min(1).max(64).optional(),
  mismatch: z.enum(MISMATCH_KINDS).optional(),
})

/** Operations as the marketplace would send them, with Merchant-Id when one is named. */
function operations(ns: Namespace): Operation {
  // The state file (--state) is saved once at the end, not after each of the month's requests.
  const { afterChange: _saveLater, ...deps } = ns.deps
  return (method, path, body, merchantId) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${WELL_KNOWN.credentials.marketplaceApiKey}`,
      accept: 'application/json',
      'content-type': 'application/json',
      ...(merchantId ? { 'merchant-id': merchantId } : {}),
    }
    const answer = handleRequest(deps, { method, url: path, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = typeof answer.body === 'string' ? answer.body : answer.body.toString('utf8')
    const parsed = text === '' ? undefined : JSON.parse(text)
    if (answer.status >= 400)
      throw new EmulatorError(answer.status, parsed?.errorCode ?? 'month_failed', `Month fixture: ${method} ${path}: ${parsed?.message ?? answer.status}`)
    return parsed
  }
}

/** Resets the namespace, puts its clock a month back, builds the month up to now, seeds a mismatch when asked. */
export function monthFixture(ns: Namespace, ids: IdGenerator, body: unknown) {
  const parsed = MonthBody.safeParse(body ?? {})
  if (!parsed.success) throw badRequest('invalid_request', `Invalid request: ${describeIssues(parsed.error)}`)
  const options = parsed.data
  const days = options.days ?? 30
  if (!ns.clock.rewind) throw new EmulatorError(409, 'clock_fixed', 'This namespace clock cannot be moved back')
  ns.reset()
  const wallStart = Date.now()
  const start = ns.clock.now().getTime()
  // The month starts a minute inside "the last N days" and ends now.
  ns.clock.rewind(days * 86_400 - 60)
  const summary = buildMonth(
    operations(ns),
    (s) => ns.clock.advance(s),
    () => ns.clock.now(),
    options,
  )
  const behind = (start + (Date.now() - wallStart) - ns.clock.now().getTime()) / 1000
  if (behind > 0) ns.clock.advance(behind)
  const mismatch = options.mismatch ? seedMismatch(ns.store, ids, options.mismatch, summary.transactionIds) : null
  ns.settle(null)
  ns.persist()
  const { transactionIds: _ids, ...rest } = summary
  return { namespace: ns.name, ...rest, to: ns.clock.now().toISOString(), mismatch }
}

export function removeEntry(ns: Namespace, settlementEntryId: string) {
  const removed = removeSettlementEntry(ns.store, settlementEntryId)
  ns.persist()
  return { namespace: ns.name, removed }
}
