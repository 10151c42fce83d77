import type { PaymentSource } from '../../client/index.js'
import { ApiCommand } from '../../cli/base-command.js'
import { idArg } from '../../cli/flags/index.js'
import { genericView } from '../../output/views/generic.js'
import { paymentSourceView } from '../../output/views/sources.js'

export default class SourcesDelete extends ApiCommand<typeof SourcesDelete> {
  static override summary = 'Delete a saved payment source.'
  static override description =
    'Sends DELETE /sources/{sourceId}. The contract does not show the answer: a payment source record is shown as one, anything else as it came. Deleting a PayTo source does not cancel its agreement.'

  static override examples = ['<%= config.bin %> sources delete psrc_ZqCNoNcm_22WeZ-j', '<%= config.bin %> sources delete psrc_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    sourceId: idArg('psrc', 'Payment source id (psrc_…).'),
  }

  async run() {
    const client = await this.client()
    const answer = await client.sources.delete(this.args.sourceId)
    if (answer && typeof answer === 'object' && 'paymentSourceId' in answer) return this.show(paymentSourceView, answer as PaymentSource)
    if (answer === undefined) {
      process.stderr.write(`Deleted ${this.args.sourceId}.\n`)
      return answer
    }
    return this.show(genericView('answer'), answer, 'json')
  }
}
