// Builds card issuer requests from parsed flags. Pure: no I/O, no client. The contract does not
// show the body of POST /issuer/card; the flags follow the emulator's IssueDigitalCard action
// (docs/emulator.md), and --data sends any other body as given.
import { UsageError } from '../errors/index.js'
import { moneyFrom } from '../flags/index.js'
import { checkNonEmpty, findPreviousGenerationFields } from '../validate/index.js'

export interface CardFlagValues {
  'cardholder-name'?: string | undefined
  'card-limit'?: string | undefined
  currency?: string | undefined
  loan?: string | undefined
}

/** `{IssueDigitalCard: {cardholderName, limit, loanId?}}` from flags. */
export function issueCardEnvelope(f: CardFlagValues) {
  if (f['cardholder-name'] === undefined || f['card-limit'] === undefined || f.currency === undefined) {
    throw new UsageError('Issuing a card needs --cardholder-name, --card-limit and --currency (or the whole body with --data)')
  }
  const body: { cardholderName: string; limit: ReturnType<typeof moneyFrom>; loanId?: string } = {
    cardholderName: checkNonEmpty(f['cardholder-name'], '--cardholder-name').trim(),
    limit: moneyFrom(f['card-limit'], f.currency, '--card-limit'),
  }
  if (f.loan !== undefined) body.loanId = checkNonEmpty(f.loan, '--loan').trim()
  return { IssueDigitalCard: body }
}

/** Warning lines for previous-generation field names in a body the contract does not show. */
export function previousGenerationWarnings(body: unknown, flag = '--data'): string[] {
  return findPreviousGenerationFields(body).map(
    ([path, old, now]) => `Warning: ${flag} uses "${old}" (at ${path}), a field name of the previous interface generation; version 3.0 calls it "${now}".`,
  )
}
