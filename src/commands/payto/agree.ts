import { Flags } from '@oclif/core'

import { ApiCommand } from '../../cli/base-command.js'
import { moneyFlags } from '../../cli/flags.js'
import { agreementBodyFromFlags } from '../../cli/requests/payto.js'
import { agreementSentView } from '../../output/views/payto.js'

const IDENTIFIERS = ['bban', 'phone', 'email', 'abn', 'acn', 'arbn', 'arsn', 'org-id']
const others = (flag: string) => IDENTIFIERS.filter((f) => f !== flag)

export default class PayToAgree extends ApiCommand<typeof PayToAgree> {
  static override summary = "Send a PayTo agreement request to a customer's bank account; prints its token."
  static override description =
    'The account is exactly one of --bban (BSB and account number) or an alias (--phone, --email, --abn, --acn, --arbn, ' +
    '--arsn, --org-id). The terms are one-off (--amount with --currency: a single payment of that amount) or open ' +
    '(--open: consent to future payments). Keep the token: the customer approves in their bank, and ' +
    '`payto status <token>` shows when the agreement is Active.'

  static override examples = [
    '<%= config.bin %> payto agree --name "Jo Citizen" --bban "062-000 12345678" --amount 12.50 --currency AUD --purpose "Order inv-1001"',
    '<%= config.bin %> payto agree --name "Jo Citizen" --phone +61412345678 --open --purpose "Monthly subscription"',
    '<%= config.bin %> payto agree --name "Harbour Trading Pty Ltd" --abn "51 824 753 556" --open --json',
  ]

  static override flags = {
    name: Flags.string({ description: "The customer's name (customerName).", required: true }),
    bban: Flags.string({ description: 'BSB and account number, such as "062-000 12345678".', exclusive: others('bban') }),
    phone: Flags.string({ description: 'Phone alias, E.164 (+61412345678).', exclusive: others('phone') }),
    email: Flags.string({ description: 'E-mail address alias.', exclusive: others('email') }),
    abn: Flags.string({ description: 'Australian Business Number alias (11 digits).', exclusive: others('abn') }),
    acn: Flags.string({ description: 'Australian Company Number alias (9 digits).', exclusive: others('acn') }),
    arbn: Flags.string({ description: 'Australian Registered Body Number alias (9 digits).', exclusive: others('arbn') }),
    arsn: Flags.string({ description: 'Australian Registered Scheme Number alias (9 digits).', exclusive: others('arsn') }),
    'org-id': Flags.string({ description: 'Organisation identifier alias.', exclusive: others('org-id') }),
    ...moneyFlags({ amountDescription: 'One-off agreement: the amount in major units, such as 12.50.' }),
    open: Flags.boolean({ description: 'Open agreement: consent to future payments (AgreementRequestTermsOpen).', exclusive: ['amount', 'currency'] }),
    purpose: Flags.string({ description: 'What the agreement is for, shown to the customer.' }),
  }

  async run() {
    const body = agreementBodyFromFlags(this.flags)
    const client = await this.client()
    return this.show(agreementSentView, await client.payto.sendAgreement(body))
  }
}
