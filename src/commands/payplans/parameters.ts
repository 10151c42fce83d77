import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag, moneyFlags } from '../../cli/flags/index.js'
import { warnPreviousGeneration } from '../../cli/flags/transactions.js'
import { readDataObject } from '../../cli/files/input.js'
import { checkVariant, parametersBody } from '../../cli/requests/payplans.js'
import { rawView } from '../../output/views/generic.js'
import { payPlanParametersOf, payPlanParameterView } from '../../output/views/payplans.js'

export default class PayPlansParameters extends ApiCommand<typeof PayPlansParameters> {
  static override summary = 'Pay plan parameters for an amount and a list of variants (beta).'
  static override description =
    'Beta: incompatible changes may occur. Sends POST /payplans/parameters. The contract shows neither body nor answer: the flags send {amount, initialPayment?, payPlanVariants?} (without --variant, every variant); --data sends any body as given. The table has one row per variant; --json prints the answer as it came.'

  static override examples = [
    '<%= config.bin %> payplans parameters --amount 400 --currency AUD --variant payplan_4_weekly_payments',
    '<%= config.bin %> payplans parameters --amount 1200 --currency AUD --initial-payment 200 --variant payplan_3_monthly_payments --variant payplan_6_monthly_payments --json',
  ]

  static override flags = {
    ...moneyFlags(),
    'initial-payment': Flags.string({ description: 'Paid up front, in major units like --amount (default 0).', dependsOn: ['amount'] }),
    variant: Flags.string({ description: 'A pay plan variant to ask about (repeatable).', multiple: true, parse: async (input) => checkVariant(input) }),
    data: dataFlag('The whole body as JSON: text, @file, or - for stdin.', ['amount', 'currency', 'initial-payment', 'variant']),
  }

  async run() {
    const body = this.flags.data ? await readDataObject(this.flags.data) : parametersBody(this.flags)
    warnPreviousGeneration(body)
    const client = await this.client()
    const answer = await client.payplans.parameters(body)
    if (this.flags.json) return this.show(rawView, answer, 'json')
    return this.showAll(payPlanParameterView, payPlanParametersOf(answer))
  }
}
