import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag } from '../../cli/flags/index.js'
import { CONTROL_PATH, checkEventType, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { readDataObject } from '../../cli/files/input.js'
import { genericView } from '../../output/views/generic.js'

export default class EmulatorTrigger extends ApiCommand<typeof EmulatorTrigger> {
  static override summary = 'Send a synthetic webhook event to the matching subscriptions.'
  static override description =
    'Delivers an event of the given type, with --data as its `event` record, to every Active subscription that ' +
    'takes it: merchant-level subscriptions of the merchant in context (--merchant-id, default the first merchant) ' +
    'and marketplace-level ones of its marketplace. Nothing else changes; the event is not added to the store.'

  static override examples = [
    '<%= config.bin %> emulator trigger TransactionPaid',
    `<%= config.bin %> emulator trigger DisputeOpened --data '{"dispute":{"disputeId":"dispute_test"}}'`,
    '<%= config.bin %> emulator trigger MerchantCreated --merchant-id mcht_LocalSubMerch001 --data @event.json',
  ]

  static override args = {
    eventType: Args.string({ description: 'Event name, such as TransactionPaid.', required: true, parse: async (input) => checkEventType(input) }),
  }

  static override flags = {
    namespace: namespaceFlag,
    data: dataFlag('The event record as JSON: text, @file, or - for stdin.'),
  }

  async run() {
    const data = this.flags.data === undefined ? undefined : await readDataObject(this.flags.data)
    const { context } = await this.settings()
    const body = { eventType: this.args.eventType, merchantId: context.merchantId, marketplaceId: context.merchantId ? undefined : context.marketplaceId, data }
    const client = await this.client()
    // The merchant goes in the body: the control plane reads no context headers.
    const answer = await client.request({ method: 'POST', path: `${CONTROL_PATH}/trigger`, headers: controlHeaders(this.flags.namespace), body })
    return this.show(genericView('trigger'), answer.body)
  }
}
