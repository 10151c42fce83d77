import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { marketplaceFilterFlag, merchantFilterFlag, withoutContextFlags } from '../../../cli/flags/filters.js'
import { dateFlag, paginationFlags } from '../../../cli/flags/index.js'
import { monthFlags } from '../../../cli/flags/range.js'
import { serviceTokenQuery } from '../../../cli/requests/auth.js'
import { serviceTokenView } from '../../../output/views/auth.js'

export default class AuthTokensList extends ApiCommand<typeof AuthTokensList> {
  static override summary = 'List service tokens of merchants or marketplaces.'
  static override description =
    'Sends GET /auth/servicetokens. --merchant and --marketplace are filters (repeatable), not the context headers: give at least one of them. Without --expired/--no-expired both expired and unexpired tokens are listed.'

  static override examples = [
    '<%= config.bin %> auth tokens list --merchant mcht_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> auth tokens list --marketplace mktp_ZqCNoNcm_22WeZ-j --status Active --no-expired',
    '<%= config.bin %> auth tokens list --merchant mcht_ZqCNoNcm_22WeZ-j --merchant mcht_Pq3x8sK1mZ0aB2cD --created-from 2026-01-01 --all --json',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'expiresAt', 'status'] }),
    merchant: merchantFilterFlag('Only secret tokens of these merchants (repeatable). A filter, not the Merchant-Id header.'),
    marketplace: marketplaceFilterFlag('Only API keys of these marketplaces (repeatable). A filter, not the Marketplace-Id header.'),
    status: Flags.string({ description: 'Only tokens in this status, such as Active or Revoked (repeatable).', multiple: true }),
    expired: Flags.boolean({ description: 'Only expired tokens; --no-expired for only unexpired ones.', allowNo: true }),
    'created-from': dateFlag('Only tokens created at or after'),
    'created-to': dateFlag('Only tokens created before'),
    ...monthFlags(['created-from', 'created-to']),
    'expires-from': dateFlag('Only tokens expiring at or after'),
    'expires-to': dateFlag('Only tokens expiring before'),
  }

  // Without the context flags: they are still, for a release, the old names of the filters here.
  static override baseFlags = withoutContextFlags('merchant-id', 'marketplace-id')

  async run() {
    const query = serviceTokenQuery({ ...this.flags, merchantIds: this.flags.merchant, marketplaceIds: this.flags.marketplace })
    const client = await this.client()
    return this.showList(serviceTokenView, client.auth.serviceTokens, query)
  }
}
