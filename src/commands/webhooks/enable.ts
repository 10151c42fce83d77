import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { withoutSecret } from '../../cli/requests/webhooks.js'
import { webhookView } from '../../output/views/webhooks.js'

export default class WebhooksEnable extends ApiCommand<typeof WebhooksEnable> {
  static override summary = 'Resume deliveries of a webhook subscription (status Active).'
  static override description = 'Sends UpdateWebhookSubscriptionStatus with status Active. The secret is not shown.'
  static override examples = ['<%= config.bin %> webhooks enable webhook_Gh2jK4lM6nP8qR0s', '<%= config.bin %> webhooks enable webhook_Gh2jK4lM6nP8qR0s --json']

  static override args = {
    id: idArg('webhook', 'Subscription id (webhook_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(webhookView, withoutSecret(await client.webhooks.setStatus(this.args.id, 'Active')))
  }
}
