// Saved payment sources (contract: Resources → Payment source (saved)) and blocked-card events
// (fields not shown by the contract; those the emulator defines).
import type { BlockedCardEvent, PaymentSource } from '../../client/schemas/sources.js'
import { defineView, type Column } from '../view.js'

/** The method as one phrase: `PayTo` for an agreement, `Card` for a card, else the envelope key. */
function methodKind(source: PaymentSource): string | undefined {
  const key = Object.keys(source.sourceMethod ?? {})[0]
  if (!key) return undefined
  return key.replace(/MethodResp$/, '').replace(/Method$/, '')
}

function inner(source: PaymentSource): Record<string, unknown> | undefined {
  const value = Object.values(source.sourceMethod ?? {})[0]
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
}

/** The masked account of a PayTo source, or `Visa ending 4242` for a card. */
function accountHint(source: PaymentSource): string | undefined {
  const method = inner(source)
  if (!method) return undefined
  if (typeof method.accountIdentifierHint === 'string') return method.accountIdentifierHint
  if (typeof method.last4 === 'string') return [method.brand, 'ending', method.last4].filter(Boolean).join(' ')
  return undefined
}

const s = {
  paymentSourceId: { key: 'paymentSourceId', header: 'Source' },
  customerId: { key: 'customerId', header: 'Customer' },
  method: { key: 'method', header: 'Method', get: methodKind },
  account: { key: 'account', header: 'Account', get: accountHint },
  usageScope: { key: 'usageScope', header: 'Usage scope' },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<PaymentSource>>

export const paymentSourceView = defineView<PaymentSource>({
  name: 'payment source',
  columns: [s.paymentSourceId, s.customerId, s.method, s.account, s.usageScope, s.createdAt],
  detail: [
    s.paymentSourceId,
    s.customerId,
    { key: 'merchantId', header: 'Merchant' },
    s.method,
    s.account,
    { key: 'agreementUid', header: 'Agreement', get: (r) => inner(r)?.agreementUid },
    {
      key: 'expiry',
      header: 'Expiry',
      get: (r) => (inner(r)?.expiryMonth ? `${String(inner(r)?.expiryMonth).padStart(2, '0')}/${String(inner(r)?.expiryYear)}` : undefined),
    },
    s.usageScope,
    s.createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})

const b = {
  cardBlockId: { key: 'cardBlockId', header: 'Card block' },
  status: { key: 'status', header: 'Status' },
  cardHint: { key: 'cardHint', header: 'Card' },
  customerId: { key: 'customerId', header: 'Customer' },
  reason: { key: 'reason', header: 'Reason' },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<BlockedCardEvent>>

export const blockedCardView = defineView<BlockedCardEvent>({
  name: 'blocked-card event',
  columns: [b.cardBlockId, b.status, b.cardHint, b.customerId, b.reason, b.createdAt],
  detail: [
    b.cardBlockId,
    b.status,
    b.cardHint,
    { key: 'paymentSourceId', header: 'Source' },
    b.customerId,
    { key: 'merchantId', header: 'Merchant' },
    b.reason,
    b.createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})
