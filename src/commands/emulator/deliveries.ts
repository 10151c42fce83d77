import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, checkEventType, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { abortOnInterrupt, follow } from '../../cli/requests/emulator.js'
import { deliveryAttemptView, deliveryLine, type DeliveryAttemptRow } from '../../output/views/emulator.js'

/** Seconds each long poll of --follow waits for a new attempt (below the client's timeout). */
const POLL_SECONDS = 20

export default class EmulatorDeliveries extends ApiCommand<typeof EmulatorDeliveries> {
  static override summary = 'List webhook delivery attempts, or follow them as they happen.'
  static override description =
    'Every attempt the emulator made to deliver a webhook (the last 2000): delivery id, attempt number, event, url, ' +
    'the answer status, latency, outcome and error; --json adds the request headers and body and the start of the ' +
    'answer. --follow prints attempts as they happen (one JSON object per line with --json) until Ctrl-C, or until ' +
    '--count attempts have been printed.'

  static override examples = [
    '<%= config.bin %> emulator deliveries',
    '<%= config.bin %> emulator deliveries --follow',
    '<%= config.bin %> emulator deliveries --follow --json --event TransactionPaid --count 1',
  ]

  static override flags = {
    namespace: namespaceFlag,
    follow: Flags.boolean({ char: 'f', description: 'Keep printing attempts as they happen, until Ctrl-C.' }),
    event: Flags.string({ description: 'Only attempts of this event type.', parse: async (input) => checkEventType(input) }),
    delivery: Flags.string({ description: 'Only attempts of this delivery (dlv_…).' }),
    count: Flags.integer({ description: 'With --follow: stop after printing this many attempts.', min: 1 }),
  }

  async run() {
    const client = await this.client()
    const list = (extra: Record<string, number>, signal?: AbortSignal) =>
      client.request<DeliveryAttemptRow[]>({
        method: 'GET',
        path: `${CONTROL_PATH}/deliveries`,
        query: { eventType: this.flags.event, deliveryId: this.flags.delivery, ...extra },
        headers: controlHeaders(this.flags.namespace),
        signal,
      })
    if (!this.flags.follow) return this.showAll(deliveryAttemptView, (await list({})).body)
    const interrupt = abortOnInterrupt()
    try {
      const attempts = follow(async (after, signal) => (await list({ after, wait: POLL_SECONDS }, signal)).body, {
        signal: interrupt.signal,
        count: this.flags.count,
      })
      for await (const attempt of attempts) process.stdout.write(`${this.flags.json || this.flags.jsonl ? JSON.stringify(attempt) : deliveryLine(attempt)}\n`)
    } finally {
      interrupt.release()
    }
  }
}
