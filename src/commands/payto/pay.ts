import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { agreementAccountFlags, approveFlag } from '../../cli/flags/payto.js'
import { moneyFlags, waitFlags } from '../../cli/flags/index.js'
import { waitTimes } from '../../cli/flows/agreement.js'
import { agreementBodyFromFlags } from '../../cli/requests/payto.js'
import { checkReference } from '../../cli/validate/index.js'
import { paidTransactionView } from '../../output/views/transactions.js'

export default class PayToPay extends ApiCommand<typeof PayToPay> {
  static override summary = 'Take a one-off PayTo payment from agreement to paid transaction, in one resumable command.'
  static override description =
    'Sends a one-off agreement, waits until the customer approves it (Active), makes a payment token, creates the order ' +
    '(referenceOrderId = --reference) and pays it; each step is printed on stderr and the transaction on stdout (`--json`: with `transactionId` first). Every step ' +
    'is journaled in the config folder (journal/svc-<identity>/<reference>.json, the account kept masked): running the same ' +
    'command again carries on after the last step done, and never sends a second agreement, creates a second order or pays ' +
    'twice (it asks the service for a payment of the order before paying); once paid, a re-run is exit 6 naming the ' +
    'transaction. A second payfac with the same --reference waits for the first and reports what it did. Other inputs for the same --reference are refused (exit 2) unless ' +
    '--restart, which starts over with a new agreement and order (refused once the order is paid). Exit 7 with "outcome ' +
    'unknown" when the payment request got no answer: run the command again to find out. Exit 8 when --timeout runs out ' +
    'while the agreement is pending, 6 when it is declined, 130 on Ctrl-C; each prints the command that resumes.'

  static override examples = [
    '<%= config.bin %> payto pay --name "Jo Citizen" --bban "062-000 12345678" --amount 12.50 --currency AUD --reference inv-1001',
    '<%= config.bin %> payto pay --name "Jo Citizen" --phone +61412345678 --amount 40 --currency AUD --reference inv-1002 --purpose "Invoice 1002" --description "Consulting, May" --timeout 30m',
    '<%= config.bin %> payto pay --name "Jo Citizen" --bban "062-000 12345678" --amount 12.50 --currency AUD --reference test-1 --approve --json',
    '<%= config.bin %> payto pay --name "Jo Citizen" --bban "062-000 12345678" --amount 15 --currency AUD --reference test-1 --approve --restart',
  ]

  static override flags = {
    ...agreementAccountFlags(),
    ...moneyFlags({ required: true, amountDescription: 'The amount to take, in major units, such as 12.50 (the agreement is for exactly this).' }),
    purpose: Flags.string({ description: 'What the agreement is for, shown to the customer.' }),
    reference: Flags.string({
      description: "Names the run, and is the order's referenceOrderId (your own order number).",
      required: true,
      parse: async (input) => checkReference(input, '--reference'),
    }),
    description: Flags.string({ description: "The order's description." }),
    approve: approveFlag,
    restart: Flags.boolean({ description: 'Start the run of this --reference over: a new agreement and a new order (the old unpaid order is cancelled).' }),
    ...waitFlags(),
  }

  async run() {
    const f = this.flags
    const agreement = agreementBodyFromFlags({ ...f, open: false })
    const request = { reference: f.reference, agreement, description: f.description, approve: f.approve, restart: f.restart, ...waitTimes(f) }
    const { payToPayFromCommand } = await import('../../cli/flows/payto-pay-command.js')
    const journal = async () => (await this.safety()).journal()
    const command = { client: await this.client(), settings: await this.settings(), bin: this.config.bin, argv: this.argv, dryRun: f['dry-run'], journal }
    return this.show(paidTransactionView, await payToPayFromCommand(request, command))
  }
}
