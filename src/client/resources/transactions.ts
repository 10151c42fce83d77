// Transactions and what hangs off them: refunds, payouts, invoices, settlement, disputes.
import type { Readable } from 'node:stream'
import { z } from 'zod'
import type { Page } from '../pagination.js'
import { Dispute, Invoice, Payout, Refund, RequestPayout, SettlementEntry, Transaction, TransactionDetails } from '../schemas/transactions.js'
import { type CallOptions, type Core, type EnvelopeInput, type IterateCallOptions, type ListQuery, checkBody, checkEnvelope, isSet, path } from '../core.js'
import { InvalidInputError } from '../errors.js'

/** Filters seen in real integrations; passed as given (a Date is sent as ISO 8601). */
export type TransactionQuery = ListQuery & {
  orderId?: string | string[] | undefined
  status?: string | string[] | undefined
  customerId?: string | string[] | undefined
  merchantId?: string | string[] | undefined
  createdAfter?: string | Date | undefined
  createdBefore?: string | Date | undefined
}

/** Settlement filters: `payoutId`, or all of `currency`, `createdAfter`, `createdBefore`. */
export type SettlementQuery = ListQuery & {
  payoutId?: string | undefined
  currency?: string | undefined
  createdAfter?: string | Date | undefined
  createdBefore?: string | Date | undefined
}

export type TransactionActionEnvelope = EnvelopeInput<'PATCH /transactions/{transactionId}'>

export interface TransactionsResource {
  get(transactionId: string, call?: CallOptions): Promise<Transaction>
  list(query?: TransactionQuery, call?: CallOptions): Promise<Page<Transaction>>
  iterate(query?: TransactionQuery, options?: IterateCallOptions): AsyncIterable<Transaction>
  /** `PATCH /transactions/{id}` with an action envelope; answers TransactionDetails. Never retried. */
  update(transactionId: string, envelope: TransactionActionEnvelope, call?: CallOptions): Promise<TransactionDetails>
  /** `CreateRefund` of `refundAmount` minor units (a positive integer). Never retried. */
  refund(transactionId: string, refundAmount: number, call?: CallOptions): Promise<TransactionDetails>
  payouts: {
    request(body: Record<string, unknown>, call?: CallOptions): Promise<Payout>
    list(query?: ListQuery, call?: CallOptions): Promise<Page<Payout>>
    iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<Payout>
    get(payoutId: string, call?: CallOptions): Promise<Payout>
  }
  invoices: {
    list(query?: ListQuery, call?: CallOptions): Promise<Page<Invoice>>
    iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<Invoice>
    get(invoiceId: string, call?: CallOptions): Promise<Invoice>
    /** The invoice PDF as a stream; the caller consumes it. */
    pdf(invoiceId: string, call?: CallOptions): Promise<Readable>
  }
  settlement: {
    list(query: SettlementQuery, call?: CallOptions): Promise<Page<SettlementEntry>>
    iterate(query: SettlementQuery, options?: IterateCallOptions): AsyncIterable<SettlementEntry>
    /** The whole report: JSON (entries and a summary, shape not shown) or a CSV stream. */
    report(query: SettlementQuery, format: 'csv', call?: CallOptions): Promise<Readable>
    report(query: SettlementQuery, format?: 'json', call?: CallOptions): Promise<unknown>
    /** The JSON report as a byte stream, unparsed, however large (the CLI cuts out its entries). */
    report(query: SettlementQuery, format: 'json-stream', call?: CallOptions): Promise<Readable>
  }
  disputes: {
    list(query?: ListQuery, call?: CallOptions): Promise<Page<Dispute>>
    iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<Dispute>
  }
  refunds: {
    list(query?: ListQuery, call?: CallOptions): Promise<Page<Refund>>
    iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<Refund>
  }
}

/** Refuses a settlement query without `payoutId` that lacks currency, createdAfter or createdBefore. */
export function checkSettlementQuery(query: SettlementQuery): void {
  if (isSet(query.payoutId)) return
  const missing = (['currency', 'createdAfter', 'createdBefore'] as const).filter((name) => !isSet(query[name]))
  if (missing.length > 0) {
    throw new InvalidInputError(
      `Settlement queries need payoutId, or all of currency, createdAfter and createdBefore (missing: ${missing.join(', ')})`,
      'Give a payout id, or a currency with a date range.',
    )
  }
}

export function transactionsResource(core: Core): TransactionsResource {
  const update = async (transactionId: string, envelope: TransactionActionEnvelope, call?: CallOptions) => {
    const body = checkEnvelope('PATCH /transactions/{transactionId}', envelope)
    return core.json('PATCH', path`/transactions/${transactionId}`, TransactionDetails, { body, call })
  }

  async function report(query: SettlementQuery, format?: 'json', call?: CallOptions): Promise<unknown>
  async function report(query: SettlementQuery, format: 'csv' | 'json-stream', call?: CallOptions): Promise<Readable>
  async function report(query: SettlementQuery, format: 'json' | 'csv' | 'json-stream' = 'json', call?: CallOptions): Promise<unknown> {
    checkSettlementQuery(query)
    if (format === 'csv' || format === 'json-stream') {
      const response = await core.send<Readable>('GET', '/transactions/settlement/report', {
        query,
        call,
        accept: format === 'csv' ? 'text/csv' : 'application/json',
        responseType: 'stream',
      })
      return response.body
    }
    return core.json('GET', '/transactions/settlement/report', z.unknown(), { query, call })
  }

  return {
    get: async (transactionId, call) => core.json('GET', path`/transactions/${transactionId}`, Transaction, { call }),
    list: async (query = {}, call) => core.list('/transactions', Transaction, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/transactions', Transaction, query, options),
    update,
    async refund(transactionId, refundAmount, call) {
      return update(transactionId, { CreateRefund: { refundAmount } }, call)
    },
    payouts: {
      request: async (body, call) => core.json('POST', '/transactions/payouts', Payout, { body: checkBody(RequestPayout, body, 'payout request'), call }),
      list: async (query = {}, call) => core.list('/transactions/payouts', Payout, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/transactions/payouts', Payout, query, options),
      get: async (payoutId, call) => core.json('GET', path`/transactions/payouts/${payoutId}`, Payout, { call }),
    },
    invoices: {
      list: async (query = {}, call) => core.list('/transactions/invoices', Invoice, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/transactions/invoices', Invoice, query, options),
      get: async (invoiceId, call) => core.json('GET', path`/transactions/invoices/${invoiceId}`, Invoice, { call }),
      async pdf(invoiceId, call) {
        const response = await core.send<Readable>('GET', path`/transactions/invoices/${invoiceId}/pdf`, {
          call,
          accept: 'application/pdf',
          responseType: 'stream',
        })
        return response.body
      },
    },
    settlement: {
      async list(query, call) {
        checkSettlementQuery(query)
        return core.list('/transactions/settlement', SettlementEntry, query, call)
      },
      iterate(query, options = {}) {
        checkSettlementQuery(query)
        return core.iterate('/transactions/settlement', SettlementEntry, query, options)
      },
      report,
    },
    disputes: {
      list: async (query = {}, call) => core.list('/transactions/disputes', Dispute, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/transactions/disputes', Dispute, query, options),
    },
    refunds: {
      list: async (query = {}, call) => core.list('/transactions/refunds', Refund, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/transactions/refunds', Refund, query, options),
    },
  }
}
