// The contract's 80 operations as data: method, path, an operationId, the topic, the client
// methods that send it, query parameters, the request body and the answer, each given by the
// client's own zod schemas. ./document.ts turns this table into an OpenAPI document; nothing here
// sends anything. Built on first call, so that importing this file builds no schema.
import { z } from 'zod'
import { type ActionRoute, AnyObject, SignInResult, ServiceToken } from '../schemas/index.js'
import * as s from '../schemas/index.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface Param {
  schema: z.ZodType
  required?: boolean
  description?: string
}

/** A request body: a single-key envelope route of ACTIONS, a plain JSON schema, or a file upload. */
export type Body = { envelope: ActionRoute } | { json: z.ZodType } | { multipart: true }

/** Media an operation answers with beside JSON (`binary` for files). */
export type Media = Record<string, z.ZodType | 'binary'>

export interface Operation {
  method: Method
  path: string
  operationId: string
  tag: string
  summary: string
  /** The client methods that send it (`orders.update`, and shorthands such as `orders.setReference`). */
  client: readonly string[]
  query?: Record<string, Param>
  body?: Body
  /** The 200 answer: a JSON schema (each record, for lists), or media types. */
  answer: z.ZodType | Media
  /** A paginated list: the answer is an array of `answer`, with Page-Count and Total-Record-Count. */
  list?: boolean
  /** Contract maturity label. */
  maturity?: 'experimental' | 'beta'
  /** What the contract adds in words. */
  notes?: string
}

/** Said wherever the contract leaves a shape out; the schema stays open. */
export const NOT_SHOWN = 'Not shown by the contract (interface 3.0): any JSON value, passed as given.'
/** The same, for objects. */
export const NOT_SHOWN_OBJECT = 'Not shown by the contract (interface 3.0): any JSON object, passed as given.'

/** The error body: its fields are not shown by the contract; these are what real answers carry. */
export function apiErrorSchema(): z.ZodType {
  return z.looseObject({
    statusCode: z.number().int().optional(),
    errorCode: z.string().optional(),
    message: z.string().optional(),
    tracer: z.string().optional(),
    detail: z.string().optional(),
    errorTypeDescription: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
}

const TAGS: Record<string, string> = {
  Authentication: 'Sign-in for the checkout, and service tokens.',
  Customers: 'Consumer and organisation customers, delegates and KYC.',
  Merchants: 'Merchants: onboarding, bank accounts, balances, files, owners, industries.',
  'Payment sources': 'Saved payment sources and blocked-card events.',
  'Payment tokens': 'Single-use payment tokens.',
  'Pay plans': 'Pay plans: offers, plans and eligibility.',
  Orders: 'Orders: create, pay, cancel, change their reference.',
  Transactions: 'Transactions, refunds, payouts, invoices, settlement and disputes.',
  Marketplaces: 'Marketplaces and their customers.',
  Webhooks: 'Webhook subscriptions.',
  Loans: 'Loans, loan statements and statement entries.',
  'Card issuer': 'Digital card issuing.',
  PayTo: 'PayTo agreements and aliases.',
  Simulation: 'Sandbox-only simulation of external events.',
}

export function tags(): Array<{ name: string; description: string }> {
  return Object.entries(TAGS).map(([name, description]) => ({ name, description }))
}

let built: Operation[] | undefined

/** Names of the schemas this table makes (answers under envelope keys), for the document's components. */
export const NAMES = new Map<z.ZodType, string>()
/** Those of them whose variants are single-key envelopes of distinct keys: exactly one matches (`oneOf`). */
export const ONE_OF = new Set<string>()

function named<S extends z.ZodType>(name: string, schema: S, options: { oneOf?: boolean } = {}): S {
  NAMES.set(schema, name)
  if (options.oneOf) ONE_OF.add(name)
  return schema
}

/** Every operation of the contract, in the contract's order. */
export function operations(): Operation[] {
  return (built ??= buildOperations())
}

function buildOperations(): Operation[] {
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

  return [
    // Authentication
    op('POST', '/auth/signin', 'signIn', A, 'Sign in for a consumer customer or a customer delegate, for the checkout', 'auth.signIn', {
      body: { envelope: 'POST /auth/signin' },
      answer: SignInResult,
    }),
    op('GET', '/auth/servicetokens/{serviceTokenId}', 'getServiceToken', A, 'A service token', 'auth.serviceTokens.get', { answer: ServiceToken }),
    op('GET', '/auth/servicetokens', 'listServiceTokens', A, 'Service tokens, a page at a time', 'auth.serviceTokens.list', {
      list: true,
      answer: ServiceToken,
      query: list({
        merchantId: ids('Merchant secret tokens of these merchants'),
        marketplaceId: ids('Marketplace API keys of these marketplaces'),
        status: ids('Only these states'),
        expired: { schema: z.boolean(), description: 'true: only expired tokens; false: only unexpired ones.' },
        createdFromInclusive: time('Created at or after.'),
        createdToExclusive: time('Created before.'),
        expiresAtFromInclusive: time('Expires at or after.'),
        expiresAtToExclusive: time('Expires before.'),
      }),
      notes: 'At least one of merchantId or marketplaceId must be given.',
    }),
    op('POST', '/auth/servicetokens', 'createServiceToken', A, 'Create a service token', 'auth.serviceTokens.create', {
      body: { envelope: 'POST /auth/servicetokens' },
      answer: ServiceToken,
    }),
    op('PATCH', '/auth/servicetokens/{serviceTokenId}', 'updateServiceToken', A, 'Actions on a service token', 'auth.serviceTokens.update', {
      body: { envelope: 'PATCH /auth/servicetokens/{serviceTokenId}' },
      answer: ServiceToken,
    }),
    // Customers
    op('GET', '/customers', 'listCustomers', C, 'Customers, a page at a time', 'customers.list', {
      list: true,
      answer: s.Customer,
      query: list({
        emailAddress: ids('Only these e-mail addresses'),
        customerId: ids('Only these customers'),
        merchantId: ids('Only customers of these merchants'),
        name: text('Name contains.'),
        ...created,
      }),
    }),
    op('POST', '/customers', 'upsertCustomer', C, 'Create or update a consumer or organisation customer', 'customers.upsert', {
      body: { envelope: 'POST /customers' },
      answer: s.CustomerUpserted,
    }),
    op('GET', '/customers/{customerId}', 'getCustomer', C, 'A customer', 'customers.get', { answer: s.Customer }),
    op('POST', '/customers/kyc', 'checkCustomerKyc', C, 'Know-your-customer check on a consumer customer', 'customers.kyc', {
      body: { json: s.KycRequest },
      answer: s.KycResult,
      maturity: 'experimental',
      notes: 'The answer may say more details are needed; a later call supplies them.',
    }),
    op('GET', '/customers/delegates', 'listCustomerDelegates', C, 'Customer delegates, a page at a time', 'customers.delegates.list', {
      list: true,
      answer: s.CustomerDelegate,
      query: list(),
    }),
    op('GET', '/customers/delegates/{customerDelegateId}', 'getCustomerDelegate', C, 'A customer delegate', 'customers.delegates.get', {
      answer: s.CustomerDelegate,
    }),
    op(
      'PATCH',
      '/customers/delegates/{customerDelegateId}',
      'updateCustomerDelegate',
      C,
      'Actions on a delegate, such as linking it to a customer',
      'customers.delegates.update',
      {
        body: { envelope: 'PATCH /customers/delegates/{customerDelegateId}' },
        answer: s.CustomerDelegate,
      },
    ),
    op('POST', '/customers/delegates', 'upsertCustomerDelegate', C, 'Create or update a customer delegate', 'customers.delegates.upsert', {
      body: { json: s.UpsertCustomerDelegate },
      answer: s.CustomerDelegate,
    }),
    op('DELETE', '/customers/delegates/{customerDelegateId}', 'deleteCustomerDelegate', C, 'Delete a customer delegate', 'customers.delegates.delete', {
      answer: unknown,
    }),
    // Merchants
    op('GET', '/merchants', 'listMerchants', M, 'Merchants, a page at a time', 'merchants.list', { list: true, answer: s.Merchant, query: list() }),
    op('POST', '/merchants', 'createMerchant', M, 'Create a sub-merchant inside a marketplace', 'merchants.create', {
      body: { json: s.CreateMerchant },
      answer: s.Merchant,
    }),
    op('GET', '/merchants/{merchantId}', 'getMerchant', M, 'A merchant, with its bank accounts and public key', 'merchants.get', { answer: s.Merchant }),
    op('PATCH', '/merchants/{merchantId}', 'updateMerchant', M, 'Actions on a merchant: bank accounts and business profile', 'merchants.update', {
      body: { envelope: 'PATCH /merchants/{merchantId}' },
      answer: s.Merchant,
    }),
    op('GET', '/merchants/{merchantId}/balances', 'getMerchantBalances', M, 'Account balances of a merchant', 'merchants.balances', {
      answer: s.MerchantBalances,
    }),
    op(
      'POST',
      '/merchants/{merchantId}/files',
      'uploadMerchantFile',
      M,
      'Upload a document scan for the onboarding profile (JPEG, PNG or PDF, at most 10 MB)',
      'merchants.uploadFile',
      {
        body: { multipart: true },
        answer: s.MerchantFile,
      },
    ),
    op('GET', '/merchants/{merchantId}/files/{fileId}', 'getMerchantFile', M, 'Details of an onboarding file', 'merchants.getFile', { answer: s.MerchantFile }),
    op(
      'GET',
      '/merchants/{merchantId}/walletpay',
      'getMerchantWalletPayDomains',
      M,
      "Domains registered for the merchant's mobile-wallet payments",
      'merchants.walletpay',
      { answer: s.WalletPayDomains },
    ),
    op('GET', '/merchants/{merchantId}/owners', 'listBeneficialOwners', M, 'Every beneficial owner of a merchant', 'merchants.owners.list', {
      answer: z.array(s.BeneficialOwner),
    }),
    op('POST', '/merchants/{merchantId}/owners', 'createBeneficialOwner', M, 'Create a beneficial owner', 'merchants.owners.create', {
      body: { json: AnyObject },
      answer: s.BeneficialOwner,
    }),
    op('GET', '/merchants/{merchantId}/owners/{ownerId}', 'getBeneficialOwner', M, 'A beneficial owner', 'merchants.owners.get', { answer: s.BeneficialOwner }),
    op('PUT', '/merchants/{merchantId}/owners/{ownerId}', 'replaceBeneficialOwner', M, 'Overwrite a beneficial owner', 'merchants.owners.replace', {
      body: { json: AnyObject },
      answer: s.BeneficialOwner,
    }),
    op('DELETE', '/merchants/{merchantId}/owners/{ownerId}', 'deleteBeneficialOwner', M, 'Delete a beneficial owner', 'merchants.owners.delete', {
      answer: unknown,
    }),
    op('GET', '/merchants/industries', 'listIndustries', M, 'Supported industries', 'merchants.industries', { answer: s.Industries }),
    // Payment sources
    op('GET', '/sources/{sourceId}', 'getPaymentSource', PS, 'A payment source', 'sources.get', { answer: s.PaymentSource }),
    op('DELETE', '/sources/{sourceId}', 'deletePaymentSource', PS, 'Delete a payment source', 'sources.delete', { answer: unknown }),
    op(
      'POST',
      '/sources',
      'createPaymentSource',
      PS,
      'Register a payment source for one or more payments (raw card details need PCI certification)',
      'sources.create',
      {
        body: { envelope: 'POST /sources' },
        answer: s.PaymentSource,
      },
    ),
    op('GET', '/sources', 'listPaymentSources', PS, 'Payment sources, a page at a time', 'sources.list', {
      list: true,
      answer: s.PaymentSource,
      query: list(),
    }),
    op('GET', '/sources/blockedcards', 'listBlockedCardEvents', PS, 'Events about blocked cards, a page at a time', 'sources.blockedCards.list', {
      list: true,
      answer: s.BlockedCardEvent,
      query: list(),
    }),
    op(
      'PATCH',
      '/sources/blockedcards/{cardBlockId}',
      'updateBlockedCard',
      PS,
      'Actions on a blocked card (action names not shown: any single key)',
      'sources.blockedCards.update',
      {
        body: { envelope: 'PATCH /sources/blockedcards/{cardBlockId}' },
      },
    ),
    // Payment tokens
    op('POST', '/tokens', 'createPaymentToken', PT, 'A pay-in-full payment token from a payment source', 'tokens.create', {
      body: { envelope: 'POST /tokens' },
      answer: token,
    }),
    op('GET', '/tokens/{paymentTokenId}', 'getPaymentToken', PT, 'Details of a payment token', 'tokens.get', { answer: s.PaymentToken }),
    op('POST', '/tokens/{merchantId}/surchargequote', 'createSurchargeQuote', PT, 'Surcharged amounts for a payment type', 'tokens.surchargeQuote', {
      body: { json: s.SurchargeQuoteRequest },
    }),
    // Pay plans
    op('POST', '/payplans/offer', 'createPayPlanOffer', PP, 'An offer for a registered, KYC-checked customer', 'payplans.offer', {
      body: { json: s.PayPlanOfferRequest },
      answer: s.PayPlanOffer,
    }),
    op('GET', '/payplans', 'listPayPlans', PP, 'Pay plans, a page at a time', 'payplans.list', { list: true, answer: s.PayPlan, query: list() }),
    op('POST', '/payplans', 'createPayPlan', PP, 'A pay plan and a payment token from an offer at most 10 minutes old', 'payplans.create', {
      body: { json: s.CreatePayPlan },
      answer: s.PayPlan,
    }),
    op('GET', '/payplans/{payPlanId}', 'getPayPlan', PP, 'A pay plan', 'payplans.get', { answer: s.PayPlan }),
    op('POST', '/payplans/max', 'getPayPlanMaximum', PP, 'The largest loan the customer may now have', 'payplans.max', { body: { json: s.PayPlanMaxRequest } }),
    op('POST', '/payplans/parameters', 'getPayPlanParameters', PP, 'Pay plan parameters for an amount and variants', 'payplans.parameters', {
      body: { json: s.PayPlanParametersRequest },
      maturity: 'beta',
    }),
    // Orders
    op('GET', '/orders', 'listOrders', O, 'Orders, a page at a time', 'orders.list', {
      list: true,
      answer: s.Order,
      query: list({
        orderId: ids('Only these orders'),
        referenceOrderId: text('Only this reference.'),
        customerEmailAddress: text("Only this customer's e-mail address."),
        status: text('Only orders in this state.'),
        ...created,
      }),
    }),
    op('POST', '/orders', 'createOrder', O, 'Create an online or pay-by-link order', 'orders.create', { body: { envelope: 'POST /orders' }, answer: order }),
    op('POST', '/orders/{orderId}/pay', 'payOrder', O, 'Pay an order with a payment token (a card may need a 3DS challenge)', 'orders.pay', {
      body: { envelope: 'POST /orders/{orderId}/pay' },
      answer: paid,
    }),
    op('GET', '/orders/{orderId}', 'getOrder', O, 'An order', 'orders.get', { answer: s.Order }),
    op('DELETE', '/orders/{orderId}', 'cancelOrder', O, 'Cancel an order so that it can no longer be paid', 'orders.cancel', { answer: s.Order }),
    op('PATCH', '/orders/{orderId}', 'updateOrder', O, 'Actions on an order: change its reference', ['orders.update', 'orders.setReference'], {
      body: { envelope: 'PATCH /orders/{orderId}' },
      answer: s.Order,
    }),
    // Transactions
    op('GET', '/transactions/{transactionId}', 'getTransaction', T, 'A transaction, with its transfers', 'transactions.get', { answer: s.Transaction }),
    op('GET', '/transactions', 'listTransactions', T, 'Transactions, a page at a time', 'transactions.list', {
      list: true,
      answer: s.Transaction,
      query: list({
        orderId: ids('Only these orders'),
        status: ids('Only these states'),
        customerId: ids('Only these customers'),
        merchantId: ids('Only these merchants'),
        ...created,
      }),
    }),
    op(
      'PATCH',
      '/transactions/{transactionId}',
      'updateTransaction',
      T,
      'Actions on a transaction: refund, capture, cancel an authorisation, transfer funds or reverse a transfer',
      ['transactions.update', 'transactions.refund'],
      {
        body: { envelope: 'PATCH /transactions/{transactionId}' },
        answer: s.TransactionDetails,
      },
    ),
    op(
      'POST',
      '/transactions/payouts',
      'requestPayout',
      T,
      'Request a manual payout (manual payouts enabled and enough available balance)',
      'transactions.payouts.request',
      {
        body: { json: s.RequestPayout },
        answer: s.Payout,
      },
    ),
    op('GET', '/transactions/payouts', 'listPayouts', T, 'Payout summaries, a page at a time', 'transactions.payouts.list', {
      list: true,
      answer: s.Payout,
      query: list(),
    }),
    op('GET', '/transactions/payouts/{payoutId}', 'getPayout', T, "A payout's money movements and disbursement details", 'transactions.payouts.get', {
      answer: s.Payout,
    }),
    op('GET', '/transactions/invoices', 'listInvoices', T, 'Merchant invoices, a page at a time', 'transactions.invoices.list', {
      list: true,
      answer: s.Invoice,
      query: list(),
    }),
    op('GET', '/transactions/invoices/{invoiceId}', 'getInvoice', T, 'An invoice: breakdown and billing details', 'transactions.invoices.get', {
      answer: s.Invoice,
    }),
    op('GET', '/transactions/invoices/{invoiceId}/pdf', 'getInvoicePdf', T, 'The PDF of an invoice', 'transactions.invoices.pdf', {
      answer: { 'application/pdf': 'binary' },
    }),
    op('GET', '/transactions/settlement', 'listSettlementEntries', T, 'Settlement entries, a page at a time', 'transactions.settlement.list', {
      list: true,
      answer: s.SettlementEntry,
      query: list({ payoutId: text('Entries of this payout.'), currency: text('Currency code.'), ...created }),
      notes: 'Without payoutId, currency, createdAfter and createdBefore must all be given.',
    }),
    op(
      'GET',
      '/transactions/settlement/report',
      'getSettlementReport',
      T,
      'Every settlement entry, not paginated, as JSON (with a summary) or CSV',
      'transactions.settlement.report',
      {
        query: { payoutId: text('Entries of this payout.'), currency: text('Currency code.'), ...created },
        answer: { 'application/json': unknown, 'text/csv': csv },
        notes: 'Without payoutId, currency, createdAfter and createdBefore must all be given. The format follows the Accept header.',
      },
    ),
    op('GET', '/transactions/disputes', 'listDisputes', T, 'Disputes, a page at a time', 'transactions.disputes.list', {
      list: true,
      answer: s.Dispute,
      query: list(),
    }),
    op('GET', '/transactions/refunds', 'listRefunds', T, 'Refunds, a page at a time', 'transactions.refunds.list', {
      list: true,
      answer: s.Refund,
      query: list(),
    }),
    // Marketplaces
    op('GET', '/marketplaces/{marketplaceId}', 'getMarketplace', 'Marketplaces', 'A marketplace', 'marketplaces.get', { answer: s.Marketplace }),
    op(
      'POST',
      '/marketplaces/customer',
      'upsertMarketplaceCustomer',
      'Marketplaces',
      'Create or update a customer onboarded once across every sub-merchant',
      'marketplaces.upsertCustomer',
      {
        body: { json: s.MarketplaceCustomerUpsert },
      },
    ),
    // Webhooks
    op('GET', '/webhooks', 'listWebhookSubscriptions', W, 'Webhook subscriptions, a page at a time', 'webhooks.list', {
      list: true,
      answer: subscription,
      query: list({
        merchantId: ids('Subscriptions of these sub-merchants'),
        marketplaceId: ids('Subscriptions of these marketplaces'),
        status: ids('Only these states'),
      }),
    }),
    op('POST', '/webhooks', 'createWebhookSubscription', W, 'Create a marketplace or merchant subscription (https url)', 'webhooks.create', {
      body: { envelope: 'POST /webhooks' },
      answer: subscription,
    }),
    op('GET', '/webhooks/{id}', 'getWebhookSubscription', W, 'A webhook subscription', 'webhooks.get', { answer: subscription }),
    op('PATCH', '/webhooks/{id}', 'updateWebhookSubscription', W, 'Change the status of a subscription', ['webhooks.update', 'webhooks.setStatus'], {
      body: { envelope: 'PATCH /webhooks/{id}' },
      answer: subscription,
    }),
    // Loans
    op('GET', '/loans', 'listLoans', L, 'Loan summaries, a page at a time', 'loans.list', { list: true, answer: s.Loan, query: list() }),
    op('GET', '/loans/statements/{loanStatementId}', 'getLoanStatement', L, 'A loan statement summary', 'loans.statements.get', { answer: s.LoanStatement }),
    op('GET', '/loans/statements', 'listLoanStatements', L, 'Loan statement summaries, a page at a time', 'loans.statements.list', {
      list: true,
      answer: s.LoanStatement,
      query: list(),
    }),
    op('GET', '/loans/statements/entries', 'listLoanStatementEntries', L, 'Loan statement entries, a page at a time', 'loans.entries.list', {
      list: true,
      answer: s.LoanStatementEntry,
      query: list(loanEntryFilters),
      maturity: 'experimental',
    }),
    op(
      'GET',
      '/loans/enterprise/statements/{loanStatementId}/download',
      'downloadLoanStatement',
      L,
      'A statement report (CSV, PDF or XML) in a password-protected zip file',
      'loans.statements.download',
      {
        answer: { 'application/zip': 'binary' },
      },
    ),
    op('GET', '/loans/statements/entries/report', 'getLoanStatementEntriesReport', L, 'Loan statement entries, not paginated', 'loans.entries.report', {
      query: loanEntryFilters,
      answer: unknown,
      maturity: 'experimental',
      notes:
        'Without loanSettlementId or loanId, currency and a whole date range must be given: createdAfter and createdBefore (created at), ' +
        'or dueAfter and dueBefore (due on); otherwise 400. The contract names the rule but not the range parameters: these are the ' +
        'names payfac sends and the emulator reads.',
    }),
    // Card issuer
    op('POST', '/issuer/card', 'createDigitalCards', 'Card issuer', 'Administer digital cards', 'cards.create', { body: { json: s.DigitalCardRequest } }),
    op('GET', '/issuer/card', 'listDigitalCards', 'Card issuer', 'Digital card summaries, a page at a time', 'cards.list', {
      list: true,
      answer: s.DigitalCard,
      query: list(),
    }),
    // PayTo
    op('GET', '/payto/alias', 'getPayToAliasName', 'PayTo', 'The display name of an account alias', 'payto.alias', {
      query: {
        aliasType: text('Kind of alias, such as Phone (parameters not shown by the contract; these are what the client sends).'),
        value: text('The alias.'),
      },
      answer: unknown,
    }),
    op('POST', '/payto/agreement', 'sendPayToAgreement', 'PayTo', 'Send an agreement request to the customer; answers its token', 'payto.sendAgreement', {
      body: { json: s.SendAgreement },
      answer: s.AgreementSent,
    }),
    op('GET', '/payto/agreement', 'getPayToAgreement', 'PayTo', 'The status of an agreement (poll every few seconds until Active)', 'payto.agreement', {
      query: { token: { schema: z.string(), required: true, description: 'The token that sending the agreement answered.' } },
      answer: s.Agreement,
    }),
    // Simulation
    op('POST', '/simulation', 'simulate', 'Simulation', 'Simulate an external event such as a bank transfer (sandbox only)', 'simulation.run', {
      body: { json: s.SimulationRequest },
      answer: unknown,
    }),
  ]
}
