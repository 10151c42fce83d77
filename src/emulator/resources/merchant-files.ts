// Onboarding files of a merchant (/merchants/{merchantId}/files): JPEG, PNG or PDF scans of at
// most 10 MB, sent as multipart/form-data. The bytes are not kept: only their size and SHA-256.
import { createHash } from 'node:crypto'
import type { MerchantFileRecord } from '../account-records.js'
import { badRequest, notFound, unprocessable } from '../api-error.js'
import { PRIVATE } from '../auth.js'
import { timestamp } from '../clock.js'
import { multipartBoundary, parseMultipart } from '../multipart.js'
import { route, type HandlerContext } from '../route.js'
import { lookup, type MerchantRecord } from '../store.js'
import { visibleMerchant } from './merchants.js'

export const MERCHANT_FILE_MAX_BYTES = 10 * 1024 * 1024

/** The file type from its first bytes (JPEG, PNG or PDF), or undefined. */
export function sniffFileType(content: Buffer): MerchantFileRecord['contentType'] | undefined {
  if (content.length >= 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'image/jpeg'
  if (content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (content.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf'
  return undefined
}

function fileView(file: MerchantFileRecord) {
  return { ...file }
}

function uploadFile(ctx: HandlerContext, merchant: MerchantRecord, contentType: string | undefined, raw: Buffer) {
  const boundary = multipartBoundary(contentType)
  if (boundary === undefined) {
    throw badRequest('multipart_required', 'Send the file as multipart/form-data, in a part named "file"')
  }
  const parts = parseMultipart(raw, boundary)
  const files = parts.filter((p) => p.name === 'file')
  if (files.length === 0) throw badRequest('file_required', 'The form has no part named "file"')
  if (files.length > 1) throw badRequest('too_many_files', 'Send one file per request (one part named "file")')
  const part = files[0] as (typeof files)[number]
  if (part.content.length === 0) throw unprocessable('empty_file', 'The file is empty')
  if (part.content.length > MERCHANT_FILE_MAX_BYTES) {
    throw unprocessable('file_too_large', `Merchant files may be at most 10 MB (${MERCHANT_FILE_MAX_BYTES} bytes); this one has ${part.content.length}`)
  }
  const detected = sniffFileType(part.content)
  if (detected === undefined) {
    throw unprocessable('unsupported_file_type', 'Merchant files must be JPEG, PNG or PDF; the content of this file is none of them')
  }
  const fields: Record<string, string> = {}
  for (const p of parts) if (p.name !== 'file' && p.fileName === null) fields[p.name] = p.content.toString('utf8')
  const { purpose, ...otherFields } = fields
  const fileName = (part.fileName ?? '').split(/[\\/]/).pop()?.trim() || 'upload'
  const record: MerchantFileRecord = {
    fileId: ctx.ids.next('file'),
    merchantId: merchant.merchantId,
    fileName,
    contentType: detected,
    declaredContentType: part.contentType,
    size: part.content.length,
    sha256: createHash('sha256').update(part.content).digest('hex'),
    purpose: purpose ?? null,
    fields: otherFields,
    createdAt: timestamp(ctx.clock.now()),
  }
  ctx.store.merchantFiles.set(record.fileId, record)
  return fileView(record)
}

const merchantIdOf = (req: { params: Record<string, string> }) => req.params.merchantId as string

export const routes = [
  route({
    method: 'POST',
    path: '/merchants/{merchantId}/files',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const merchant = visibleMerchant(ctx, merchantIdOf(req))
      return uploadFile(ctx, merchant, req.headers['content-type'], req.rawBody ?? Buffer.alloc(0))
    },
  }),
  route({
    method: 'GET',
    path: '/merchants/{merchantId}/files/{fileId}',
    allow: PRIVATE,
    handle: (ctx, req) => {
      const merchant = visibleMerchant(ctx, merchantIdOf(req))
      const id = req.params.fileId as string
      const file = lookup(ctx.store.merchantFiles, id)
      if (!file || file.merchantId !== merchant.merchantId) throw notFound(`File of merchant ${merchant.merchantId}`, id)
      return fileView(file)
    },
  }),
]
