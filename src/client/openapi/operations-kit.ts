// The helpers the catalog of operations is written with (operations-accounts.ts,
// operations-money.ts): query parameters, paging, the answers under one envelope key, and `op`,
// one operation. Built on first call, with the catalog (operations.ts).
import { z } from 'zod'
import { AnyObject } from '../schemas/index.js'
import * as s from '../schemas/index.js'
import { type Method, type Operation, type Param, named } from './operation-types.js'

/** The helpers of the catalog (see the file's head). */
export function operationKit() {
  // Query parameters.
  const ids = (what: string): Param => ({ schema: z.array(z.string()), description: `${what} (repeat the parameter for several).` })
  const text = (description: string): Param => ({ schema: z.string(), description })
  const time = (description: string): Param => ({ schema: s.Timestamp, description })
  // int32, as the contract says and the emulator bounds them (a larger page is a 400).
  const int32 = { format: 'int32' }
  const paging: Record<string, Param> = {
    limit: { schema: z.int32().min(1).max(500).default(20).meta(int32), description: 'Records a page, 1 to 500 (default 20).' },
    page: { schema: z.int32().min(1).default(1).meta(int32), description: 'Page number; the first page is 1 (at most 2147483647, int32).' },
    sort: text('Comma-separated field names, earlier names first; a leading `-` sorts that field descending.'),
  }
  const created = { createdAfter: time('Created at or after.'), createdBefore: time('Created before.') }
  const day = (description: string): Param => ({ schema: z.union([s.DateOnly, s.Timestamp]), description })
  const loanEntryFilters: Record<string, Param> = {
    loanSettlementId: ids('Entries of these settlements'),
    loanId: ids('Entries of these loans'),
    loanStatementId: ids('Entries of these statements'),
    type: ids('Only these entry types'),
    currency: text('Currency code.'),
    ...created,
    dueAfter: day('Due on or after this day (YYYY-MM-DD; a date-time is read as its day in UTC).'),
    dueBefore: day('Due before this day.'),
  }
  const list = (query: Record<string, Param> = {}) => ({ ...paging, ...query })

  // Answers under one envelope key, as the service (and the emulator) sends them: exactly one
  // variant matches, so a generated client needs no cast. (payfac's own client also reads a bare
  // record, in case a service sends one; the document says what is sent.)
  const payByLinkOrder = named(
    'PayByLinkOrder',
    z.looseObject({
      order: s.Order,
      payByLinkUrl: z.string().nullish(),
      payByLinkToken: z.string().nullish(),
    }),
  )
  const order = named('CreateOrderAnswer', z.union([z.strictObject({ OnlineOrder: s.OnlineOrder }), z.strictObject({ PayByLinkOrder: payByLinkOrder })]), {
    oneOf: true,
  })
  const subscription = named('WebhookSubscriptionAnswer', z.union(s.WEBHOOK_ENVELOPES.map((key) => z.strictObject({ [key]: s.WebhookSubscription }))), {
    oneOf: true,
  })
  const paid = named(
    'PayOrderAnswer',
    z.union([z.strictObject({ PayOrderComplete: s.PayOrderComplete }), z.strictObject({ ThreeDSAuthorisationRequired: s.ThreeDSAuthorisationRequired })]),
    { oneOf: true },
  )
  const token = named(
    'PaymentTokenAnswer',
    z.union([
      ...Object.entries(s.TOKEN_RESPONSES).map(([key, schema]) => z.strictObject({ [key]: schema })),
      z.record(z.string().regex(/^[A-Z]\w*$/), AnyObject),
    ]),
  )
  const unknown = named('NotShownValue', z.unknown())
  const csv = named('SettlementReportCsv', z.string())

  const A = 'Authentication'
  const C = 'Customers'
  const M = 'Merchants'
  const PS = 'Payment sources'
  const PT = 'Payment tokens'
  const PP = 'Pay plans'
  const O = 'Orders'
  const T = 'Transactions'
  const W = 'Webhooks'
  const L = 'Loans'

  const op = (
    method: Method,
    path: string,
    operationId: string,
    tag: string,
    summary: string,
    client: string | string[],
    rest: Omit<Operation, 'method' | 'path' | 'operationId' | 'tag' | 'summary' | 'client' | 'answer'> & { answer?: Operation['answer'] } = {},
  ): Operation => ({ method, path, operationId, tag, summary, client: Array.isArray(client) ? client : [client], answer: rest.answer ?? AnyObject, ...rest })

  return {
    ids,
    text,
    time,
    int32,
    paging,
    created,
    day,
    loanEntryFilters,
    list,
    payByLinkOrder,
    order,
    subscription,
    paid,
    token,
    unknown,
    csv,
    A,
    C,
    M,
    PS,
    PT,
    PP,
    O,
    T,
    W,
    L,
    op,
  }
}

export type OperationKit = ReturnType<typeof operationKit>
