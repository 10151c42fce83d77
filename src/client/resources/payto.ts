// PayTo: alias look-up and agreements.
import { z } from 'zod'
import { Agreement, AgreementSent, SendAgreement } from '../schemas/payto.js'
import { type CallOptions, type Core, type QueryInput, checkBody } from '../core.js'
import { InvalidInputError } from '../errors.js'

export interface PayToResource {
  /** `GET /payto/alias`: display name for an account alias; parameters and answer not shown. */
  alias(query: QueryInput, call?: CallOptions): Promise<unknown>
  /** `POST /payto/agreement`: sends the agreement request to the customer; keep the token. */
  sendAgreement(body: SendAgreement, call?: CallOptions): Promise<AgreementSent>
  /** `GET /payto/agreement?token=`: the agreement's status (`Active` once approved). */
  agreement(token: string, call?: CallOptions): Promise<Agreement>
}

export function payToResource(core: Core): PayToResource {
  return {
    alias: async (query, call) => core.json('GET', '/payto/alias', z.unknown(), { query, call }),
    sendAgreement: async (body, call) =>
      core.json('POST', '/payto/agreement', AgreementSent, { body: checkBody(SendAgreement, body, 'agreement request'), call }),
    async agreement(token, call) {
      if (typeof token !== 'string' || token.trim() === '') throw new InvalidInputError('An agreement token is required')
      return core.json('GET', '/payto/agreement', Agreement, { query: { token }, call })
    },
  }
}
