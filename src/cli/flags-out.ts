// `--out FILE`: checked when parsed, so that a file that cannot be written is refused (exit 2)
// before anything is fetched: the folder must exist and be writable, and FILE must not be a folder.
import { accessSync, constants, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

import { Flags } from '@oclif/core'

import { UsageError } from './errors.js'

export function checkOutPath(input: string, flag = '--out'): string {
  if (!input.trim()) throw new UsageError(`${flag} needs a file name`)
  const folder = dirname(resolve(input))
  let folderStat
  try {
    folderStat = statSync(folder)
  } catch {
    throw new UsageError(`${flag}: the folder ${folder} does not exist`, 'Create it first, or choose another path')
  }
  if (!folderStat.isDirectory()) throw new UsageError(`${flag}: ${folder} is not a folder`)
  try {
    accessSync(folder, constants.W_OK)
  } catch {
    throw new UsageError(`${flag}: the folder ${folder} is not writable`, 'Choose a folder you can write to')
  }
  const target = statSync(input, { throwIfNoEntry: false })
  if (target?.isDirectory()) throw new UsageError(`${flag}: ${input} is a folder`, 'Give a file name inside it')
  return input
}

/** `--out FILE` (short `-o`), written atomically by saveStream(). */
export function outFlag(description: string) {
  return Flags.string({ char: 'o', description, parse: async (input) => checkOutPath(input) })
}
