// The embedded client's public surface. Named exports only.
export { createClient } from './client.js'
export type { ClientOptions, PayfacClient } from './client.js'
export type { AnyEnvelope, CallOptions, EnvelopeFor, EnvelopeInput, IterateCallOptions, ListQuery, PageQuery, QueryInput } from './core.js'
export type { Context, OutgoingRequest, Query, RawRequest, RawResponse, ResponseType } from './transport.js'
export { DEFAULT_BUDGET_MS, DEFAULT_TIMEOUT_MS, DEFAULT_USER_AGENT } from './transport.js'
export type { RetryEvent } from './transport.js'

export {
  ApiError,
  ConnectionError,
  InvalidInputError,
  ListIntegrityError,
  OutcomeUnknownError,
  PageLimitError,
  PayfacError,
  ResponseFormatError,
  TimeoutError,
} from './errors.js'
export type { ApiErrorBody, LostAnswer } from './errors.js'

export { currencyExponent, formatMinorUnits, formatMoney, isKnownCurrency, parseCurrency, parseMoney, toMinorUnits } from './money.js'

export { EnvelopeError, isEnvelope, unwrap, unwrapOneOf, wrap } from './envelope.js'
export type { Unwrapped } from './envelope.js'

export { DEFAULT_CONCURRENCY, DEFAULT_MAX_PAGES, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './pagination.js'
export type { Page, RecordStream } from './pagination.js'

export { backoffMs, shouldRetry } from './retry.js'
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  describeWebhookSignatureFailure,
  parseWebhookSignatureHeader,
  signWebhookPayload,
  verifyWebhookSignature,
  webhookSignatureHeader,
} from './webhook-signature.js'
export type { VerifyWebhookOptions, WebhookSignatureFailure, WebhookSignatureResult } from './webhook-signature.js'
export { redactJson, redactUrl } from './redact.js'

export * as schemas from './schemas/index.js'
export type { Money } from './money.js'
export type {
  Address,
  Agreement,
  AgreementSent,
  BeneficialOwner,
  BlockedCardEvent,
  Customer,
  CustomerDelegate,
  CustomerUpserted,
  DigitalCard,
  Dispute,
  Invoice,
  KycResult,
  Loan,
  LoanStatement,
  LoanStatementEntry,
  Marketplace,
  Merchant,
  MerchantBalances,
  MerchantFile,
  MoneyRecord,
  Order,
  OrderItem,
  PaymentSource,
  PaymentToken,
  PayOrderComplete,
  PayPlan,
  PayPlanOffer,
  PayPlanOfferRequest,
  PayToToken,
  Payout,
  Refund,
  SavedPaymentSourceToken,
  SendAgreement,
  ServiceToken,
  SettlementEntry,
  SignInResult,
  ThreeDSAuthorisationRequired,
  Transaction,
  TransactionDetails,
  WebhookSubscription,
} from './schemas/index.js'

export type { AuthResource, CreateServiceTokenEnvelope, ServiceTokenQuery, SignInEnvelope, UpdateServiceTokenEnvelope } from './resources/auth.js'
export type { CardsResource } from './resources/cards.js'
export type { CustomerQuery, CustomersResource, DelegateActionEnvelope, UpsertCustomerEnvelope } from './resources/customers.js'
export type { LoanEntriesQuery, LoansResource } from './resources/loans.js'
export type { MarketplacesResource } from './resources/marketplaces.js'
export type { MerchantActionEnvelope, MerchantFileUpload, MerchantsResource } from './resources/merchants.js'
export type { CreateOrderEnvelope, OrderQuery, OrdersResource, PayOrderEnvelope, PayResult, UpdateOrderEnvelope } from './resources/orders.js'
export type { PayPlansResource } from './resources/payplans.js'
export type { PayToResource } from './resources/payto.js'
export type { SimulationResource } from './resources/simulation.js'
export type { BlockedCardEnvelope, CreateSourceEnvelope, SourcesResource } from './resources/sources.js'
export type { CreateTokenEnvelope, TokenResult, TokensResource } from './resources/tokens.js'
export type { SettlementQuery, TransactionActionEnvelope, TransactionQuery, TransactionsResource } from './resources/transactions.js'
export type { CreateWebhookEnvelope, UpdateWebhookEnvelope, WebhookQuery, WebhooksResource } from './resources/webhooks.js'
