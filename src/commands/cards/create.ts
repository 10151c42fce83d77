import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { dataFlag, moneyFlags } from '../../cli/flags/index.js'
import { readDataObject } from '../../cli/files/input.js'
import { issueCardEnvelope, previousGenerationWarnings } from '../../cli/requests/cards.js'
import { cardView } from '../../output/views/cards.js'

const FIELD_FLAGS = ['cardholder-name', 'card-limit', 'currency', 'loan']

export default class CardsCreate extends ApiCommand<typeof CardsCreate> {
  static override summary = 'Issue a digital card, or send any card request (POST /issuer/card).'
  static override description =
    'The contract does not show this body. The flags send IssueDigitalCard {cardholderName, limit, loanId?} as the emulator ' +
    "defines it (docs/emulator.md); --data sends any body as given, such as the emulator's UpdateDigitalCardLimit, " +
    'SuspendDigitalCard, ResumeDigitalCard or CancelDigitalCard {cardId}. The card number is never shown, only its masked form.'

  static override examples = [
    '<%= config.bin %> cards create --cardholder-name "Sam Nguyen" --card-limit 2500 --currency AUD --loan loan_LocalTradeLoan01',
    `<%= config.bin %> cards create --data '{"SuspendDigitalCard":{"cardId":"card_Ab12Cd34Ef56Gh78"}}'`,
    '<%= config.bin %> cards create --data @card-request.json --json',
  ]

  static override flags = {
    'cardholder-name': Flags.string({ description: 'Name on the card (up to 26 characters).' }),
    'card-limit': Flags.string({ description: 'Spending limit in major units, such as 2500 (with --currency).', dependsOn: ['currency'] }),
    currency: moneyFlags().currency,
    loan: Flags.string({ description: 'The loan the card draws on (loanId).' }),
    data: dataFlag('The whole card request as JSON: text, @file, or - for stdin.', FIELD_FLAGS),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    for (const line of data ? previousGenerationWarnings(data) : []) process.stderr.write(`${line}\n`)
    const body = data ?? issueCardEnvelope(this.flags)
    const client = await this.client()
    return this.show(cardView, await client.cards.create(body))
  }
}
