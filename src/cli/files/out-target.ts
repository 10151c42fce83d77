// What `--out FILE` names, found before anything is sent: stdout or stderr (by their /dev or
// /proc names), a FIFO or a device (written in place, never replaced), or a regular file, new or
// existing, reached through any symbolic links (the link's target is replaced, the link stays).
// A folder, a socket, a missing folder or one that cannot be written is a UsageError (exit 2).
import { accessSync, constants, lstatSync, readlinkSync, statSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'

import { UsageError } from '../errors/index.js'

export type OutTarget =
  /** stdout (1) or stderr (2), named /dev/stdout, /dev/fd/1, /proc/self/fd/1 …: written to that descriptor. */
  | { kind: 'descriptor'; path: string; fd: 1 | 2 }
  /** A FIFO (named pipe): opened for writing once a reader is there, written in place. */
  | { kind: 'fifo'; path: string }
  /** A character or block device, or another descriptor's name: opened and written in place. */
  | { kind: 'device'; path: string }
  /** A regular file, new or existing: `file` is where the links lead, replaced atomically. */
  | { kind: 'file'; path: string; file: string; existing: Stats | undefined }

/** The most symbolic links followed, as the kernel allows (ELOOP beyond). */
const MAX_LINKS = 40

const DESCRIPTOR_NAME = /^\/(?:dev\/(?:(stdout)|(stderr)|fd\/(\d+))|proc\/(?:self|\d+)\/fd\/(\d+))$/

/** 1 or 2 for stdout's and stderr's names, another number for another descriptor's, else undefined. */
function descriptorOf(path: string): number | undefined {
  const match = DESCRIPTOR_NAME.exec(path)
  if (!match) return undefined
  if (match[1]) return 1
  if (match[2]) return 2
  return Number(match[3] ?? match[4])
}

/** Classifies `input` (following links) without writing anything; throws UsageError for what cannot be written. */
export function outTarget(input: string, flag = '--out'): OutTarget {
  if (!input.trim()) throw new UsageError(`${flag} needs a file name`)
  let current = resolve(input)
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    const fd = descriptorOf(current)
    if (fd === 1 || fd === 2) return { kind: 'descriptor', path: input, fd }
    // Another descriptor's name (/dev/fd/3): the kernel knows what it is; write it in place.
    if (fd !== undefined) return special(input, current, statOf(input, current, flag), flag) ?? { kind: 'device', path: input }
    let link: Stats | undefined
    try {
      link = lstatSync(current, { throwIfNoEntry: false })
    } catch (error) {
      // A file where a folder should be: said as such by regularFile().
      if ((error as { code?: unknown }).code !== 'ENOTDIR') throw cannotReach(flag, input, error)
    }
    if (!link) return regularFile(input, current, undefined, flag)
    if (link.isSymbolicLink()) {
      try {
        current = resolve(dirname(current), readlinkSync(current))
      } catch (error) {
        throw cannotReach(flag, input, error)
      }
      continue
    }
    return special(input, current, link, flag) ?? regularFile(input, current, link, flag)
  }
  throw new UsageError(`${flag}: ${input} is a loop of symbolic links`)
}

/**
 * For a name payfac makes itself (one report per merchant in a folder): a regular file or
 * nothing, judged on the name itself. A symbolic link is not followed (it would lead the file
 * out of the folder, onto any file the user can write), and a FIFO, a device or a folder is not
 * written (a FIFO would hold the run until a reader came): each is a UsageError. What is there
 * is replaced by a rename over the name, which replaces a link or FIFO planted meanwhile itself.
 */
export function plainFileTarget(input: string, flag = '--out'): OutTarget {
  const file = resolve(input)
  let link: Stats | undefined
  try {
    link = lstatSync(file, { throwIfNoEntry: false })
  } catch (error) {
    throw cannotReach(flag, input, error)
  }
  if (link && !link.isFile()) {
    const what = link.isSymbolicLink()
      ? 'a symbolic link'
      : link.isFIFO()
        ? 'a FIFO'
        : link.isDirectory()
          ? 'a folder'
          : link.isSocket()
            ? 'a socket'
            : 'a device'
    throw new UsageError(`${flag}: ${input} is ${what}, and a report payfac names is written only as a regular file`, 'Remove it, or choose another --out')
  }
  return regularFile(input, file, link, flag)
}

function statOf(input: string, path: string, flag: string): Stats {
  try {
    return statSync(path)
  } catch (error) {
    throw cannotReach(flag, input, error)
  }
}

/** A folder, socket, FIFO or device; undefined for a regular file. */
function special(input: string, path: string, stats: Stats, flag: string): OutTarget | undefined {
  if (stats.isDirectory()) throw new UsageError(`${flag}: ${input} is a folder`, 'Give a file name inside it')
  if (stats.isSocket()) throw new UsageError(`${flag}: ${input} is a socket`, 'Give a file, a FIFO or a device')
  if (!stats.isFIFO() && !stats.isCharacterDevice() && !stats.isBlockDevice()) return undefined
  try {
    accessSync(path, constants.W_OK)
  } catch {
    throw new UsageError(`${flag}: ${input} is not writable`, 'Choose a file you can write to')
  }
  return { kind: stats.isFIFO() ? 'fifo' : 'device', path: input }
}

/** A regular file, existing or not: its folder must exist and be writable (the new file is made there). */
function regularFile(input: string, file: string, existing: Stats | undefined, flag: string): OutTarget {
  const folder = dirname(file)
  let folderStat: Stats
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
  // A file its owner made read-only is not replaced behind their back (as `> file` would refuse).
  if (existing) {
    try {
      accessSync(file, constants.W_OK)
    } catch {
      throw new UsageError(`${flag}: ${input} is read-only`, 'Make it writable, or choose another name')
    }
  }
  return { kind: 'file', path: input, file, existing }
}

function cannotReach(flag: string, input: string, error: unknown): UsageError {
  const code = (error as { code?: unknown }).code
  return new UsageError(`${flag}: cannot reach ${input}${typeof code === 'string' ? ` (${code})` : ''}`, 'Check the path')
}
