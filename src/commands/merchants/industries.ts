import { ApiCommand } from '../../cli/base-command.js'
import { industryView } from '../../output/views/merchants.js'
import { genericView, rawView } from '../../output/views/generic.js'

export default class MerchantsIndustries extends ApiCommand<typeof MerchantsIndustries> {
  static override summary = 'List the industries a merchant can be onboarded with.'
  static override description = 'Sends GET /merchants/industries. Use a code or a name with `merchants create --industry`.'
  static override examples = [
    '<%= config.bin %> merchants industries',
    '<%= config.bin %> merchants industries --json',
    '<%= config.bin %> merchants industries --csv > industries.csv',
  ]

  async run() {
    const client = await this.client()
    const answer = await client.merchants.industries()
    // The answer's shape is not shown: a list of industries, or something else shown as it comes.
    if (Array.isArray(answer) && answer.every((item) => item !== null && typeof item === 'object')) {
      return this.showAll(industryView, answer as Array<Record<string, unknown>>)
    }
    if (Array.isArray(answer)) return this.showAll(genericView('industry'), answer)
    return this.show(rawView, answer)
  }
}
