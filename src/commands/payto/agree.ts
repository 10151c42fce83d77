import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { agreementAccountFlags } from '../../cli/flags/payto.js'
import { moneyFlags, waitFlags } from '../../cli/flags/index.js'
import { statusResume, waitTimes, waitUntilActive } from '../../cli/flows/agreement.js'
import { askAgreementAccount } from '../../cli/terminal/prompts.js'
import { IDENTIFIER_FLAGS, agreementBodyFromFlags } from '../../cli/requests/payto.js'
import { agreementSentView, agreementView } from '../../output/views/payto.js'

const ACCOUNT_FLAGS = ['bban', ...Object.keys(IDENTIFIER_FLAGS)]

export default class PayToAgree extends ApiCommand<typeof PayToAgree> {
  static override summary = "Send a PayTo agreement request to a customer's bank account; prints its token."
  static override description =
    'The account is exactly one of --bban (BSB and account number) or an alias (--phone, --email, --abn, --acn, --arbn, ' +
    '--arsn, --org-id). The terms are one-off (--amount with --currency: a single payment of that amount) or open ' +
    '(--open: consent to future payments). Keep the token: the customer approves in their bank, and ' +
    '`payto status <token>` shows when the agreement is Active. With --poll it waits until then: exit 0 and the agreement ' +
    'once Active, 6 when it is declined, cancelled, suspended or expired, 8 when --timeout runs out, 130 on Ctrl-C (the ' +
    'last two print the command that resumes waiting).'

  static override examples = [
    '<%= config.bin %> payto agree --name "Jo Citizen" --bban "062-000 12345678" --amount 12.50 --currency AUD --purpose "Order inv-1001"',
    '<%= config.bin %> payto agree --name "Jo Citizen" --phone +61412345678 --open --purpose "Monthly subscription"',
    '<%= config.bin %> payto agree --name "Jo Citizen" --bban "062-000 12345678" --amount 12.50 --currency AUD --poll --timeout 5m',
    '<%= config.bin %> payto agree --name "Harbour Trading Pty Ltd" --abn "51 824 753 556" --open --json',
  ]

  static override flags = {
    ...agreementAccountFlags(),
    ...moneyFlags({ amountDescription: 'One-off agreement: the amount in major units, such as 12.50.' }),
    open: Flags.boolean({ description: 'Open agreement: consent to future payments (AgreementRequestTermsOpen).', exclusive: ['amount', 'currency'] }),
    purpose: Flags.string({ description: 'What the agreement is for, shown to the customer.' }),
    poll: Flags.boolean({ description: 'Wait until the agreement is Active, polling every --interval up to --timeout.' }),
    ...waitFlags(),
  }

  async run() {
    const body = agreementBodyFromFlags(await askAgreementAccount(this.flags, ACCOUNT_FLAGS))
    const client = await this.client()
    const sent = await client.payto.sendAgreement(body)
    if (!this.flags.poll) return this.show(agreementSentView, sent)
    process.stderr.write(`Agreement ${sent.token} sent; waiting for the customer to approve it (Ctrl-C stops waiting).\n`)
    const resume = statusResume(this.config.bin, sent.token, this.flags)
    return this.show(agreementView, await waitUntilActive(client, sent.token, { ...waitTimes(this.flags), resume }))
  }
}
