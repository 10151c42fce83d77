import type { Interfaces } from '@oclif/core'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fanOutFlags } from '../../cli/flags/range.js'
import { marketplaceFilterFlag, merchantFilterFlag, takeFilterIds } from '../../cli/flags/filters.js'
import { paginationFlags } from '../../cli/flags/index.js'
import { listWithoutSecrets } from '../../cli/requests/webhooks.js'
import { webhookView } from '../../output/views/webhooks.js'

export default class WebhooksList extends ApiCommand<typeof WebhooksList> {
  static override summary = 'List webhook subscriptions, one page or all of them.'
  static override description =
    'Here --merchant-id and --marketplace-id are repeatable FILTERS (the merchantId and marketplaceId query parameters) ' +
    'that override the global context flags of the same name: they choose whose subscriptions are listed and send no ' +
    'context header. A marketplace lists the merchant-level subscriptions of its sub-merchants with --merchant-id. ' +
    'Secrets are never shown here; see `webhooks get --show-secret`.'

  static override examples = [
    '<%= config.bin %> webhooks list',
    '<%= config.bin %> webhooks list --merchant-id mcht_LocalSubMerch001 --status Active',
    '<%= config.bin %> webhooks list --marketplace-id mktp_LocalMarket00001 --all --json',
  ]

  static override flags = {
    ...paginationFlags(),
    ...fanOutFlags(),
    'merchant-id': merchantFilterFlag('Only merchant-level subscriptions of these merchants (repeatable); a filter here, not the Merchant-Id header.'),
    'marketplace-id': marketplaceFilterFlag(
      'Only marketplace-level subscriptions of these marketplaces (repeatable); a filter here, not the Marketplace-Id header.',
    ),
    status: Flags.string({ description: 'Only subscriptions in this state.', options: ['Active', 'Suspended'] }),
  }

  async run() {
    // Own --merchant-id/--marketplace-id replace the global ones: type the flags by this command's own.
    const f = this.flags as unknown as Interfaces.InferredFlags<typeof WebhooksList.flags>
    const query = { merchantId: takeFilterIds(f, 'merchant-id'), marketplaceId: takeFilterIds(f, 'marketplace-id'), status: f.status }
    const client = await this.client()
    return this.showList(webhookView, listWithoutSecrets(client.webhooks), query)
  }
}
