import type { Interfaces } from '@oclif/core'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { marketplaceFilterFlag, merchantFilterFlag, takeFilterIds } from '../../../cli/flags/filters.js'
import { dateFlag, paginationFlags } from '../../../cli/flags/index.js'
import { monthFlags } from '../../../cli/flags/range.js'
import { serviceTokenQuery } from '../../../cli/requests/auth.js'
import { serviceTokenView } from '../../../output/views/auth.js'

export default class AuthTokensList extends ApiCommand<typeof AuthTokensList> {
  static override summary = 'List service tokens of merchants or marketplaces.'
  static override description =
    'Sends GET /auth/servicetokens. Here --merchant-id and --marketplace-id are FILTERS (repeatable), not the context headers: give at least one of them. Without --expired/--no-expired both expired and unexpired tokens are listed.'

  static override examples = [
    '<%= config.bin %> auth tokens list --merchant-id mcht_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> auth tokens list --marketplace-id mktp_ZqCNoNcm_22WeZ-j --status Active --no-expired',
    '<%= config.bin %> auth tokens list --merchant-id mcht_ZqCNoNcm_22WeZ-j --merchant-id mcht_Pq3x8sK1mZ0aB2cD --created-from 2026-01-01 --all --json',
  ]

  static override flags = {
    ...paginationFlags({ sortFields: ['createdAt', 'updatedAt', 'expiresAt', 'status'] }),
    'merchant-id': merchantFilterFlag('Only secret tokens of these merchants (repeatable). A filter here, not the Merchant-Id header.'),
    'marketplace-id': marketplaceFilterFlag('Only API keys of these marketplaces (repeatable). A filter here, not the Marketplace-Id header.'),
    status: Flags.string({ description: 'Only tokens in this status, such as Active or Revoked (repeatable).', multiple: true }),
    expired: Flags.boolean({ description: 'Only expired tokens; --no-expired for only unexpired ones.', allowNo: true }),
    'created-from': dateFlag('Only tokens created at or after'),
    'created-to': dateFlag('Only tokens created before'),
    ...monthFlags(['created-from', 'created-to']),
    'expires-from': dateFlag('Only tokens expiring at or after'),
    'expires-to': dateFlag('Only tokens expiring before'),
  }

  async run() {
    // Own --merchant-id/--marketplace-id replace the global ones: type the flags by this command's own.
    const f = this.flags as unknown as Interfaces.InferredFlags<typeof AuthTokensList.flags>
    const merchantIds = takeFilterIds(f, 'merchant-id')
    const marketplaceIds = takeFilterIds(f, 'marketplace-id')
    const query = serviceTokenQuery({ ...f, merchantIds, marketplaceIds })
    const client = await this.client()
    return this.showList(serviceTokenView, client.auth.serviceTokens, query)
  }
}
