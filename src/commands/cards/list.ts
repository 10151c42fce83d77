import { ApiCommand } from '../../cli/base-command.js'
import { paginationFlags } from '../../cli/flags/index.js'
import { cardView } from '../../output/views/cards.js'

export default class CardsList extends ApiCommand<typeof CardsList> {
  static override summary = 'List digital card summaries, one page or all of them.'
  static override description =
    'The contract does not show the fields of a digital card, so the table shows the first fields of each record; --json prints them whole.'

  static override examples = ['<%= config.bin %> cards list', '<%= config.bin %> cards list --all --json']

  static override flags = {
    ...paginationFlags(),
  }

  async run() {
    const client = await this.client()
    return this.showList(cardView, client.cards, {})
  }
}
