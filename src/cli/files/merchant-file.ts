// Merchant files (onboarding scans) as the service takes them: JPEG, PNG or PDF by content, at
// most 10 MB, not empty; checked before anything is sent.
import { UsageError } from '../errors/index.js'

export const MERCHANT_FILE_LIMIT_BYTES = 10 * 1024 * 1024

/** The type of a file from its first bytes: JPEG, PNG or PDF, or undefined for anything else. */
export function sniffMerchantFileType(head: Uint8Array): 'image/jpeg' | 'image/png' | 'application/pdf' | undefined {
  const starts = (bytes: number[]) => bytes.every((b, i) => head[i] === b)
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'
  return undefined
}

/** Refuses a file the service would refuse: empty, over 10 MB, or not JPEG, PNG or PDF by content. */
export function checkMerchantFile(path: string, size: number, head: Uint8Array): 'image/jpeg' | 'image/png' | 'application/pdf' {
  if (size === 0) throw new UsageError(`${path} is empty`)
  if (size > MERCHANT_FILE_LIMIT_BYTES) {
    throw new UsageError(
      `${path} is ${(size / 1048576).toFixed(1)} MB; merchant files may be at most 10 MB`,
      'Scan at a lower resolution, or split the document',
    )
  }
  const type = sniffMerchantFileType(head)
  if (!type) throw new UsageError(`${path} is not a JPEG, PNG or PDF file (checked by its content, not its name)`, 'Convert the scan to PDF, PNG or JPEG')
  return type
}
