// The run that makes the OpenAPI document's examples (src/client/openapi/examples.ts): one request
// of every operation of the contract, in an order that makes each possible, sent to a fresh
// emulator with a fixed clock and seeded ids, so that each answer is the same on every run. Steps
// without an operation id prepare the next (an agreement approved, a card blocked). Each example
// keeps the concrete path (parameters filled in), the JSON request body, and the JSON answer.
// test/contract/openapi-examples.test.ts runs it and compares with the committed file.
import { expect } from 'vitest'

import type { OperationExample } from '../../src/client/openapi/examples.js'
import { createEmulatorApp, type EmulatorApp } from '../../src/emulator/app.js'
import { fakeClock } from '../../src/emulator/clock.js'
import { seededIds } from '../../src/emulator/ids.js'
import { SEEDED_LOAN_ID } from '../../src/emulator/resources/loans.js'
import { WELL_KNOWN } from '../../src/well-known.js'

const KEYS = WELL_KNOWN.credentials
const MERCHANT = WELL_KNOWN.merchantId
const MARKETPLACE = WELL_KNOWN.marketplaceId
const BASE_URL = 'http://127.0.0.1:4010'
const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })

interface Send {
  credential?: string
  body?: unknown
  headers?: Record<string, string>
  /** A multipart body as sent (its Content-Type header in `headers`). */
  raw?: Buffer
  /** The answer is a file: kept out of the example. */
  binary?: boolean
}

function text(body: unknown): string {
  if (typeof body === 'string') return body
  if (Buffer.isBuffer(body)) return body.toString('utf8')
  const pieces = (body as { pieces?: () => Iterable<string> }).pieces
  return pieces ? [...pieces.call(body)].join('') : String(body)
}

/** Runs every step; gives the example of each operation, by operationId. */
export function runExamples(): Record<string, OperationExample> {
  const app: EmulatorApp = createEmulatorApp({ clock: fakeClock('2025-03-01T10:00:00.000Z'), ids: seededIds('openapi-examples') })
  const examples: Record<string, OperationExample> = {}

  /** One request; with `operationId`, it is that operation's example. Expects 200. */
  const send = (operationId: string | null, method: string, path: string, options: Send = {}): any => {
    const headers: Record<string, string> = {
      accept: options.binary ? '*/*' : 'application/json',
      authorization: `Bearer ${options.credential ?? KEYS.merchantSecretKey}`,
      host: '127.0.0.1:4010',
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    }
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
    const answer = app.handle({ method, url: path, headers, body, baseUrl: BASE_URL })
    const json = !options.binary && String(answer.headers['Content-Type'] ?? '').startsWith('application/json') ? JSON.parse(text(answer.body)) : undefined
    expect(answer.status, `${method} ${path}: ${text(answer.body).slice(0, 500)}`).toBe(200)
    if (operationId !== null) {
      expect(examples[operationId], `${operationId} twice`).toBeUndefined()
      examples[operationId] = {
        path,
        ...(options.body !== undefined ? { request: options.body } : {}),
        ...(json !== undefined ? { answer: json } : {}),
      }
    }
    return json
  }
  const asMarketplace = { credential: KEYS.marketplaceApiKey }
  const simulate = (body: unknown) => send(null, 'POST', '/simulation', { body })

  // Customers and sign-in
  const customerId = send('upsertCustomer', 'POST', '/customers', {
    body: {
      UpsertConsumerCustomer: { referenceCustomerId: 'CUST-1001', givenName: 'Jo', familyName: 'Citizen', emailAddress: 'jo@example.com', isVerified: true },
    },
  }).customerId
  send('getCustomer', 'GET', `/customers/${customerId}`)
  send('listCustomers', 'GET', '/customers?emailAddress=jo%40example.com&limit=2')
  send('checkCustomerKyc', 'POST', '/customers/kyc', { body: { customerId, dateOfBirth: '1990-01-01' } })
  const organisation = send(null, 'POST', '/customers', {
    body: { UpsertOrganisationCustomer: { referenceCustomerId: 'ORG-2001', name: 'Harbour Cafe Pty Ltd' } },
  })
  const delegateId = send('upsertCustomerDelegate', 'POST', '/customers/delegates', {
    body: { customerId: organisation.customerId, emailAddress: 'pat@harbourcafe.example', givenName: 'Pat', familyName: 'Lee' },
  }).customerDelegateId
  send('getCustomerDelegate', 'GET', `/customers/delegates/${delegateId}`)
  send('listCustomerDelegates', 'GET', `/customers/delegates?customerId=${organisation.customerId}&limit=2`)
  const other = send(null, 'POST', '/customers', { body: { UpsertOrganisationCustomer: { referenceCustomerId: 'ORG-2002', name: 'Harbour Bakery Pty Ltd' } } })
  send('updateCustomerDelegate', 'PATCH', `/customers/delegates/${delegateId}`, { body: { LinkDelegateToCustomer: { customerId: other.customerId } } })
  send('signIn', 'POST', '/auth/signin', { body: { SignInConsumer: { customerId } } })

  // Service tokens
  const serviceTokenId = send('createServiceToken', 'POST', '/auth/servicetokens', {
    body: { CreateServiceToken: { description: 'CI pipeline' } },
  }).serviceTokenId
  send('getServiceToken', 'GET', `/auth/servicetokens/${serviceTokenId}`)
  send('listServiceTokens', 'GET', `/auth/servicetokens?merchantId=${MERCHANT}&limit=2`)
  send('updateServiceToken', 'PATCH', `/auth/servicetokens/${serviceTokenId}`, { body: { UpdateServiceToken: { status: 'Revoked' } } })

  // Merchants
  send('listMerchants', 'GET', '/merchants?limit=2', asMarketplace)
  send('createMerchant', 'POST', '/merchants', { ...asMarketplace, body: { name: 'Harbour Books Pty Ltd', industry: 'Retail' } })
  send('getMerchant', 'GET', `/merchants/${MERCHANT}`)
  send('updateMerchant', 'PATCH', `/merchants/${MERCHANT}`, {
    body: { UpdateMerchantBusinessProfile: { websiteUrl: 'https://local.example', tradingHours: 'Mon-Fri 9-5', walletPayDomains: ['local.example'] } },
  })
  send('getMerchantBalances', 'GET', `/merchants/${MERCHANT}/balances`)
  const boundary = 'payfac-example-boundary'
  const upload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nIdentityDocument\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
      `%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n\r\n--${boundary}--\r\n`,
  )
  const fileId = send('uploadMerchantFile', 'POST', `/merchants/${MERCHANT}/files`, {
    raw: upload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }).fileId
  send('getMerchantFile', 'GET', `/merchants/${MERCHANT}/files/${fileId}`)
  send('getMerchantWalletPayDomains', 'GET', `/merchants/${MERCHANT}/walletpay`)
  const owner = { givenName: 'Ada', familyName: 'Lovelace', role: 'Director', ownershipPercentage: 60, dateOfBirth: '1980-12-10' }
  const ownerId = send('createBeneficialOwner', 'POST', `/merchants/${MERCHANT}/owners`, { body: owner }).ownerId
  send('listBeneficialOwners', 'GET', `/merchants/${MERCHANT}/owners`)
  send('getBeneficialOwner', 'GET', `/merchants/${MERCHANT}/owners/${ownerId}`)
  send('replaceBeneficialOwner', 'PUT', `/merchants/${MERCHANT}/owners/${ownerId}`, { body: { ...owner, ownershipPercentage: 55 } })
  send('deleteBeneficialOwner', 'DELETE', `/merchants/${MERCHANT}/owners/${ownerId}`)
  send('listIndustries', 'GET', '/merchants/industries')

  // PayTo, a token, an order and its payment
  send('getPayToAliasName', 'GET', '/payto/alias?aliasType=Phone&value=%2B61412345678')
  const agreementToken = send('sendPayToAgreement', 'POST', '/payto/agreement', {
    body: {
      customerName: 'Jo Citizen',
      customerAccIdentifier: { Bban: { value: '062-000 12345678' } },
      terms: { AgreementRequestTermsOneOff: { amount: { amount: 1250, currency: 'AUD' } } },
      purpose: 'Coffee beans',
    },
  }).token
  simulate({ AdvanceClock: { seconds: 2 } })
  send('getPayToAgreement', 'GET', `/payto/agreement?token=${agreementToken}`)
  const paymentTokenId = send('createPaymentToken', 'POST', '/tokens', { body: { CreatePayToToken: { amount: aud(1250), agreementToken } } }).PayToToken
    .paymentTokenId
  send('getPaymentToken', 'GET', `/tokens/${paymentTokenId}`)
  send('createSurchargeQuote', 'POST', `/tokens/${MERCHANT}/surchargequote`, {
    credential: KEYS.merchantPublicKey,
    body: { amount: aud(1250), paymentMethodType: 'Card' },
  })
  const orderId = send('createOrder', 'POST', '/orders', {
    body: {
      CreateOnlineOrder: {
        referenceOrderId: 'INV-1001',
        amount: aud(1250),
        description: 'Coffee beans',
        customerEmailAddress: 'jo@example.com',
        items: [{ amount: aud(625), description: 'Coffee beans 250 g', quantity: 2 }],
        metadata: { channel: 'web' },
      },
    },
  }).OnlineOrder.order.orderId
  send('getOrder', 'GET', `/orders/${orderId}`)
  send('updateOrder', 'PATCH', `/orders/${orderId}`, { body: { UpdateReferenceOrderId: { referenceOrderId: 'INV-1001-A' } } })
  const transactionId = send('payOrder', 'POST', `/orders/${orderId}/pay`, { body: { PayByPayTo: { paymentTokenId } } }).PayOrderComplete.transactionId
  send('listOrders', 'GET', '/orders?referenceOrderId=INV-1001-A&limit=2')
  const unpaid = send(null, 'POST', '/orders', { body: { CreateOnlineOrder: { referenceOrderId: 'INV-1002', amount: aud(900) } } }).OnlineOrder.order.orderId
  send('cancelOrder', 'DELETE', `/orders/${unpaid}`)

  // Transactions, refunds, disputes
  send('getTransaction', 'GET', `/transactions/${transactionId}`)
  send('listTransactions', 'GET', `/transactions?orderId=${orderId}&limit=2`)
  send('updateTransaction', 'PATCH', `/transactions/${transactionId}`, { body: { CreateRefund: { refundAmount: 500 } } })
  send('listRefunds', 'GET', `/transactions/refunds?transactionId=${transactionId}&limit=2`)
  simulate({ OpenDispute: { transactionId, amount: 100, reason: 'Not received' } })
  send('listDisputes', 'GET', '/transactions/disputes?limit=2')

  // Payment sources
  const card = { CreateCardPaymentSource: { cardNumber: '4242424242424242', expiryMonth: 12, expiryYear: 2030, cvc: '123' } }
  const sourceId = send('createPaymentSource', 'POST', '/sources', { body: card, headers: { 'Customer-Id': customerId } }).paymentSourceId
  send('getPaymentSource', 'GET', `/sources/${sourceId}`)
  send('listPaymentSources', 'GET', `/sources?customerId=${customerId}&limit=2`)
  const cardBlockId = simulate({ RaiseBlockedCardEvent: { paymentSourceId: sourceId, reason: 'Reported lost' } }).cardBlockId
  send('listBlockedCardEvents', 'GET', '/sources/blockedcards?limit=2')
  send('updateBlockedCard', 'PATCH', `/sources/blockedcards/${cardBlockId}`, { body: { UnblockCard: { reason: 'Found again' } } })
  const spare = send(null, 'POST', '/sources', { body: card, headers: { 'Customer-Id': customerId } }).paymentSourceId
  send('deletePaymentSource', 'DELETE', `/sources/${spare}`)

  // Pay plans
  const asCustomer = { headers: { 'Customer-Id': customerId } }
  const offerId = send('createPayPlanOffer', 'POST', '/payplans/offer', {
    ...asCustomer,
    body: { amount: aud(40_000), initialPayment: 0, payPlanVariant: 'payplan_4_weekly_payments' },
  }).offerId
  const payPlanId = send('createPayPlan', 'POST', '/payplans', { ...asCustomer, body: { offerId } }).payPlanId
  send('getPayPlan', 'GET', `/payplans/${payPlanId}`)
  send('listPayPlans', 'GET', `/payplans?customerId=${customerId}&limit=2`)
  send('getPayPlanMaximum', 'POST', '/payplans/max', { ...asCustomer, body: {} })
  send('getPayPlanParameters', 'POST', '/payplans/parameters', { body: { amount: aud(10_000), payPlanVariants: ['payplan_4_weekly_payments'] } })

  // Payouts, invoices, settlement
  simulate({ AdvanceClock: { seconds: 2 * 86_400 } })
  const payoutId = send('requestPayout', 'POST', '/transactions/payouts', { body: {} }).payoutId
  send('listPayouts', 'GET', '/transactions/payouts?limit=2')
  send('getPayout', 'GET', `/transactions/payouts/${payoutId}`)
  const invoiceId = send('listInvoices', 'GET', '/transactions/invoices?limit=2')[0].invoiceId
  send('getInvoice', 'GET', `/transactions/invoices/${invoiceId}`)
  send('getInvoicePdf', 'GET', `/transactions/invoices/${invoiceId}/pdf`, { binary: true })
  const range = 'currency=AUD&createdAfter=2025-03-01T00%3A00%3A00.000Z&createdBefore=2025-03-02T00%3A00%3A00.000Z'
  send('listSettlementEntries', 'GET', `/transactions/settlement?${range}&limit=2`)
  send('getSettlementReport', 'GET', `/transactions/settlement/report?${range}`)

  // Marketplaces
  send('getMarketplace', 'GET', `/marketplaces/${MARKETPLACE}`, asMarketplace)
  send('upsertMarketplaceCustomer', 'POST', '/marketplaces/customer', { ...asMarketplace, body: { emailAddress: 'sam@example.com', givenName: 'Sam' } })

  // Webhooks
  const webhookId = send('createWebhookSubscription', 'POST', '/webhooks', {
    body: { CreateWebhookMerchantSubscription: { url: 'https://example.com/hooks/payfac', events: ['TransactionPaid', 'TransactionRefunded'] } },
  }).WebhookMerchantSubscription.id
  send('getWebhookSubscription', 'GET', `/webhooks/${webhookId}`)
  send('listWebhookSubscriptions', 'GET', '/webhooks?limit=2')
  send('updateWebhookSubscription', 'PATCH', `/webhooks/${webhookId}`, { body: { UpdateWebhookSubscriptionStatus: { status: 'Suspended' } } })

  // Loans and cards
  send('listLoans', 'GET', '/loans?limit=2')
  const statementId = send('listLoanStatements', 'GET', `/loans/statements?loanId=${SEEDED_LOAN_ID}&limit=2`)[0].loanStatementId
  send('getLoanStatement', 'GET', `/loans/statements/${statementId}`)
  send('listLoanStatementEntries', 'GET', `/loans/statements/entries?loanStatementId=${statementId}&limit=2`)
  send('downloadLoanStatement', 'GET', `/loans/enterprise/statements/${statementId}/download`, { binary: true })
  send(
    'getLoanStatementEntriesReport',
    'GET',
    `/loans/statements/entries/report?loanStatementId=${statementId}&currency=AUD&dueAfter=2024-10-01&dueBefore=2025-01-01`,
  )
  send('createDigitalCards', 'POST', '/issuer/card', {
    body: { IssueDigitalCard: { cardholderName: 'Alex Builder', limit: aud(100_000), loanId: SEEDED_LOAN_ID } },
  })
  send('listDigitalCards', 'GET', '/issuer/card?limit=2')

  // Simulation, and the delegate deleted last
  send('simulate', 'POST', '/simulation', { body: { AdvanceClock: { seconds: 60 } } })
  send('deleteCustomerDelegate', 'DELETE', `/customers/delegates/${delegateId}`)
  app.close()
  return examples
}
