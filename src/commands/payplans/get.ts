import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../cli/base-command.js'
import { checkIdText } from '../../cli/validate/index.js'
import { payPlanView } from '../../output/views/payplans.js'

export default class PayPlansGet extends ApiCommand<typeof PayPlansGet> {
  static override summary = 'Show a pay plan and its instalments.'
  static override examples = ['<%= config.bin %> payplans get pp_ZqCNoNcm_22WeZ-j', '<%= config.bin %> payplans get pp_ZqCNoNcm_22WeZ-j --json']

  static override args = {
    payPlanId: Args.string({ description: 'Pay plan id.', required: true, parse: async (input) => checkIdText(input, 'The pay plan id') }),
  }

  async run() {
    const client = await this.client()
    return this.show(payPlanView, await client.payplans.get(this.args.payPlanId))
  }
}
