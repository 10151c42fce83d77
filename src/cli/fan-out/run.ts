// The fan-out as a command runs it (base-command.ts `fanOut()`): which merchants, how many at
// once, and the exit code when some failed. The mechanics are in engine.ts.
import type { CallOptions, PayfacClient } from '../../client/index.js'
import type { View } from '../../output/index.js'
import { describeError, exitCodeFor } from '../errors/exit-codes.js'
import { DEFAULT_FAN_OUT_CONCURRENCY, type FanOutFailure, checkFanOutCredential, failureReport, fanOut, merchantIdsOf, withMerchantColumn } from './engine.js'

/** One merchant's part of a fan-out (`fanOutFlags()`): its records, or one record. */
export type MerchantRun<R> = (merchantId: string, call: CallOptions) => AsyncIterable<R> | Promise<R>

export interface FanOutSettings {
  'each-merchant'?: boolean | undefined
  merchants?: string | undefined
  concurrency?: number | undefined
  credentialKind: string
  client: PayfacClient
}

/** Every merchant the marketplace credential can see, walked page by page. */
async function* marketplaceMerchants(client: PayfacClient): AsyncGenerator<string> {
  for await (const merchant of client.merchants.iterate({ limit: 100 })) {
    const id = (merchant as { merchantId?: unknown }).merchantId
    if (typeof id === 'string') yield id
  }
}

export async function runFanOut<R>(
  s: FanOutSettings,
  view: View<R>,
  run: MerchantRun<R>,
  show: (view: View<R>, rows: AsyncIterable<R>) => Promise<number>,
): Promise<number> {
  checkFanOutCredential(s.credentialKind)
  const ids = s.merchants !== undefined ? await merchantIdsOf(s.merchants) : marketplaceMerchants(s.client)
  let total = 0
  const counted = async function* () {
    for await (const id of ids) {
      total += 1
      yield id
    }
  }
  const failures: FanOutFailure[] = []
  const rows = fanOut(counted(), s.concurrency ?? DEFAULT_FAN_OUT_CONCURRENCY, (id) => run(id, { context: { merchantId: id } }), failures)
  const count = await show(withMerchantColumn(view) as View<R>, rows)
  const refused = failureReport(failures, (error) => describeError(error).message, total)
  if (refused) process.exitCode = exitCodeFor(refused)
  return count
}
