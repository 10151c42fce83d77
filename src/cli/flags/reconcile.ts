// Flags of `payfac settlement reconcile` besides the range: the operator's ledger and the workbook.
import * as Flags from '@oclif/core/flags'

import { checkOutPath } from './out.js'

export function reconcileFlags() {
  return {
    ledger: Flags.string({ description: 'Your ledger as CSV with a header line; each line a payment (or a refund, negative) by reference.' }),
    'ledger-columns': Flags.string({
      description: 'Which ledger columns hold reference, amount and currency (and optionally date): reference=Ref,amount=Total,currency=Ccy,date=Day.',
    }),
    'ledger-amounts': Flags.string({
      description: 'Ledger amounts are decimals (12.50) or minor units (1250).',
      options: ['decimal', 'minor'],
      default: 'decimal',
    }),
    xlsx: Flags.string({
      description: 'Also save every record as a workbook (sheets Summary, Matched, Differences; the CSV columns), atomically.',
      parse: async (input) => checkOutPath(input, '--xlsx'),
    }),
  }
}
