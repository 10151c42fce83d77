// The operations of the interface (contract v3, "Endpoints"): what `payfac api --list` prints, and
// what `payfac api` compares a path with, so that a path the interface lacks is said to be one
// (a sandbox may have more: the request is still sent). Pure data and matching; no I/O.

/** [method, path template, what it does]. */
export const OPERATIONS: ReadonlyArray<readonly [string, string, string]> = [
  ['POST', '/auth/signin', 'sign in on behalf of a consumer customer (B2C) or customer delegate …'],
  ['GET', '/auth/servicetokens/{serviceTokenId}', 'return a service token'],
  ['GET', '/auth/servicetokens', 'paginated list of service tokens'],
  ['POST', '/auth/servicetokens', 'create a service token'],
  ['PATCH', '/auth/servicetokens/{serviceTokenId}', 'update actions on a service token'],
  ['GET', '/customers', 'paginated list of customers (filterable by email address and merchant …'],
  ['POST', '/customers', 'upsert a customer; actions UpsertConsumerCustomer, …'],
  ['GET', '/customers/{customerId}', 'return a customer'],
  ['POST', '/customers/kyc', 'KYC check on a consumer customer; the response may say more details …'],
  ['GET', '/customers/delegates', 'paginated list of customer delegates'],
  ['GET', '/customers/delegates/{customerDelegateId}', 'return a delegate'],
  ['PATCH', '/customers/delegates/{customerDelegateId}', 'update actions, such as linking the delegate to a new customer'],
  ['POST', '/customers/delegates', 'upsert a customer delegate'],
  ['DELETE', '/customers/delegates/{customerDelegateId}', 'delete a delegate'],
  ['GET', '/merchants', 'paginated list of merchants'],
  ['POST', '/merchants', 'create a sub-merchant inside a marketplace'],
  ['GET', '/merchants/{merchantId}', 'return a merchant (includes bank accounts and public key)'],
  ['PATCH', '/merchants/{merchantId}', 'actions AddMerchantBankAccount, SetMerchantPrimaryBankAccount, …'],
  ['GET', '/merchants/{merchantId}/balances', 'query account balances'],
  ['POST', '/merchants/{merchantId}/files', 'upload a document scan for the onboarding profile'],
  ['GET', '/merchants/{merchantId}/files/{fileId}', 'details of an onboarding file'],
  ['GET', '/merchants/{merchantId}/walletpay', "domains registered for the merchant's mobile-wallet payments"],
  ['GET', '/merchants/{merchantId}/owners', 'all beneficial owners'],
  ['POST', '/merchants/{merchantId}/owners', 'create a beneficial owner'],
  ['GET', '/merchants/{merchantId}/owners/{ownerId}', 'return a beneficial owner'],
  ['PUT', '/merchants/{merchantId}/owners/{ownerId}', 'overwrite a beneficial owner'],
  ['DELETE', '/merchants/{merchantId}/owners/{ownerId}', 'delete a beneficial owner'],
  ['GET', '/merchants/industries', 'list supported industries'],
  ['GET', '/sources/{sourceId}', 'return a payment source'],
  ['DELETE', '/sources/{sourceId}', 'delete a payment source'],
  ['POST', '/sources', 'register a payment source usable for one or more payments'],
  ['GET', '/sources', 'paginated list of payment sources'],
  ['GET', '/sources/blockedcards', 'paginated list of events about blocked cards'],
  ['PATCH', '/sources/blockedcards/{cardBlockId}', 'update actions on blocked cards'],
  ['POST', '/tokens', 'generate a pay-in-full payment token from a payment source'],
  ['GET', '/tokens/{paymentTokenId}', 'details of a pay-in-full payment token'],
  ['POST', '/tokens/{merchantId}/surchargequote', 'calculate surcharged amounts for a payment type'],
  ['POST', '/payplans/offer', "create an offer for a registered, KYC'd merchant customer"],
  ['GET', '/payplans', 'paginated list of pay plans'],
  ['POST', '/payplans', 'create a pay plan and a payment token from a successful offer'],
  ['GET', '/payplans/{payPlanId}', 'return a pay plan'],
  ['POST', '/payplans/max', 'maximum loan amount the customer is currently eligible for'],
  ['POST', '/payplans/parameters', 'pay plan parameters for an amount and a list of variants (beta: …'],
  ['GET', '/orders', 'paginated list of orders'],
  ['POST', '/orders', 'create an order; actions CreateOnlineOrder, CreatePayByLinkOrder'],
  ['POST', '/orders/{orderId}/pay', 'pay an order with a payment token'],
  ['GET', '/orders/{orderId}', 'retrieve an order'],
  ['DELETE', '/orders/{orderId}', 'cancel an order so it can no longer be paid'],
  ['PATCH', '/orders/{orderId}', 'actions; UpdateReferenceOrderId'],
  ['GET', '/transactions/{transactionId}', 'return a transaction (includes transfers)'],
  ['GET', '/transactions', 'paginated list (filterable by order identifier)'],
  ['PATCH', '/transactions/{transactionId}', 'actions CreateRefund, ReverseFundsTransfer, TransferFunds, …'],
  ['POST', '/transactions/payouts', 'request a manual payout'],
  ['GET', '/transactions/payouts', 'paginated list of payout summaries'],
  ['GET', '/transactions/payouts/{payoutId}', "aggregated breakdown of the payout's money movements and disbursement …"],
  ['GET', '/transactions/invoices', 'paginated list of merchant invoices'],
  ['GET', '/transactions/invoices/{invoiceId}', 'aggregated breakdown and billing details'],
  ['GET', '/transactions/invoices/{invoiceId}/pdf', 'PDF of the invoice for the payer merchant'],
  ['GET', '/transactions/settlement', 'paginated list of settlement entries'],
  ['GET', '/transactions/settlement/report', 'list of settlement entries, not paginated'],
  ['GET', '/transactions/disputes', 'paginated list of disputes'],
  ['GET', '/transactions/refunds', 'paginated list of refunds'],
  ['GET', '/marketplaces/{marketplaceId}', 'return a marketplace'],
  ['POST', '/marketplaces/customer', 'upsert a marketplace customer, onboarded once and available across …'],
  ['GET', '/webhooks', 'paginated list of subscriptions'],
  ['POST', '/webhooks', 'create a subscription'],
  ['GET', '/webhooks/{id}', 'return a subscription'],
  ['PATCH', '/webhooks/{id}', 'update a subscription'],
  ['GET', '/loans', 'paginated list of loan summaries'],
  ['GET', '/loans/statements/{loanStatementId}', 'a loan statement summary'],
  ['GET', '/loans/statements', 'paginated list of statement summaries'],
  ['GET', '/loans/statements/entries', 'paginated list of statement entries (experimental)'],
  ['GET', '/loans/enterprise/statements/{loanStatementId}/download', 'statement report as CSV, PDF or XML, delivered in a …'],
  ['GET', '/loans/statements/entries/report', 'list of statement entries (experimental)'],
  ['POST', '/issuer/card', 'administer digital card(s)'],
  ['GET', '/issuer/card', 'paginated list of digital card summaries'],
  ['GET', '/payto/alias', 'returns the display name for an account alias; parameters and …'],
  ['POST', '/payto/agreement', 'send an agreement request to the customer; response token'],
  ['GET', '/payto/agreement', 'query parameter token (string); response status'],
  ['POST', '/simulation', 'sandbox only; simulate external events such as a bank transfer'],
]

function matches(template: string, path: string): boolean {
  const want = template.split('/')
  const got = path.replace(/\/+$/, '').split('/')
  return want.length === got.length && want.every((part, i) => (part.startsWith('{') ? got[i] !== '' : part === got[i]))
}

/** The operations of the interface at `path` (any method), and whether `method` is among them. */
export function operationsAt(method: string, path: string): { known: boolean; methods: string[] } {
  const at = OPERATIONS.filter(([, template]) => matches(template, path))
  const methods = [...new Set(at.map(([m]) => m))]
  return { known: methods.includes(method.toUpperCase()), methods }
}

/** The rows of `payfac api --list`. */
export function operationRows(): Array<{ method: string; path: string; operation: string }> {
  return OPERATIONS.map(([method, path, operation]) => ({ method, path, operation }))
}

/** The line for stderr when the interface has no such operation. */
export function unknownOperationNote(method: string, path: string, bin: string): string | undefined {
  const { known, methods } = operationsAt(method, path)
  if (known) return undefined
  const other = methods.length > 0 ? `; at this path it has ${methods.join(', ')}` : ''
  return `The interface has no operation ${method.toUpperCase()} ${path}${other} (sent anyway: a sandbox may have more). List the operations with: ${bin} api --list`
}
