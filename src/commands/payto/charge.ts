import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { checkPrefix, moneyFrom, waitFlags } from '../../cli/flags/index.js'
import { againFlag } from '../../cli/flags/safety.js'
import { repeatWindowFlag } from '../../cli/flags/witness.js'
import { waitTimes } from '../../cli/flows/agreement.js'
import { withOnlyCurrency } from '../../cli/requests/merchant-defaults.js'
import { checkDecimal } from '../../cli/requests/transactions.js'
import { checkReference } from '../../cli/validate/index.js'
import { paidTransactionView } from '../../output/views/transactions.js'

export default class PayToCharge extends ApiCommand<typeof PayToCharge> {
  static override summary = 'Charge an active PayTo agreement once: order, payment token and payment in one resumable command.'
  static override description =
    'For recurring billing on an agreement the customer already approved (payto agree, payto save): checks the agreement is Active (waiting up to --timeout while it is pending), ' +
    'makes a payment token on it (CreatePayToToken), creates the order (referenceOrderId = --reference) and pays it (PayByPayTo). At most once, like payto pay: every step is ' +
    'journaled under --reference in the config folder, a re-run carries on after the last step done and never creates a second order or pays twice (it asks the service ' +
    'for a payment of the order first); once paid, a re-run is exit 6 naming the transaction. One --reference is one charge: use a new one for each period. ' +
    'A charge of the same agreement and amount within --repeat-window (default 24h) is refused under another reference too (exit 6 naming it), unless --again; ' +
    'with a shared journal (PAYFAC_JOURNAL_URL) across every runner that shares it. ' +
    '--currency defaults to the merchant\'s only currency. Exit 7 with "outcome unknown" when the payment got no answer: run the same command again to find out.'

  static override examples = [
    '<%= config.bin %> payto charge ptagr_Ab12Cd34Ef56Gh78 --amount 49.00 --reference sub-1001-2026-11',
    '<%= config.bin %> payto charge ptagr_Ab12Cd34Ef56Gh78 --amount 49.00 --currency AUD --reference sub-1001-2026-12 --description "Plan, December" --json',
  ]

  static override args = {
    agreement: Args.string({
      description: 'The active agreement token (ptagr_…) to charge.',
      required: true,
      parse: async (input) => checkPrefix(input, 'ptagr', 'The agreement token'),
    }),
  }

  static override flags = {
    amount: Flags.string({
      description: 'The amount to take, in major units, such as 49.00.',
      required: true,
      parse: async (input) => checkDecimal(input, '--amount'),
    }),
    currency: Flags.string({ description: "ISO 4217 currency code, such as AUD; default: the merchant's only currency." }),
    reference: Flags.string({
      description: "Names the charge, and is the order's referenceOrderId: one reference, one payment.",
      required: true,
      parse: async (input) => checkReference(input, '--reference'),
    }),
    description: Flags.string({ description: "The order's description." }),
    again: againFlag,
    'repeat-window': repeatWindowFlag,
    restart: Flags.boolean({
      description: 'Start the charge of this --reference over with a new order (the old unpaid order is cancelled; refused once paid).',
    }),
    ...waitFlags(),
  }

  async run() {
    const client = await this.client()
    const settings = await this.settings()
    const f = await withOnlyCurrency(this.flags, true, client, settings)
    const charge = { agreementToken: this.args.agreement, amount: moneyFrom(f.amount, f.currency!) }
    const request = { reference: f.reference, charge, description: f.description, approve: false, restart: f.restart, ...waitTimes(f) }
    const { payToPayFromCommand } = await import('../../cli/flows/payto-pay-command.js')
    const safety = await this.safety()
    const { repeatWindowMs } = await import('../../cli/safety/witness.js')
    const repeat = { again: f.again, windowMs: repeatWindowMs('payto-charge', f['repeat-window']) }
    const command = { client, settings, bin: this.config.bin, argv: this.argv, dryRun: f['dry-run'], words: ['payto', 'charge'], charge: repeat }
    return this.show(paidTransactionView, await payToPayFromCommand(request, { ...command, journal: () => safety.journal(), dryRunNotes: safety.dryRunNotes }))
  }
}
