import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { fanOutFlags } from '../../cli/flags/range.js'
import { marketplaceFilterFlag, merchantFilterFlag, withoutContextFlags } from '../../cli/flags/filters.js'
import { paginationFlags } from '../../cli/flags/index.js'
import { listWithoutSecrets } from '../../cli/requests/webhooks.js'
import { webhookView } from '../../output/views/webhooks.js'

export default class WebhooksList extends ApiCommand<typeof WebhooksList> {
  static override summary = 'List webhook subscriptions, one page or all of them.'
  static override description =
    '--merchant and --marketplace are repeatable filters (the merchantId and marketplaceId query parameters): they ' +
    'choose whose subscriptions are listed and send no context header. A marketplace lists the merchant-level ' +
    'subscriptions of its sub-merchants with --merchant. ' +
    'Secrets are never shown here; see `webhooks get --show-secret`.'

  static override examples = [
    '<%= config.bin %> webhooks list',
    '<%= config.bin %> webhooks list --merchant mcht_LocalSubMerch001 --status Active',
    '<%= config.bin %> webhooks list --marketplace mktp_LocalMarket00001 --all --json',
  ]

  static override flags = {
    ...paginationFlags(),
    ...fanOutFlags(),
    merchant: merchantFilterFlag('Only merchant-level subscriptions of these merchants (repeatable); a filter, not the Merchant-Id header.'),
    marketplace: marketplaceFilterFlag('Only marketplace-level subscriptions of these marketplaces (repeatable); a filter, not the Marketplace-Id header.'),
    status: Flags.string({ description: 'Only subscriptions in this state.', options: ['Active', 'Suspended'] }),
  }

  // Without the context flags: they are still, for a release, the old names of the filters here.
  static override baseFlags = withoutContextFlags('merchant-id', 'marketplace-id')

  async run() {
    const query = { merchantId: this.flags.merchant, marketplaceId: this.flags.marketplace, status: this.flags.status }
    const client = await this.client()
    return this.showList(webhookView, listWithoutSecrets(client.webhooks), query)
  }
}
