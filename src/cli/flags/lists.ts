// Flags of list walks and of time budgets. Light: loaded for every command.
import * as Flags from '@oclif/core/flags'

import type { RetryEvent } from '../../client/options.js'

import { requestTimeoutMs } from '../validate/durations.js'
import { checkedBy } from './checked.js'

/**
 * `--concurrency`: requests at once. One flag for both of its uses, so that a list command with
 * a fan-out (`fanOutFlags()`) has one meaning per situation: merchants at once with
 * `--each-merchant`/`--merchants`, otherwise pages in flight with `--all`.
 */
export const concurrencyFlag = Flags.integer({
  description:
    'Requests at once (default 4): pages in flight with --all (records still come in order), or merchants asked at once with --each-merchant or --merchants.',
  min: 1,
  max: 16,
  helpGroup: 'PAGINATION',
})

/** `--concurrency` and `--allow-partial`, beside `--all` on every list command. */
export function walkFlags() {
  return {
    concurrency: concurrencyFlag,
    'allow-partial': Flags.boolean({
      description: 'With --all: print what the service gives even when a page comes back short or the list changes mid-walk (a warning on stderr, exit 0).',
      helpGroup: 'PAGINATION',
    }),
  }
}

/** `--timeout` of every command that calls the service (a waiting command's own `--timeout` bounds its wait instead). */
export const timeoutFlag = Flags.string({
  description:
    'Give up on one request after this long, such as 10s, from 1ms to 24h (default 30s, or PAYFAC_TIMEOUT); a read with its retries stops at 60s or this, whichever is longer.',
  helpGroup: 'GLOBAL',
  parse: checkedBy((input) => requestTimeoutMs(input, '--timeout')),
})

/** One stderr line about a retry: `Retrying GET /orders in 1.2 s (retry 1 of 3, 0.4 s so far): <reason>`. */
export function describeRetry(event: RetryEvent): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  return `Retrying ${event.method} ${event.path} in ${s(event.waitMs)} (retry ${event.retry} of ${event.maxRetries}, ${s(event.elapsedMs)} so far): ${event.reason}`
}
