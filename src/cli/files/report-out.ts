// A settlement report's `--out` as parsed: a file, checked as every `--out` is, or one file per
// merchant of a fan-out, named by a pattern (`settlement-{merchantId}.csv`) or in a folder.
import { statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

import { UsageError } from '../errors/index.js'
import { outTarget } from './out-target.js'

/** The one name a per-merchant pattern may hold. */
export const MERCHANT_PLACEHOLDER = '{merchantId}'

/** Whether `--out` names one file per merchant: a pattern with {merchantId}, or a folder. */
export function isPerMerchantOut(input: string): boolean {
  // `{merchantid}` or `{merchant}` is a pattern meant too: refused by checkReportOut, not written as a name.
  if (/\{\w*\}/.test(input) || input.endsWith('/')) return true
  try {
    return statSync(input).isDirectory()
  } catch {
    return false
  }
}

/**
 * The `--out` value as parsed (flags/out.ts `reportOutFlag`): a file as every `--out` is checked,
 * or a per-merchant pattern or folder, whose folder must exist and be writable. Whether the
 * fan-out is there is judged later, by reportOutput().
 */
export function checkReportOut(input: string): string {
  if (!isPerMerchantOut(input)) {
    outTarget(input)
    return input
  }
  const braces = input.replaceAll(MERCHANT_PLACEHOLDER, '')
  if (braces.includes('{') || braces.includes('}')) {
    throw new UsageError(`--out ${input}: only ${MERCHANT_PLACEHOLDER} is replaced in a file name`, "For example --out 'settlement-{merchantId}.csv'")
  }
  if (input.includes(MERCHANT_PLACEHOLDER)) {
    if (dirname(input).includes(MERCHANT_PLACEHOLDER)) {
      throw new UsageError(`--out ${input}: ${MERCHANT_PLACEHOLDER} names a file, not a folder`, "For example --out 'reports/settlement-{merchantId}.csv'")
    }
    outTarget(join(dirname(input), basename(input).replaceAll(MERCHANT_PLACEHOLDER, 'mcht_x')))
    return input
  }
  let folder: ReturnType<typeof statSync> | undefined
  try {
    folder = statSync(input)
  } catch {
    throw new UsageError(`--out: the folder ${input} does not exist`, 'Create it first, or give a file name')
  }
  if (!folder.isDirectory()) throw new UsageError(`--out: ${input} is not a folder`)
  outTarget(join(input, 'settlement-mcht_x.csv'))
  return input
}
