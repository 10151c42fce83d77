// Flags of the loan statement entries list and report.
import * as Flags from '@oclif/core/flags'

import { dateFlag, moneyFlags } from './index.js'
import { monthFlags } from './range.js'
import { checkNonEmpty } from '../validate/index.js'

/** `--loan --loan-settlement --currency --from --to --date-field`. */
export function entriesFlags() {
  return {
    loan: Flags.string({ description: 'Only entries of this loan (loanId).', parse: async (input) => checkNonEmpty(input, '--loan').trim() }),
    'loan-settlement': Flags.string({
      description: 'Only entries of this loan settlement (loanSettlementId).',
      parse: async (input) => checkNonEmpty(input, '--loan-settlement').trim(),
    }),
    currency: moneyFlags().currency,
    from: dateFlag('Start of the date range, inclusive'),
    to: dateFlag('End of the date range, exclusive'),
    ...monthFlags(['from', 'to']),
    'date-field': Flags.string({
      description: 'Which date --from and --to bound: the creation time or the due date.',
      options: ['created', 'due'],
      default: 'created',
    }),
  }
}
