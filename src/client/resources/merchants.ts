// Merchants: onboarding, balances, files, beneficial owners, industries, wallet-pay domains.
import { Blob } from 'node:buffer'
import { FormData } from 'undici'
import { z } from 'zod'
import { InvalidInputError } from '../errors.js'
import type { Page } from '../pagination.js'
import { BeneficialOwner, CreateMerchant, Industries, Merchant, MerchantBalances, MerchantFile, WalletPayDomains } from '../schemas/merchants.js'
import { AnyObject } from '../schemas/common.js'
import {
  type CallOptions,
  type Core,
  type EnvelopeInput,
  type IterateCallOptions,
  type ListQuery,
  checkBody,
  checkEnvelope,
  parseAnswer,
  path,
} from '../core.js'
import { ResponseFormatError } from '../errors.js'

export type MerchantActionEnvelope = EnvelopeInput<'PATCH /merchants/{merchantId}'>

/** A document scan for the onboarding profile: JPEG, PNG or PDF, at most 10 MB. */
export interface MerchantFileUpload {
  content: Uint8Array
  fileName: string
  contentType: string
  /** Further form fields sent beside the file (their names are not shown by the contract). */
  fields?: Record<string, string> | undefined
}

export const MERCHANT_FILE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'application/pdf']
export const MERCHANT_FILE_MAX_BYTES = 10 * 1024 * 1024

export interface MerchantsResource {
  list(query?: ListQuery, call?: CallOptions): Promise<Page<Merchant>>
  iterate(query?: ListQuery, options?: IterateCallOptions): AsyncIterable<Merchant>
  /** `POST /merchants`: a sub-merchant inside a marketplace; body not shown. */
  create(body: Record<string, unknown>, call?: CallOptions): Promise<Merchant>
  get(merchantId: string, call?: CallOptions): Promise<Merchant>
  /** `PATCH /merchants/{id}` with `AddMerchantBankAccount`, `SetMerchantPrimaryBankAccount` or `UpdateMerchantBusinessProfile`. */
  update(merchantId: string, envelope: MerchantActionEnvelope, call?: CallOptions): Promise<Merchant>
  balances(merchantId: string, call?: CallOptions): Promise<MerchantBalances>
  /** `POST /merchants/{id}/files` as multipart/form-data, the file in the part named `file`. */
  uploadFile(merchantId: string, file: MerchantFileUpload, call?: CallOptions): Promise<MerchantFile>
  getFile(merchantId: string, fileId: string, call?: CallOptions): Promise<MerchantFile>
  walletpay(merchantId: string, call?: CallOptions): Promise<WalletPayDomains>
  owners: {
    list(merchantId: string, call?: CallOptions): Promise<BeneficialOwner[]>
    create(merchantId: string, body: Record<string, unknown>, call?: CallOptions): Promise<BeneficialOwner>
    get(merchantId: string, ownerId: string, call?: CallOptions): Promise<BeneficialOwner>
    /** `PUT`: overwrites the owner. */
    replace(merchantId: string, ownerId: string, body: Record<string, unknown>, call?: CallOptions): Promise<BeneficialOwner>
    /** Answer not shown: the parsed JSON, or undefined when empty. */
    delete(merchantId: string, ownerId: string, call?: CallOptions): Promise<unknown>
  }
  industries(call?: CallOptions): Promise<Industries>
}

/** Refuses a file the service would refuse: wrong type, empty, or over 10 MB. */
export function checkMerchantFile(file: MerchantFileUpload): void {
  const type = file.contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (!MERCHANT_FILE_TYPES.includes(type)) {
    throw new InvalidInputError(`Merchant files must be JPEG, PNG or PDF (got ${file.contentType || 'no type'})`)
  }
  if (!(file.content instanceof Uint8Array) || file.content.byteLength === 0) {
    throw new InvalidInputError('The file is empty')
  }
  if (file.content.byteLength > MERCHANT_FILE_MAX_BYTES) {
    throw new InvalidInputError(`Merchant files may be at most 10 MB (got ${(file.content.byteLength / 1048576).toFixed(1)} MB)`)
  }
  if (!file.fileName.trim()) throw new InvalidInputError('The file needs a name')
}

export function merchantsResource(core: Core): MerchantsResource {
  return {
    list: async (query = {}, call) => core.list('/merchants', Merchant, query, call),
    iterate: (query = {}, options = {}) => core.iterate('/merchants', Merchant, query, options),
    create: async (body, call) => core.json('POST', '/merchants', Merchant, { body: checkBody(CreateMerchant, body, 'merchant'), call }),
    get: async (id, call) => core.json('GET', path`/merchants/${id}`, Merchant, { call }),
    update: async (id, envelope, call) =>
      core.json('PATCH', path`/merchants/${id}`, Merchant, { body: checkEnvelope('PATCH /merchants/{merchantId}', envelope), call }),
    balances: async (id, call) => core.json('GET', path`/merchants/${id}/balances`, MerchantBalances, { call }),

    async uploadFile(merchantId, file, call) {
      checkMerchantFile(file)
      const form = new FormData()
      for (const [name, value] of Object.entries(file.fields ?? {})) form.append(name, value)
      const type = file.contentType.split(';')[0]?.trim().toLowerCase() ?? file.contentType
      form.append('file', new Blob([file.content], { type }), file.fileName)
      return core.json('POST', path`/merchants/${merchantId}/files`, MerchantFile, { body: form, call })
    },

    getFile: async (merchantId, fileId, call) => core.json('GET', path`/merchants/${merchantId}/files/${fileId}`, MerchantFile, { call }),
    walletpay: async (id, call) => core.json('GET', path`/merchants/${id}/walletpay`, WalletPayDomains, { call }),
    owners: {
      async list(merchantId, call) {
        const p = path`/merchants/${merchantId}/owners`
        const response = await core.send('GET', p, { call })
        const at = { method: 'GET', path: p, status: response.status }
        if (!Array.isArray(response.body)) {
          throw new ResponseFormatError({ ...at, body: response.body, reason: 'expected a JSON array of owners' })
        }
        return response.body.map((owner: unknown, i: number) => parseAnswer(BeneficialOwner, owner, at, `[${i}]`))
      },
      create: async (merchantId, body, call) =>
        core.json('POST', path`/merchants/${merchantId}/owners`, BeneficialOwner, {
          body: checkBody(AnyObject, body, 'beneficial owner'),
          call,
        }),
      get: async (merchantId, ownerId, call) => core.json('GET', path`/merchants/${merchantId}/owners/${ownerId}`, BeneficialOwner, { call }),
      replace: async (merchantId, ownerId, body, call) =>
        core.json('PUT', path`/merchants/${merchantId}/owners/${ownerId}`, BeneficialOwner, {
          body: checkBody(AnyObject, body, 'beneficial owner'),
          call,
        }),
      delete: async (merchantId, ownerId, call) => core.json('DELETE', path`/merchants/${merchantId}/owners/${ownerId}`, z.unknown(), { call }),
    },
    industries: async (call) => core.json('GET', '/merchants/industries', Industries, { call }),
  }
}
