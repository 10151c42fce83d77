// The journal fails closed. A record payfac reads before it moves money (an operation record, a
// run of `payto pay`, the key-to-merchant cache, the journal's account key) must be a regular
// file owned by the current user that no one else can write, in folders of the same kind;
// anything else (a symlink, dangling or not, a FIFO, a device, a folder, another owner, a group-
// or world-writable file) is damaged: a ConfigError (exit 3), nothing sent.
//
// payfac never blocks on such a file: lstat first, then open with O_NOFOLLOW | O_NONBLOCK (a FIFO
// opens at once instead of waiting for a writer), then fstat the open file and check again (the
// path may have been replaced between the two looks). Pure node:fs: no client.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

import { ConfigError } from './errors.js'

const WINDOWS = process.platform === 'win32'

/** What the damaged message adds: how to find out on the service what the operation did. */
export interface DamagedHint {
  /** `payfac transactions get tran_…`: the command that shows whether it happened. */
  check?: string | undefined
  /** What kind of record it is, in words ("operation record", "journal of payto pay"). */
  what: string
}

function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`
}

/** Why a file's status makes it unfit to be trusted, or undefined when it is fit. */
export function fileProblem(stat: fs.Stats): string | undefined {
  if (stat.isSymbolicLink()) return 'it is a symbolic link, not a file payfac wrote'
  if (stat.isFIFO()) return 'it is a FIFO (named pipe), not a file payfac wrote'
  if (stat.isDirectory()) return 'it is a folder, not a file'
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'it is a device, not a file payfac wrote'
  if (stat.isSocket()) return 'it is a socket, not a file payfac wrote'
  if (!stat.isFile()) return 'it is not a regular file'
  if (WINDOWS) return undefined
  const me = uid()
  if (me !== undefined && stat.uid !== me) return `it belongs to user id ${stat.uid}, not to you (${me})`
  if (stat.mode & 0o022) return `others can write it (mode ${octal(stat.mode)})`
  return undefined
}

/** Why a folder of the journal is unfit, or undefined. A symlink is refused: payfac makes these folders itself. */
export function folderProblem(stat: fs.Stats): string | undefined {
  if (stat.isSymbolicLink()) return 'it is a symbolic link, not a folder payfac made'
  if (!stat.isDirectory()) return 'it is not a folder'
  if (WINDOWS) return undefined
  const me = uid()
  if (me !== undefined && stat.uid !== me) return `it belongs to user id ${stat.uid}, not to you (${me})`
  if (stat.mode & 0o022) return `others can write in it (mode ${octal(stat.mode)})`
  return undefined
}

function damaged(file: string, problem: string, hint: DamagedHint): ConfigError {
  const look = hint.check
    ? `Check on the service what the operation did with: ${hint.check}.`
    : 'Check on the service what was done (the list commands, such as `payfac orders list` or `payfac transactions list`).'
  return new ConfigError(`The ${hint.what} ${file} is damaged: ${problem}. Nothing was sent; it has been left as it is.`, {
    reason: 'damaged-store',
    hint: `${look} payfac trusts only a regular file of yours that no one else can write; it will not send while this one is there.`,
  })
}

/**
 * The text of `file`, or undefined when there is none. Anything but a regular, private file of the
 * current user is a ConfigError (damaged-store); never blocks (a FIFO is refused, not opened for reading).
 */
export function readPrivateFile(file: string, hint: DamagedHint): string | undefined {
  let before: fs.Stats | undefined
  try {
    // No file is the usual answer (a first run): told without an exception.
    before = fs.lstatSync(file, { throwIfNoEntry: false })
  } catch (error) {
    throw unreadable(file, (error as NodeJS.ErrnoException).code ?? String(error), hint)
  }
  if (before === undefined) return undefined
  const early = fileProblem(before)
  if (early) throw damaged(file, early, hint)
  let fd: number
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP') throw damaged(file, 'it is a symbolic link, not a file payfac wrote', hint)
    // Removed between the two looks: a rename by another payfac is atomic, so this is unusual; refuse.
    throw unreadable(file, code ?? String(error), hint)
  }
  try {
    const opened = fs.fstatSync(fd)
    // What was opened is judged again: the path may have been replaced between the two looks (a
    // rename by another payfac is fine; anything else is refused the same way).
    const late = fileProblem(opened)
    if (late) throw damaged(file, late, hint)
    return fs.readFileSync(fd, 'utf8')
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * readPrivateFile on the thread pool, by the same rules, for a file looked up while other files of
 * its folder are being made (the rows of a bulk run): a name not yet known to the system waits for
 * the folder, and the event loop goes on meanwhile.
 */
export async function readPrivateFileAsync(file: string, hint: DamagedHint): Promise<string | undefined> {
  const call = <T>(run: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void) =>
    new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))))
  let before: fs.Stats
  try {
    before = await call<fs.Stats>((done) => fs.lstat(file, done))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    throw unreadable(file, code ?? String(error), hint)
  }
  const early = fileProblem(before)
  if (early) throw damaged(file, early, hint)
  let fd: number
  try {
    fd = await call<number>((done) => fs.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0), done))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP') throw damaged(file, 'it is a symbolic link, not a file payfac wrote', hint)
    throw unreadable(file, code ?? String(error), hint)
  }
  try {
    const late = fileProblem(fs.fstatSync(fd))
    if (late) throw damaged(file, late, hint)
    return fs.readFileSync(fd, 'utf8')
  } finally {
    fs.closeSync(fd)
  }
}

function unreadable(file: string, code: string, hint: DamagedHint): ConfigError {
  return new ConfigError(`Cannot read the ${hint.what} ${file}: ${code}. Nothing was sent.`, {
    reason: 'damaged-store',
    hint: 'Check the permissions of the file and its folder (yours, 0600 in 0700 folders).',
  })
}

/**
 * Checks each folder from `root` (exclusive) down to `dir` (inclusive) that exists: a folder of
 * the current user that no one else can write, not a symlink. `root` itself (the config folder)
 * is checked the same way, following a symlink (a config folder may be linked elsewhere).
 */
export function checkPrivateFolders(root: string, dir: string, what: string): void {
  const problems: string[] = []
  // Something that is not a folder where one should be (a file, a device): nothing below it can be made.
  let notFolder: string | undefined
  const rootStat = statOrUndefined(root, fs.statSync)
  if (rootStat) {
    const p = folderProblem(rootStat)
    if (p) problems.push(`${root}: ${p}`)
    if (!rootStat.isDirectory()) notFolder = root
  }
  const rel = path.relative(root, dir)
  if (notFolder === undefined && !rel.startsWith('..') && !path.isAbsolute(rel) && rel !== '') {
    let at = root
    for (const part of rel.split(path.sep)) {
      at = path.join(at, part)
      const stat = statOrUndefined(at, fs.lstatSync)
      if (!stat) break
      const p = folderProblem(stat)
      if (p) problems.push(`${at}: ${p}`)
      if (!stat.isDirectory()) {
        notFolder = at
        break
      }
    }
  }
  if (problems.length === 0) return
  throw new ConfigError(`The ${what} folder cannot be trusted: ${problems.join('; ')}. Nothing was sent.`, {
    reason: 'damaged-store',
    hint:
      notFolder !== undefined
        ? `${notFolder} should be a folder payfac makes: move it aside (mv ${notFolder} ${notFolder}.aside) after checking what it is, or set PAYFAC_CONFIG_DIR to another folder.`
        : 'Make the folders yours and private (chown to your user, then chmod 700); payfac will not read or write records others can change.',
  })
}

/** The status of `p`, or undefined when nothing is there (or a part of its path is not a folder: reported by the caller at that part). */
function statOrUndefined(p: string, how: (p: string) => fs.Stats): fs.Stats | undefined {
  try {
    return how(p)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw error
  }
}

/** What readPrivateJson gives for a file whose text is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON')

/**
 * The JSON value in `file`, read by readPrivateFile's rules: undefined when there is no file,
 * NOT_JSON when its text does not parse. The caller checks the value's shape.
 */
export function readPrivateJson(file: string, hint: DamagedHint): unknown {
  const text = readPrivateFile(file, hint)
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return NOT_JSON
  }
}
