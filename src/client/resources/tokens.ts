// Payment tokens: create from a source, read, and surcharge quotes.
import { ResponseFormatError } from '../errors.js'
import { AnyObject } from '../schemas/common.js'
import { PaymentToken, PayToToken, SavedPaymentSourceToken, SurchargeQuoteRequest } from '../schemas/tokens.js'
import { type CallOptions, type Core, type EnvelopeInput, answerError, checkBody, checkEnvelope, isObject, openAnswer, parseAnswer, path } from '../core.js'

export type CreateTokenEnvelope = EnvelopeInput<'POST /tokens'>

/** The answer of `POST /tokens`, with its envelope key as `kind`. */
export type TokenResult =
  | { kind: 'PayToToken'; token: PayToToken }
  | { kind: 'SavedPaymentSourceToken'; token: SavedPaymentSourceToken }
  | { kind: 'BankAccountToken' | 'OtherToken'; token: AnyObject }

export interface TokensResource {
  /** `POST /tokens` with `CreatePayToToken`, `CreateSavedPaymentSourceToken`, `CardPaymentSourceId` or `CreateApplePayToken`. */
  create(envelope: CreateTokenEnvelope, call?: CallOptions): Promise<TokenResult>
  get(paymentTokenId: string, call?: CallOptions): Promise<PaymentToken>
  /** `POST /tokens/{merchantId}/surchargequote`; body and answer not shown. */
  surchargeQuote(merchantId: string, body: Record<string, unknown>, call?: CallOptions): Promise<AnyObject>
}

export function tokensResource(core: Core): TokensResource {
  return {
    async create(envelope, call) {
      const body = checkEnvelope('POST /tokens', envelope)
      const response = await core.send('POST', '/tokens', { body, call })
      const at = { method: 'POST', path: '/tokens', status: response.status }
      const { kind, value } = openAnswer(response.body, at)
      if (kind === 'PayToToken') return { kind, token: parseAnswer(PayToToken, value, at, kind) }
      if (kind === 'SavedPaymentSourceToken') return { kind, token: parseAnswer(SavedPaymentSourceToken, value, at, kind) }
      if (!isObject(value)) throw answerError(new ResponseFormatError({ ...at, body: response.body, reason: `${kind} must hold an object` }))
      // Other variants: passed through with their own key (typed loosely).
      return { kind: kind as 'OtherToken', token: parseAnswer(AnyObject, value, at, kind) }
    },
    get: async (id, call) => core.json('GET', path`/tokens/${id}`, PaymentToken, { call }),
    surchargeQuote: async (merchantId, body, call) =>
      core.json('POST', path`/tokens/${merchantId}/surchargequote`, AnyObject, {
        body: checkBody(SurchargeQuoteRequest, body, 'surcharge quote request'),
        call,
      }),
  }
}
