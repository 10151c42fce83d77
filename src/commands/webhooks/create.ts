import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fromFile } from '../../cli/bulk/index.js'
import { metadataFlag } from '../../cli/flags/index.js'
import { bulkFlags, rowFlags } from '../../cli/flags/bulk.js'
import { checkEventName, checkWebhookUrl, warnUnknownEvents, webhookEnvelope, webhookLevel } from '../../cli/requests/webhooks.js'
import { webhookWithSecretView } from '../../output/views/webhooks.js'

export default class WebhooksCreate extends ApiCommand<typeof WebhooksCreate> {
  static override summary = 'Subscribe a URL to events; shows the signing secret once.'
  static override description =
    'With a marketplace API key and no merchant in context (no --merchant-id) the subscription is marketplace-level ' +
    '(CreateWebhookMarketplaceSubscription); with merchant credentials, or with --merchant-id (the Merchant-Id header), it is ' +
    'merchant-level (CreateWebhookMerchantSubscription). The URL must be https (plain http only to 127.0.0.1, localhost or ' +
    '[::1] for local development). Event names are PascalCase, a noun then a verb, such as TransactionPaid. Keep the ' +
    'secret this prints: later it is shown only by `webhooks get --show-secret`.'

  static override examples = [
    '<%= config.bin %> webhooks create --url https://hooks.example.com/payfac --events TransactionPaid --events TransactionRefunded',
    '<%= config.bin %> webhooks create --url https://hooks.example.com/onboarding --events MerchantCreated --description "Onboarding" --metadata team=onboarding',
    '<%= config.bin %> webhooks create --url http://127.0.0.1:8080/hook --events OrderCreated --merchant-id mcht_LocalSubMerch001 --json',
    '<%= config.bin %> webhooks create --from-file hooks.jsonl',
  ]

  static override flags = {
    ...rowFlags({
      url: Flags.string({
        description: 'Destination called by HTTP POST on each event (https).',
        required: true,
        parse: async (input) => checkWebhookUrl(input),
      }),
      events: Flags.string({
        description: 'Event name to deliver, such as TransactionPaid (repeatable); * for every event where the service allows it (the emulator does).',
        required: true,
        multiple: true,
        parse: async (input) => checkEventName(input),
      }),
      description: Flags.string({ description: 'What the subscription is for.' }),
      metadata: metadataFlag('Metadata as key=value (repeatable); included in every delivery of this subscription.'),
    }),
    ...bulkFlags(),
  }

  async run() {
    if (this.flags['from-file']) return fromFile(this.bulkHost())
    const settings = await this.settings()
    const envelope = webhookEnvelope(webhookLevel(settings.credentialKind, settings.context.merchantId), this.flags)
    warnUnknownEvents(this.flags.events)
    const client = await this.client()
    return this.show(webhookWithSecretView, await client.webhooks.create(envelope))
  }
}
