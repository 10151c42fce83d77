// `--repeat-window`: how far back the second witness (safety/witness.ts) searches the service's
// records for an identical money operation before sending one.
import * as Flags from '@oclif/core/flags'

import { parseRepeatWindow } from '../validate/durations.js'
import { checkedBy } from './checked.js'

/** `--repeat-window <duration>` for a refund, a transfer, a reversal or a payout request. */
export const repeatWindowFlag = Flags.string({
  description:
    "How far back the service's own records are searched for an identical operation before sending (exit 6 when one is found; --again sends anyway): a duration such as 24h, 90m or 2d, or 0 to skip the search. Default 24h for refunds, transfers and reversals, 1h for payouts; PAYFAC_REPEAT_WINDOW sets it too.",
  helpValue: 'DURATION',
  parse: checkedBy((input) => parseRepeatWindow(input, '--repeat-window')),
})
