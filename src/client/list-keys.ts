// What the walk needs to know about each list operation: where a record keeps its identifier
// (to drop a record already delivered) and whether the operation takes `createdBefore` (to fix
// the walk's upper bound when it starts). Operations not named here are walked without either.

interface ListKeys {
  /** Dot paths tried in turn; the first that holds a non-empty string is the record's identifier. */
  id: readonly string[]
  /** The operation filters on `createdBefore`. */
  createdBefore: boolean
}

const KEYS: Readonly<Record<string, ListKeys>> = {
  '/orders': { id: ['orderId'], createdBefore: true },
  '/transactions': { id: ['purchaseDetails.transactionId', 'transactionId'], createdBefore: true },
  '/transactions/refunds': { id: ['refundId'], createdBefore: true },
  '/transactions/disputes': { id: ['disputeId'], createdBefore: true },
  '/transactions/payouts': { id: ['payoutId'], createdBefore: true },
  '/transactions/invoices': { id: ['invoiceId'], createdBefore: false },
  '/transactions/settlement': { id: ['settlementEntryId'], createdBefore: true },
  '/customers': { id: ['customerId'], createdBefore: true },
  '/customers/delegates': { id: ['customerDelegateId'], createdBefore: false },
  '/merchants': { id: ['merchantId'], createdBefore: true },
  '/sources': { id: ['paymentSourceId'], createdBefore: true },
  '/payplans': { id: ['payPlanId'], createdBefore: true },
  '/webhooks': { id: ['subscriptionId'], createdBefore: false },
  '/loans': { id: ['loanId'], createdBefore: false },
  '/loans/statements': { id: ['loanStatementId'], createdBefore: false },
  '/auth/servicetokens': { id: ['serviceTokenId'], createdBefore: false },
}

/** The identifier reader and bound support of the list at `path` (none for an unknown path). */
export function listKeys(path: string): { identify: ((item: unknown) => string | undefined) | undefined; createdBefore: boolean } {
  const keys = KEYS[path.replace(/\/+$/, '')]
  if (!keys) return { identify: undefined, createdBefore: false }
  const readers = keys.id.map((dotted) => dotted.split('.'))
  const identify = (item: unknown): string | undefined => {
    for (const steps of readers) {
      let value: unknown = item
      for (const step of steps) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined
      if (typeof value === 'string' && value !== '') return value
    }
    return undefined
  }
  return { identify, createdBefore: keys.createdBefore }
}
