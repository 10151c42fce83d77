import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { dateFlag, idsFlag, paginationFlags } from '../../../cli/flags/index.js'
import { monthFlags } from '../../../cli/flags/range.js'
import { blockedCardView } from '../../../output/views/sources.js'

export default class SourcesBlockedCardsList extends ApiCommand<typeof SourcesBlockedCardsList> {
  static override summary = 'List events about blocked cards, one page or all of them.'
  static override description =
    'The fields of a blocked-card event and these filters are not shown by the contract; they are those the emulator defines, passed as given.'
  static override examples = [
    '<%= config.bin %> sources blocked-cards list',
    '<%= config.bin %> sources blocked-cards list --status Blocked --customer cust_ZqCNoNcm_22WeZ-j --json',
    '<%= config.bin %> sources blocked-cards list --all --csv > blocked.csv',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'status'] }),
    customer: idsFlag('cust', 'Only events of these customers (repeatable).'),
    status: Flags.string({ description: 'Only events in this status, such as Blocked or Unblocked (repeatable).', multiple: true }),
    'created-after': dateFlag('Only events created at or after'),
    'created-before': dateFlag('Only events created before'),
    ...monthFlags(),
  }

  async run() {
    const client = await this.client()
    const f = this.flags
    return this.showList(blockedCardView, client.sources.blockedCards, {
      customerId: f.customer,
      status: f.status,
      createdAfter: f['created-after'],
      createdBefore: f['created-before'],
    })
  }
}
