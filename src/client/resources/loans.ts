// Loans, loan statements and statement entries.
import type { Readable } from 'node:stream'
import { z } from 'zod'
import { InvalidInputError } from '../errors.js'
import type { Page } from '../pagination.js'
import { Loan, LoanStatement, LoanStatementEntry } from '../schemas/loans.js'
import { type CallOptions, type Core, type IterateCallOptions, type ListQuery, isSet, path } from '../core.js'

/** Entries report filters: loanSettlementId or loanId, or a currency with a date range. */
export type LoanEntriesQuery = ListQuery & {
  loanSettlementId?: string | undefined
  loanId?: string | undefined
  currency?: string | undefined
}

/** Formats a statement report can be asked for (the emulator's `?format=`). */
export type StatementFormat = 'csv' | 'pdf' | 'xml'

export interface StatementDownload {
  /** The zip, streamed. */
  body: Readable
  /** The zip's password, when the service sends it. */
  password: string | undefined
}

export interface LoansResource {
  list(query?: ListQuery, call?: CallOptions): Promise<Page<Loan>>
  iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<Loan>
  statements: {
    get(loanStatementId: string, call?: CallOptions): Promise<LoanStatement>
    list(query?: ListQuery, call?: CallOptions): Promise<Page<LoanStatement>>
    iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<LoanStatement>
    /**
     * The statement report (CSV, PDF or XML in a password-protected zip) as a stream, with the
     * zip's password when the service sends one (the emulator's `Statement-Password` header).
     */
    download(loanStatementId: string, options?: { format?: StatementFormat }, call?: CallOptions): Promise<StatementDownload>
  }
  entries: {
    list(query?: LoanEntriesQuery, call?: CallOptions): Promise<Page<LoanStatementEntry>>
    iterate(query?: LoanEntriesQuery, options?: IterateCallOptions): AsyncIterable<LoanStatementEntry>
    /** Experimental; answer not shown. */
    report(query: LoanEntriesQuery, call?: CallOptions): Promise<unknown>
  }
}

/**
 * The entries report needs loanSettlementId or loanId, or else a currency and a date range. The
 * contract does not name the range parameters ("created at, or due on"), so any parameter whose
 * name starts with `created` or `due` counts as one.
 */
export function checkLoanEntriesReportQuery(query: LoanEntriesQuery): void {
  if (isSet(query.loanSettlementId) || isSet(query.loanId)) return
  const hasRange = Object.entries(query).some(([name, value]) => /^(created|due)/i.test(name) && isSet(value))
  if (!isSet(query.currency) || !hasRange) {
    throw new InvalidInputError(
      'The loan entries report needs loanSettlementId or loanId, or a currency and a date range',
      'Give a loan or settlement id, or a currency with created or due dates.',
    )
  }
}

export function loansResource(core: Core): LoansResource {
  return {
    list: async (query = {}, call) => core.list('/loans', Loan, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/loans', Loan, query, options),
    statements: {
      get: async (id, call) => core.json('GET', path`/loans/statements/${id}`, LoanStatement, { call }),
      list: async (query = {}, call) => core.list('/loans/statements', LoanStatement, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/loans/statements', LoanStatement, query, options),
      async download(id, options = {}, call) {
        const response = await core.send<Readable>('GET', path`/loans/enterprise/statements/${id}/download`, {
          call,
          query: options.format ? { format: options.format } : undefined,
          accept: 'application/zip, application/octet-stream;q=0.9, */*;q=0.8',
          responseType: 'stream',
        })
        return { body: response.body, password: response.headers['statement-password'] }
      },
    },
    entries: {
      list: async (query = {}, call) => core.list('/loans/statements/entries', LoanStatementEntry, query, call),
      iterate: (query = {}, options = {}) => core.iterate('/loans/statements/entries', LoanStatementEntry, query, options),
      async report(query, call) {
        checkLoanEntriesReportQuery(query)
        return core.json('GET', '/loans/statements/entries/report', z.unknown(), { query, call })
      },
    },
  }
}
