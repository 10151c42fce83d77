import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dateFlag, paginationFlags } from '../../cli/flags/index.js'
import { monthFlags } from '../../cli/flags/range.js'
import { merchantView } from '../../output/views/merchants.js'

export default class MerchantsList extends ApiCommand<typeof MerchantsList> {
  static override summary = 'List the merchants the credential may act for, one page or all of them.'
  static override description =
    'Sends GET /merchants. A marketplace API key sees its sub-merchants; a merchant key sees itself. The contract does not show the filters: these are sent as name, status, industry, createdAfter and createdBefore.'

  static override examples = [
    '<%= config.bin %> merchants list',
    '<%= config.bin %> merchants list --name "pty ltd" --status Active --sort name',
    '<%= config.bin %> merchants list --created-after 2026-01-01 --all --csv > merchants.csv',
  ]

  static override flags = {
    ...paginationFlags(),
    name: Flags.string({ description: 'Only merchants whose name contains this text.' }),
    status: Flags.string({ description: 'Only merchants in this status (repeatable).', multiple: true }),
    industry: Flags.string({ description: 'Only merchants of this industry, by code or name (repeatable).', multiple: true }),
    'created-after': dateFlag('Only merchants created at or after'),
    'created-before': dateFlag('Only merchants created before'),
    ...monthFlags(),
  }

  async run() {
    const f = this.flags
    const client = await this.client()
    return this.showList(merchantView, client.merchants, {
      name: f.name,
      status: f.status,
      industry: f.industry,
      createdAfter: f['created-after'],
      createdBefore: f['created-before'],
    })
  }
}
