// Flags shared by merchant commands: the merchant fields (create, update-profile), the beneficial
// owner fields (owners create, replace), and the merchant file argument: a path to a JPEG, PNG
// or PDF of at most 10 MB, checked by its size and its first bytes when oclif parses it (exit 2,
// nothing sent), then read whole for the upload.
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { constants } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import { basename } from 'node:path'

import type { MerchantFileUpload } from '../../client/index.js'
import { UsageError } from '../errors/index.js'
import { metadataFlag } from './index.js'
import { checkIdText } from '../validate/index.js'
import { MERCHANT_FILE_LIMIT_BYTES, OWNER_ROLES, checkMerchantFile } from '../requests/merchants.js'

/** The bank account of `--bsb --account-number --account-name`. */
export function bankAccountFlags() {
  return {
    bsb: Flags.string({ description: 'BSB of the bank account, six digits (062-000).' }),
    'account-number': Flags.string({ description: 'Account number, 5 to 9 digits.' }),
    'account-name': Flags.string({ description: 'Name on the bank account.' }),
  }
}

/** Merchant fields (the emulator's names in brackets). */
export function merchantFieldFlags() {
  return {
    name: Flags.string({ description: "The merchant's business name (name)." }),
    industry: Flags.string({ description: 'Industry code or name, from `payfac merchants industries` (industry).' }),
    email: Flags.string({ description: 'Contact e-mail address (emailAddress).' }),
    phone: Flags.string({ description: 'Contact phone number, E.164 (phoneNumber).' }),
    'business-number': Flags.string({ description: 'ABN (11 digits) or ACN (9 digits), check digits verified (businessNumber).' }),
    address: Flags.string({ description: 'Business address "<line1>|<city>|<state>|<postalCode>|<country>" (address).' }),
    website: Flags.string({ description: 'Website, http(s) (websiteUrl).' }),
    'supports-b2b': Flags.boolean({ description: 'Serves B2B customers in the checkout (supportsB2B); --no-supports-b2b to clear.', allowNo: true }),
    'wallet-domain': Flags.string({ description: 'A domain for mobile-wallet payments (walletPayDomains; repeatable).', multiple: true }),
    metadata: metadataFlag('Merchant metadata as key=value (repeatable).'),
  }
}

/** Beneficial owner fields (the emulator's names in brackets). */
export function ownerFieldFlags() {
  return {
    'given-name': Flags.string({ description: 'Given name (givenName).' }),
    'middle-name': Flags.string({ description: 'Middle name (middleName).' }),
    'family-name': Flags.string({ description: 'Family name (familyName).' }),
    'date-of-birth': Flags.string({ description: 'Date of birth, YYYY-MM-DD (dateOfBirth).' }),
    email: Flags.string({ description: 'E-mail address (emailAddress).' }),
    phone: Flags.string({ description: 'Phone number, E.164 (phoneNumber).' }),
    role: Flags.string({ description: 'Role (role).', options: [...OWNER_ROLES] }),
    ownership: Flags.string({ description: 'Share of ownership in percent, 0 to 100 (ownershipPercentage).' }),
    address: Flags.string({ description: 'Address "<line1>|<city>|<state>|<postalCode>|<country>" (address).' }),
    data: Flags.string({ description: 'Owner fields as JSON: text, @file, or - for stdin; flags override them.' }),
  }
}

/**
 * The regular file at `path`, opened without blocking (a FIFO swapped in opens at once, and is
 * refused), with its size; anything else is exit 2.
 */
async function openFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    throw new UsageError(`Cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 'Check the path of the file')
  }
  const info = await handle.stat()
  if (!info.isFile()) {
    await handle.close()
    throw new UsageError(`${path} is not a file`)
  }
  return { handle, size: info.size }
}

async function inspect(path: string): Promise<{ size: number; head: Uint8Array }> {
  const { handle, size } = await openFile(path)
  try {
    const head = new Uint8Array(8)
    const { bytesRead } = await handle.read(head, 0, 8, 0)
    return { size, head: head.subarray(0, bytesRead) }
  } finally {
    await handle.close()
  }
}

/** A required path argument to a merchant file, checked before anything is sent. */
export function merchantFileArg(description = 'Path of the scan: a JPEG, PNG or PDF file of at most 10 MB.') {
  return Args.string({
    description,
    required: true,
    parse: async (path) => {
      const { size, head } = await inspect(path)
      checkMerchantFile(path, size, head)
      return path
    },
  })
}

/** Reads a merchant file whole, checking it again (it may have changed since it was parsed). */
export async function readMerchantFile(path: string, fields?: Record<string, string>): Promise<MerchantFileUpload> {
  const { handle } = await openFile(path)
  let content: Uint8Array
  try {
    // At most one byte past the limit: a file grown past it since it was parsed is refused by the check below, not read whole.
    const buffer = new Uint8Array(MERCHANT_FILE_LIMIT_BYTES + 1)
    let filled = 0
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0 || (filled += bytesRead) === buffer.length) break
    }
    content = buffer.slice(0, filled)
  } finally {
    await handle.close()
  }
  const contentType = checkMerchantFile(path, content.byteLength, content.subarray(0, 8))
  return { content, fileName: basename(path), contentType, fields }
}

/** A beneficial owner's id (the contract names no prefix for it). */
export function ownerIdArg() {
  return Args.string({ description: 'Beneficial owner id.', required: true, parse: async (input) => checkIdText(input, 'The owner id') })
}
