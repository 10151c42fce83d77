import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { withoutSecret } from '../../cli/requests/webhooks.js'
import { webhookView, webhookWithSecretView } from '../../output/views/webhooks.js'

export default class WebhooksGet extends ApiCommand<typeof WebhooksGet> {
  static override summary = 'Show a webhook subscription.'
  static override description =
    'The signing secret is left out of the table, JSON and CSV unless --show-secret is given (it is also shown once by `webhooks create`).'

  static override examples = [
    '<%= config.bin %> webhooks get webhook_Gh2jK4lM6nP8qR0s',
    '<%= config.bin %> webhooks get webhook_Gh2jK4lM6nP8qR0s --show-secret --json',
  ]

  static override args = {
    id: idArg('webhook', 'Subscription id (webhook_…).'),
  }

  static override flags = {
    'show-secret': Flags.boolean({ description: 'Include the signing secret in the output.' }),
  }

  async run() {
    const client = await this.client()
    const subscription = await client.webhooks.get(this.args.id)
    if (this.flags['show-secret']) return this.show(webhookWithSecretView, subscription)
    return this.show(webhookView, withoutSecret(subscription))
  }
}
