// Control-plane routes of the month-end fixture (control-plane.ts lists them):
//   POST   /__emulator/fixtures/month          {subMerchants?, transactions?, days? | month?, seed?, mismatch?}
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

/** The first month the fixture fills: the seeded merchants are made on 2025-01-01. */
export const FIRST_MONTH = '2025-01'
/** At most this many seeded differences. */
export const MAX_MISMATCHES = 5

const MonthBody = z.strictObject({
  subMerchants: z.number().int().min(0).max(20).optional(),
  transactions: z.number().int().min(1).max(5000).optional(),
  days: z.number().int().min(1).max(31).optional(),
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a calendar month as YYYY-MM')
    .optional(),
  seed: z.string().min(1).max(64).optional(),
  mismatch: z.union([z.enum(MISMATCH_KINDS), z.array(z.enum(MISMATCH_KINDS)).min(1).max(MAX_MISMATCHES)]).optional(),
})

/** `2026-10` as its first instant and the first instant of the next month (UTC). */
export function calendarMonth(month: string): { from: Date; to: Date } {
  const [year, m] = month.split('-').map(Number) as [number, number]
  return { from: new Date(Date.UTC(year, m - 1, 1)), to: new Date(Date.UTC(year, m, 1)) }
}

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

/**
 * Resets the namespace, puts its clock back and builds the month, seeding the mismatches asked
 * for. Without `month`: the last `days` days, ending now. With `month` (YYYY-MM): exactly that
 * calendar month in UTC, from its first instant to before the first instant of the next (it must
 * be over by the namespace's clock, and not before FIRST_MONTH); the clock then comes back to the
 * present.
 */
export function monthFixture(ns: Namespace, ids: IdGenerator, body: unknown) {
  const parsed = MonthBody.safeParse(body ?? {})
  if (!parsed.success) throw badRequest('invalid_request', `Invalid request: ${describeIssues(parsed.error)}`)
  const options = parsed.data
  if (options.month !== undefined && options.days !== undefined) {
    throw badRequest('invalid_request', 'Invalid request: give month or days, not both (a month has its own days)')
  }
  if (!ns.clock.rewind) throw new EmulatorError(409, 'clock_fixed', 'This namespace clock cannot be moved back')
  const start = ns.clock.now().getTime()
  const calendar = options.month === undefined ? undefined : calendarMonth(options.month)
  if (calendar && calendar.to.getTime() > start) {
    throw badRequest('month_not_over', `Invalid request: ${options.month} is not over yet (the emulator's clock reads ${new Date(start).toISOString()})`)
  }
  if (options.month !== undefined && options.month < FIRST_MONTH) {
    throw badRequest('month_too_early', `Invalid request: the month fixture starts at ${FIRST_MONTH} (the seeded merchants are made on its first day)`)
  }
  const days = calendar ? Math.round((calendar.to.getTime() - calendar.from.getTime()) / 86_400_000) : (options.days ?? 30)
  ns.reset()
  const wallStart = Date.now()
  // Without a month, it starts a minute inside "the last N days" and ends now; a month starts at
  // its first instant.
  ns.clock.rewind(calendar ? (start - calendar.from.getTime()) / 1000 : days * 86_400 - 60)
  const summary = buildMonth(
    operations(ns),
    (s) => ns.clock.advance(s),
    () => ns.clock.now(),
    { ...options, days },
  )
  const behind = (start + (Date.now() - wallStart) - ns.clock.now().getTime()) / 1000
  if (behind > 0) ns.clock.advance(behind)
  const kinds = options.mismatch === undefined ? [] : Array.isArray(options.mismatch) ? options.mismatch : [options.mismatch]
  const used = new Set<string>()
  const mismatches = kinds.map((kind) => {
    const seeded = seedMismatch(ns.store, ids, kind, summary.transactionIds, used)
    if (seeded.transactionId) used.add(seeded.transactionId)
    return seeded
  })
  ns.settle(null)
  ns.persist()
  const { transactionIds: _ids, ...rest } = summary
  return {
    namespace: ns.name,
    ...rest,
    ...(calendar ? { month: options.month, from: calendar.from.toISOString(), to: calendar.to.toISOString() } : { to: ns.clock.now().toISOString() }),
    mismatch: mismatches[0] ?? null,
    mismatches,
  }
}

export function removeEntry(ns: Namespace, settlementEntryId: string) {
  const removed = removeSettlementEntry(ns.store, settlementEntryId)
  ns.persist()
  return { namespace: ns.name, removed }
}
