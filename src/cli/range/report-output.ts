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
import { join } from 'node:path'

import { UsageError } from '../errors/index.js'
import { MERCHANT_PLACEHOLDER, isPerMerchantOut } from '../files/report-out.js'

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
