import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { paymentSourceView } from '../../output/views/sources.js'

export default class SourcesGet extends ApiCommand<typeof SourcesGet> {
  static override summary = 'Show a saved payment source.'
  static override examples = ['<%= config.bin %> sources get psrc_ZqCNoNcm_22WeZ-j', '<%= config.bin %> sources get psrc_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    sourceId: idArg('psrc', 'Payment source id (psrc_…).'),
  }

  async run() {
    const client = await this.client()
    return this.show(paymentSourceView, await client.sources.get(this.args.sourceId))
  }
}
