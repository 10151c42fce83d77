// `--out FILE`: checked when parsed, so that a name that cannot be written is refused (exit 2)
// before anything is fetched (files/out-target.ts): a folder or a socket, a missing or read-only
// folder, a read-only file. A FIFO, a device or /dev/stdout is accepted and written in place.
import * as Flags from '@oclif/core/flags'

import { UsageError } from '../errors/index.js'
import { outTarget } from '../files/out-target.js'
import { checkReportOut } from '../files/report-out.js'

export function checkOutPath(input: string, flag = '--out'): string {
  outTarget(input, flag)
  return input
}

/**
 * `--out FILE` (short `-o`), written by saveStream() (out-file.ts): a file is replaced
 * atomically, a FIFO or device written in place.
 */
export function outFlag(description: string) {
  return Flags.string({ char: 'o', description, parse: async (input) => checkOutPath(notAFormat(input)) })
}

/**
 * `-o json` on a command whose `-o` is `--out` is the aws/kubectl habit, not a file name: refused,
 * naming --output (a file of that name is still written as `./json`).
 */
function notAFormat(input: string): string {
  if (!['json', 'csv', 'table', 'jsonl'].includes(input)) return input
  throw new UsageError(
    `-o is --out here, a file to write, and "${input}" looks like a format`,
    `For the format, give --output ${input}; for a file of that name, give ./${input}`,
  )
}

/**
 * `--out` of `settlement report`: a file as above, or, for the marketplace fan-out, a name
 * pattern with {merchantId} or a folder (one file per merchant; range/report-output.ts judges the
 * combination with the other flags before anything is sent).
 */
export function reportOutFlag(description: string) {
  return Flags.string({ char: 'o', description, parse: async (input) => checkReportOut(notAFormat(input)) })
}
