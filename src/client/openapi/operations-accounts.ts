// The operations of the contract about accounts and how they pay: authentication, customers,
// merchants, payment sources, payment tokens and pay plans, in the contract's order.
import { z } from 'zod'
import { AnyObject, SignInResult, ServiceToken } from '../schemas/index.js'
import * as s from '../schemas/index.js'
import type { Operation } from './operation-types.js'
import type { OperationKit } from './operations-kit.js'

export function accountOperations(kit: OperationKit): Operation[] {
  const { ids, text, time, created, list, token, unknown, A, C, M, PS, PT, PP, op } = kit
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
  ]
}
