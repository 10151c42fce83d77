// Where `payfac settlement report` writes, decided from the flags before anything is sent, so that
// every combination is either honoured or refused (exit 2):
//
// - no --out: stdout (the report, or with --each-merchant/--merchants every merchant's entries as
//   rows with a merchantId column);
// - --out FILE: the report saved as the service sends it (CSV rewritten, JSON as it comes);
//   with the fan-out, every merchant's entries in that one file, with a merchantId column
//   (CSV, JSON Lines with --jsonl, else a JSON array);
// - --out 'NAME-{merchantId}.csv' or --out FOLDER with the fan-out: one file per merchant, each
//   the very report `--merchant-id <id> --out FILE` saves (byte for byte), FOLDER's files named
//   settlement-<merchantId>.csv (or .json).
//
// Each file is written atomically (files/out-file.ts) and said on stderr ("Saved N bytes to F").
import { statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

import { UsageError } from '../errors/index.js'
import { outTarget } from '../files/out-target.js'

/** The one name a per-merchant pattern may hold. */
export const MERCHANT_PLACEHOLDER = '{merchantId}'

export type ReportOutput =
  | { kind: 'stdout' }
  /** One report, as the service sends it. */
  | { kind: 'file'; path: string }
  /** The fan-out's rows (merchantId first), in one file. */
  | { kind: 'combined'; path: string }
  /** The fan-out: one report per merchant, at `pathOf(merchantId)`. */
  | { kind: 'each'; pathOf: (merchantId: string) => string }

export interface ReportOutputFlags {
  out?: string | undefined
  csv?: boolean | undefined
  json?: boolean | undefined
  jsonl?: boolean | undefined
  query?: string | undefined
  ids?: boolean | undefined
  columns?: string | undefined
  'each-merchant'?: boolean | undefined
  merchants?: string | undefined
}

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

/** Where the report goes, or a usage error for a combination that cannot be honoured. */
export function reportOutput(f: ReportOutputFlags): ReportOutput {
  const fanOut = Boolean(f['each-merchant']) || f.merchants !== undefined
  const format = f.csv ? 'csv' : 'json'
  if (f.out === undefined) {
    if (!fanOut && f.csv && f.columns) {
      throw new UsageError(
        '--columns picks the columns payfac lays out; the CSV report keeps the service columns, checked and written again',
        'Leave out --columns, or use --json and pick fields with --query',
      )
    }
    return { kind: 'stdout' }
  }
  const perMerchant = isPerMerchantOut(f.out)
  for (const [flag, given] of [
    ['--query', f.query !== undefined],
    ['--ids', f.ids],
  ] as const) {
    if (given) {
      throw new UsageError(
        `${flag} picks from what is printed, and --out saves the report to a file`,
        `Leave out ${flag}, or leave out --out and redirect stdout (> file)`,
      )
    }
  }
  if (f.columns && !(fanOut && !perMerchant && f.csv)) {
    throw new UsageError(
      '--columns picks the columns payfac lays out; a saved report keeps the service columns',
      fanOut ? 'Give --csv to save the merchants rows with the columns you pick, or leave out --columns' : 'Leave out --columns',
    )
  }
  if (perMerchant && !fanOut && !/\{\w*\}/.test(f.out)) {
    throw new UsageError(
      `--out: ${f.out} is a folder, which takes one report per merchant only with --each-merchant or --merchants`,
      'Give a file name inside it, or add --each-merchant (or --merchants mcht_…)',
    )
  }
  if (perMerchant && !fanOut) {
    throw new UsageError(
      `--out ${f.out} names one file per merchant, and only --each-merchant or --merchants runs once per merchant`,
      'Add --each-merchant (or --merchants mcht_…), or give --out one file name',
    )
  }
  if (!fanOut) return { kind: 'file', path: f.out }
  if (!perMerchant) return { kind: 'combined', path: f.out }
  const out = f.out
  const pathOf = out.includes(MERCHANT_PLACEHOLDER)
    ? (merchantId: string) => out.replaceAll(MERCHANT_PLACEHOLDER, fileSafe(merchantId))
    : (merchantId: string) => join(out, `settlement-${fileSafe(merchantId)}.${format}`)
  return { kind: 'each', pathOf: distinct(pathOf) }
}

/** A merchant id in a file name: only what ids are made of (the service's text never names a path). */
function fileSafe(merchantId: string): string {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(merchantId)) {
    throw new Error(`its id ${JSON.stringify(merchantId.slice(0, 40))} cannot name a file (only letters, digits, _ and -)`)
  }
  return merchantId
}

/** Refuses a second merchant whose file would be the first's on a file system that ignores case. */
function distinct(pathOf: (merchantId: string) => string): (merchantId: string) => string {
  const taken = new Map<string, string>()
  return (merchantId) => {
    const path = pathOf(merchantId)
    const other = taken.get(path.toLowerCase())
    if (other !== undefined && other !== merchantId) throw new Error(`its file ${path} would be the file of ${other} on a file system that ignores case`)
    taken.set(path.toLowerCase(), merchantId)
    return path
  }
}
