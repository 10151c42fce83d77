// `--out FILE`: checked when parsed, so that a name that cannot be written is refused (exit 2)
// before anything is fetched (files/out-target.ts): a folder or a socket, a missing or read-only
// folder, a read-only file. A FIFO, a device or /dev/stdout is accepted and written in place.
import * as Flags from '@oclif/core/flags'

import { outTarget } from '../files/out-target.js'

export function checkOutPath(input: string, flag = '--out'): string {
  outTarget(input, flag)
  return input
}

/**
 * `--out FILE` (short `-o`), written by saveStream() (out-file.ts): a file is replaced
 * atomically, a FIFO or device written in place.
 */
export function outFlag(description: string) {
  return Flags.string({ char: 'o', description, parse: async (input) => checkOutPath(input) })
}
