// Sign-in for the checkout, and service tokens.
import type { Page } from '../pagination.js'
import { ServiceToken, SignInResult } from '../schemas/auth.js'
import { type CallOptions, type Core, type EnvelopeInput, type IterateCallOptions, type ListQuery, checkEnvelope, path, requireSome } from '../core.js'

/** `GET /auth/servicetokens` filters, named as in the contract. One of merchantId or marketplaceId is required. */
export type ServiceTokenQuery = ListQuery & {
  merchantId?: string | string[] | undefined
  marketplaceId?: string | string[] | undefined
  status?: string | string[] | undefined
  expired?: boolean | undefined
  createdFromInclusive?: string | undefined
  createdToExclusive?: string | undefined
  expiresAtFromInclusive?: string | undefined
  expiresAtToExclusive?: string | undefined
}

export type SignInEnvelope = EnvelopeInput<'POST /auth/signin'>
export type CreateServiceTokenEnvelope = EnvelopeInput<'POST /auth/servicetokens'>
export type UpdateServiceTokenEnvelope = EnvelopeInput<'PATCH /auth/servicetokens/{serviceTokenId}'>

export interface AuthResource {
  /** `POST /auth/signin` with `SignInConsumer`, `SignInDelegate` or `SignInDelegateByReferenceId`. */
  signIn(envelope: SignInEnvelope, call?: CallOptions): Promise<SignInResult>
  serviceTokens: {
    list(query: ServiceTokenQuery, call?: CallOptions): Promise<Page<ServiceToken>>
    iterate(query: ServiceTokenQuery, options?: IterateCallOptions): AsyncIterable<ServiceToken>
    get(serviceTokenId: string, call?: CallOptions): Promise<ServiceToken>
    create(envelope: CreateServiceTokenEnvelope, call?: CallOptions): Promise<ServiceToken>
    update(serviceTokenId: string, envelope: UpdateServiceTokenEnvelope, call?: CallOptions): Promise<ServiceToken>
  }
}

function checkServiceTokenQuery(query: ServiceTokenQuery): void {
  requireSome(
    query,
    ['merchantId', 'marketplaceId'],
    'Listing service tokens needs a merchantId or a marketplaceId filter',
    'Give the merchant or marketplace whose tokens to list.',
  )
}

export function authResource(core: Core): AuthResource {
  return {
    signIn: async (envelope, call) => core.json('POST', '/auth/signin', SignInResult, { body: checkEnvelope('POST /auth/signin', envelope), call }),
    serviceTokens: {
      async list(query, call) {
        checkServiceTokenQuery(query)
        return core.list('/auth/servicetokens', ServiceToken, query, call)
      },
      iterate(query, options = {}) {
        checkServiceTokenQuery(query)
        return core.iterate('/auth/servicetokens', ServiceToken, query, options)
      },
      get: async (id, call) => core.json('GET', path`/auth/servicetokens/${id}`, ServiceToken, { call }),
      create: async (envelope, call) =>
        core.json('POST', '/auth/servicetokens', ServiceToken, {
          body: checkEnvelope('POST /auth/servicetokens', envelope),
          call,
        }),
      update: async (id, envelope, call) =>
        core.json('PATCH', path`/auth/servicetokens/${id}`, ServiceToken, {
          body: checkEnvelope('PATCH /auth/servicetokens/{serviceTokenId}', envelope),
          call,
        }),
    },
  }
}
