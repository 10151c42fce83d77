// One way to replace a small private file: a temporary file beside it (0600), flushed, then
// renamed over it, so that a crash leaves the old file or the new one, never half of either; the
// folder is flushed after the rename where the system allows it. A file reached through a
// symbolic link (profiles.json kept in a dotfiles repository) has its target replaced; the link
// stays. Temporary files of the same name left by a process that no longer runs (kill -9) are
// removed by the next write. The temporary name's random part comes from the Web Crypto global,
// so reading settings never loads node:crypto.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

/** A temporary file is stale once its process is gone and it has not changed for this long. */
const STALE_MS = 5_000
const MAX_LINKS = 40
const DISK_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EIO: 'an input/output error on the device',
  EFBIG: 'the file is larger than the file system allows',
}

/**
 * The disk refused the write (full, over quota, I/O error). Named WriteError like the output
 * module's class (config may not import it), so the CLI reports it the same way: one line, exit 1.
 */
export class FileWriteError extends Error {
  override name = 'WriteError'
  readonly code: string | undefined
  readonly target: string

  constructor(file: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code
    const words = typeof code === 'string' ? DISK_FAILURES[code] : undefined
    super(`Could not save ${file}: ${words} (${String(code)}); the previous version is kept`, { cause })
    this.code = typeof code === 'string' ? code : undefined
    this.target = file
  }
}

/** Writes `value` as indented JSON at `file` atomically, creating its folder 0700 if needed. */
export function writeJsonAtomic(file: string, value: unknown): void {
  const target = linkTarget(file)
  const dir = path.dirname(target)
  const name = path.basename(target)
  const temp = path.join(dir, `.${name}.${process.pid}.${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex')}.tmp`)
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    removeStaleTemps(dir, name)
    const fd = fs.openSync(temp, 'wx', 0o600)
    try {
      writeWhole(fd, `${JSON.stringify(value, null, 2)}\n`)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(temp, target)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    const code = (error as { code?: unknown } | null)?.code
    if (typeof code === 'string' && code in DISK_FAILURES) throw new FileWriteError(file, error)
    throw error
  }
  syncFolder(dir)
}

/**
 * writeJsonAtomic for many files at once (the operation records of the rows of a bulk run,
 * `cli/bulk/journal.ts`): each to a temporary file of its own (0600, made anew: never through a
 * link), all of them flushed side by side, then each renamed over its name, so that each file is
 * the old one or the new one, never half of either. Flushed side by side, the files share the
 * file system's commits (a flush of each, one after another, waited for a commit each, and every
 * other change to the folder waited with them). What waits for the disk (making a file, its
 * flush, a rename, which frees the old file's blocks) runs on the thread pool, so the event loop
 * goes on meanwhile. The folder is not flushed here: the caller flushes it once for all the names
 * it needs to survive a power cut (flushFolder). A name is replaced as it is, never followed
 * (these records are refused when they are links: `fs-check.ts`). Stale temporary files are not
 * swept here (reading a folder of many records on every write would cost more than the write):
 * the caller sweeps each folder once (removeStaleTempsIn). On failure, no temporary file is left;
 * the files renamed before it keep their new text.
 */
export async function replaceJsonFiles(entries: ReadonlyArray<{ file: string; value: unknown }>): Promise<void> {
  const slots = entries.map(({ file, value }) => ({
    file,
    temp: path.join(path.dirname(file), `.${path.basename(file)}.${tempSuffix()}.tmp`),
    text: `${JSON.stringify(value, null, 2)}\n`,
    fd: undefined as number | undefined,
    made: false,
    renamed: false,
  }))
  try {
    await allOf(
      slots.map(async (slot) => {
        slot.fd = await openNewPooled(slot.temp)
        slot.made = true
        writeWhole(slot.fd, slot.text)
      }),
    )
    await allOf(slots.map((slot) => pooled((done) => fs.fsync(slot.fd as number, done))))
    for (const slot of slots) {
      fs.closeSync(slot.fd as number)
      slot.fd = undefined
    }
    await allOf(
      slots.map(async (slot) => {
        await pooled((done) => fs.rename(slot.temp, slot.file, done))
        slot.renamed = true
      }),
    )
  } catch (error) {
    // The clean-up never hides why it failed (a folder made read-only refuses the unlink too).
    for (const slot of slots) {
      try {
        if (slot.fd !== undefined) fs.closeSync(slot.fd)
        if (slot.made && !slot.renamed) fs.unlinkSync(slot.temp)
      } catch {
        // Left for the next synchronous write of the same name to sweep (removeStaleTemps).
      }
    }
    const code = (error as { code?: unknown } | null)?.code
    if (typeof code === 'string' && code in DISK_FAILURES) throw new FileWriteError(entries[0]?.file ?? '', error)
    throw error
  }
}

/**
 * Writes all of `text`: write(2) may take part of it without an error (a disk almost full), and
 * the rest then either goes or fails (ENOSPC), so a file cut short is never renamed into place.
 */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at)
}

/** Waits for every task, then throws the first failure: nothing is left running behind a failure. */
async function allOf(tasks: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(tasks)).find((result) => result.status === 'rejected')
  if (failed) throw (failed as PromiseRejectedResult).reason
}

/** A call of node:fs's callback API (run on the thread pool) as a promise. */
function pooled<T = void>(call: (done: (error: NodeJS.ErrnoException | null, value?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value as T))))
}

/** Flushes a folder's names (after renames into it) on the thread pool; where a folder cannot be flushed (Windows), renames are still atomic. */
export async function flushFolder(dir: string): Promise<void> {
  let fd: number
  try {
    fd = fs.openSync(dir, 'r')
  } catch {
    return
  }
  try {
    await pooled((done) => fs.fsync(fd, done))
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR') throw error
  } finally {
    fs.closeSync(fd)
  }
}

/** A new private file (made on the thread pool: making a file can take long), its folder made (0700) when missing. */
async function openNewPooled(file: string): Promise<number> {
  try {
    return await pooled<number>((done) => fs.open(file, 'wx', 0o600, done))
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    return await pooled<number>((done) => fs.open(file, 'wx', 0o600, done))
  }
}

/**
 * `<pid>.<random hex, once a process><count>`: unique among this process's files and other
 * processes', in the form removeStaleTemps recognises; no random bytes drawn a file.
 */
let tempCount = 0
let tempPrefix: string | undefined
function tempSuffix(): string {
  tempPrefix ??= `${process.pid}.${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex')}`
  return `${tempPrefix}${(++tempCount).toString(36)}`
}

/** Where the symbolic links at `file` lead (the last name, existing or not); `file` itself otherwise. */
function linkTarget(file: string): string {
  let current = path.resolve(file)
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let stats: fs.Stats | undefined
    try {
      stats = fs.lstatSync(current, { throwIfNoEntry: false })
    } catch {
      return current
    }
    if (!stats?.isSymbolicLink()) return current
    current = path.resolve(path.dirname(current), fs.readlinkSync(current))
  }
  return current
}

function syncFolder(dir: string): void {
  let fd: number | undefined
  try {
    fd = fs.openSync(dir, 'r')
    fs.fsyncSync(fd)
  } catch {
    // A folder cannot be flushed here (Windows): the rename is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** Removes `.NAME.PID.*.tmp` of processes that no longer run, unchanged for STALE_MS. */
export function removeStaleTemps(dir: string, name: string, now = Date.now()): void {
  let entries: string[]
  try {
    entries = fs.readdirSync(dir)
  } catch {
    return
  }
  const prefix = `.${name}.`
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue
    const match = /^(\d+)\.[0-9a-z]+\.tmp$/.exec(entry.slice(prefix.length))
    if (!match || running(Number(match[1]))) continue
    const temp = path.join(dir, entry)
    try {
      if (now - fs.statSync(temp).mtimeMs >= STALE_MS) fs.rmSync(temp, { force: true })
    } catch {
      // Gone already.
    }
  }
}

/**
 * removeStaleTemps for every name of a folder at once, on the thread pool (the records of a bulk
 * run: `cli/bulk/journal.ts` sweeps each folder it writes in once a run). Resolves when done;
 * never fails (a temporary file it cannot remove is left for a later sweep).
 */
export async function removeStaleTempsIn(dir: string, now = Date.now()): Promise<void> {
  let entries: string[]
  try {
    entries = await fs.promises.readdir(dir)
  } catch {
    return
  }
  await Promise.all(
    entries.map(async (entry) => {
      const match = entry.startsWith('.') ? /\.(\d+)\.[0-9a-z]+\.tmp$/.exec(entry) : null
      if (!match || running(Number(match[1]))) return
      const temp = path.join(dir, entry)
      try {
        if (now - (await fs.promises.lstat(temp)).mtimeMs >= STALE_MS) await fs.promises.rm(temp, { force: true })
      } catch {
        // Gone already, or not ours to remove.
      }
    }),
  )
}

function running(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code !== 'ESRCH'
  }
}
