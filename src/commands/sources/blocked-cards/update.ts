import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { warnPreviousGeneration } from '../../../cli/flags/transactions.js'
import { readDataObject } from '../../../cli/files/input.js'
import { blockedCardEnvelope } from '../../../cli/requests/sources.js'
import { checkIdText } from '../../../cli/validate/index.js'
import { blockedCardView } from '../../../output/views/sources.js'

export default class SourcesBlockedCardsUpdate extends ApiCommand<typeof SourcesBlockedCardsUpdate> {
  static override summary = 'Send an update action on a blocked-card event.'
  static override description =
    'Sends PATCH /sources/blockedcards/{cardBlockId} with the action envelope given in --data. The contract names no action; the emulator takes UnblockCard {reason?}.'

  static override examples = [
    `<%= config.bin %> sources blocked-cards update cblk_ZqCNoNcm_22WeZ-j --data '{"UnblockCard":{"reason":"customer called"}}'`,
    '<%= config.bin %> sources blocked-cards update cblk_ZqCNoNcm_22WeZ-j --data @unblock.json --json',
  ]

  static override args = {
    cardBlockId: Args.string({ description: 'Id of the blocked-card event.', required: true, parse: async (input) => checkIdText(input, 'The card block id') }),
  }

  static override flags = {
    data: Flags.string({ description: 'The action envelope as JSON, {"<Action>": {...}}: text, @file, or - for stdin.', required: true }),
  }

  async run() {
    const envelope = blockedCardEnvelope(await readDataObject(this.flags.data))
    warnPreviousGeneration(envelope)
    const client = await this.client()
    return this.show(blockedCardView, await client.sources.blockedCards.update(this.args.cardBlockId, envelope))
  }
}
