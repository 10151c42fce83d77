import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { marketplaceView } from '../../output/views/marketplaces.js'

export default class MarketplacesGet extends ApiCommand<typeof MarketplacesGet> {
  static override summary = 'Show a marketplace.'
  static override description = 'Sends GET /marketplaces/{marketplaceId}; use the marketplace API key (a merchant sees less of its marketplace).'
  static override examples = ['<%= config.bin %> marketplaces get mktp_ZqCNoNcm_22WeZ-j', '<%= config.bin %> marketplaces get mktp_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    marketplaceId: idArg('mktp', 'Marketplace id (mktp_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(marketplaceView, await client.marketplaces.get(this.args.marketplaceId))
  }
}
