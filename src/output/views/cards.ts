// Digital cards (card issuer). The contract does not show their fields; this view names the
// fields the emulator defines (docs/emulator.md), and a field a service leaves out is shown as
// `-`. The card number itself is never sent, only its masked form.
import { defineView, type Column } from '../view.js'

type Card = Record<string, unknown>

const cardId: Column<Card> = { key: 'cardId', header: 'Card' }
const cardholderName: Column<Card> = { key: 'cardholderName', header: 'Cardholder' }
const maskedPan: Column<Card> = { key: 'maskedPan', header: 'Number' }
const limit: Column<Card> = { key: 'limit', header: 'Limit', kind: 'money' }
const status: Column<Card> = { key: 'status', header: 'Status' }
const loanId: Column<Card> = { key: 'loanId', header: 'Loan' }
const expiry: Column<Card> = {
  key: 'expiry',
  header: 'Expiry',
  get: (c) => (c.expiryMonth && c.expiryYear ? `${String(c.expiryMonth).padStart(2, '0')}/${String(c.expiryYear)}` : undefined),
}

export const cardView = defineView<Card>({
  name: 'digital card',
  columns: [cardId, cardholderName, maskedPan, limit, status, loanId],
  detail: [
    cardId,
    { key: 'merchantId', header: 'Merchant' },
    loanId,
    cardholderName,
    { key: 'brand', header: 'Brand' },
    maskedPan,
    expiry,
    limit,
    status,
    { key: 'createdAt', header: 'Created', kind: 'date' },
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})
