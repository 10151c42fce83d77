// Marketplace fan-out: one read command run once per sub-merchant (Merchant-Id each time), with a
// bounded number of merchants in flight, rows printed in merchant order as they arrive, and the
// merchants that failed collected (the caller lists them on stderr and exits 6). No oclif here.
import type { Column, View } from '../../output/index.js'
import { RefusedError, UsageError } from '../errors/index.js'
import { checkPrefix } from '../flags/index.js'
import { readDataText } from '../files/input.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { isIdColumn } from '../../output/table.js'

export const DEFAULT_FAN_OUT_CONCURRENCY = 4

export interface FanOutFailure {
  merchantId: string
  error: unknown
}

/** What one merchant's run gives: a stream of records, or one record. */
export type MerchantRun<R> = (merchantId: string) => AsyncIterable<R> | Promise<R>

/** Credential kinds that act for one merchant only: fan-out makes no sense with them. */
const MERCHANT_KINDS = new Set(['merchant-secret-key', 'merchant-jwt', 'customer-jwt', 'customer-api-key', 'pay-by-link-token'])

export function checkFanOutCredential(credentialKind: string): void {
  if (MERCHANT_KINDS.has(credentialKind)) {
    throw new UsageError(
      `--each-merchant and --merchants need a marketplace credential, and the one in use is a ${credentialKind}`,
      'Use a profile with the marketplace API key, or leave the flag out to act for this merchant',
    )
  }
}

/** The ids of `--merchants`: `mcht_a,mcht_b`, or `@file` with ids separated by lines or commas. */
export async function merchantIdsOf(value: string): Promise<string[]> {
  const text = value.startsWith('@') ? await readDataText(value, '--merchants', 'a list of merchants') : value
  const ids = text
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter((id) => id !== '' && !id.startsWith('#'))
  if (ids.length === 0) throw new UsageError('--merchants names no merchant', 'Give mcht_… ids separated by commas, or @file with one a line')
  const unique = [...new Set(ids.map((id) => checkPrefix(id, 'mcht', '--merchants')))]
  return unique
}

/** A record with the merchant it came from as its first field. */
export function tagged<R>(merchantId: string, record: R): R & { merchantId: string } {
  if (record && typeof record === 'object' && !Array.isArray(record)) {
    const out: Record<string, unknown> = { merchantId }
    Object.assign(out, record)
    out.merchantId = merchantId
    return out as R & { merchantId: string }
  }
  return { merchantId, value: record } as unknown as R & { merchantId: string }
}

/** The view with a `merchantId` column first (unless it has one). */
export function withMerchantColumn<R>(view: View<R>): View<R> {
  const column: Column<R> = { key: 'merchantId', header: 'Merchant' }
  const add = (columns: Column<R>[]) => (columns.some((c) => c.key === 'merchantId') ? columns : [column, ...columns])
  return {
    ...view,
    // --ids prints each record's own id, not the merchant it came from (unless it has no other).
    idKeyOf: view.idKeyOf ?? ((keys) => keys.find((key) => key !== 'merchantId' && isIdColumn({ key, header: key }))),
    columns: add(view.columns),
    ...(view.detail ? { detail: add(view.detail) } : {}),
    ...(view.fromSample
      ? {
          fromSample: (sample: R) => {
            const made = (view.fromSample as (s: R) => { columns: Column<R>[]; detail?: Column<R>[] })(sample)
            return { columns: add(made.columns), ...(made.detail ? { detail: add(made.detail) } : {}) }
          },
        }
      : {}),
  }
}

interface Task<R> {
  merchantId: string
  rows: R[]
  done: boolean
  wake: (() => void) | undefined
}

async function isIterable<R>(value: AsyncIterable<R> | Promise<R>): Promise<{ stream?: AsyncIterable<R>; one?: R }> {
  if (value && typeof (value as AsyncIterable<R>)[Symbol.asyncIterator] === 'function') return { stream: value as AsyncIterable<R> }
  return { one: (await value) as R }
}

/**
 * Runs `run` for each merchant, at most `concurrency` at once, and yields their records tagged
 * with `merchantId`, merchant by merchant in the given order: the first merchant's rows stream
 * as they come, later ones are held until their turn. A merchant that fails adds to `failures`
 * (rows it gave before failing are still printed).
 */
export async function* fanOut<R>(
  merchantIds: AsyncIterable<string> | Iterable<string>,
  concurrency: number,
  run: MerchantRun<R>,
  failures: FanOutFailure[],
): AsyncGenerator<R & { merchantId: string }> {
  const queue: Task<R>[] = []
  const ids = (merchantIds as AsyncIterable<string>)[Symbol.asyncIterator]
    ? (merchantIds as AsyncIterable<string>)[Symbol.asyncIterator]()
    : (async function* () {
        yield* merchantIds as Iterable<string>
      })()
  let exhausted = false

  const start = (merchantId: string): Task<R> => {
    const task: Task<R> = { merchantId, rows: [], done: false, wake: undefined }
    const notify = () => {
      const wake = task.wake
      task.wake = undefined
      wake?.()
    }
    void (async () => {
      try {
        const { stream, one } = await isIterable(run(merchantId))
        if (stream) {
          for await (const record of stream) {
            task.rows.push(record)
            notify()
          }
        } else task.rows.push(one as R)
      } catch (error) {
        failures.push({ merchantId, error })
      } finally {
        task.done = true
        notify()
      }
    })()
    return task
  }

  const fill = async () => {
    while (!exhausted && queue.length < concurrency) {
      const next = await ids.next()
      if (next.done) exhausted = true
      else queue.push(start(next.value))
    }
  }

  await fill()
  while (queue.length > 0) {
    const head = queue[0] as Task<R>
    while (head.rows.length > 0 || !head.done) {
      if (head.rows.length === 0) {
        await new Promise<void>((resolve) => (head.wake = resolve))
        continue
      }
      const rows = head.rows.splice(0)
      for (const row of rows) yield tagged(head.merchantId, row)
    }
    queue.shift()
    await fill()
  }
}

/**
 * Lines on stderr for the merchants that failed, and the error that stands for them (exit 6). The
 * caller sets the exit code from it rather than throwing, so that --json output stays one document.
 */
export function failureReport(failures: FanOutFailure[], describe: (error: unknown) => string, total: number): RefusedError | undefined {
  if (failures.length === 0) return undefined
  for (const f of failures) process.stderr.write(`${sanitizeLine(`Merchant ${f.merchantId} failed: ${describe(f.error)}`)}\n`)
  const refused = new RefusedError(`${failures.length} of ${total} merchants failed; the others were printed`)
  process.stderr.write(`Error: ${refused.message}\n`)
  return refused
}
