// The operations of the contract about money: orders, transactions, marketplaces, webhooks, loans,
// cards, PayTo and simulation, in the contract's order.
import { z } from 'zod'
import * as s from '../schemas/index.js'
import type { Operation } from './operation-types.js'
import type { OperationKit } from './operations-kit.js'

export function moneyOperations(kit: OperationKit): Operation[] {
  const { ids, text, created, loanEntryFilters, list, order, subscription, paid, unknown, csv, O, T, W, L, op } = kit
  return [
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
