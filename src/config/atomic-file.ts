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
      fs.writeSync(fd, `${JSON.stringify(value, null, 2)}\n`)
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
 * writeJsonAtomic without blocking: the same temporary file, flush, rename and folder flush, each
 * awaited, so that many records written at once (the rows of a bulk run, `cli/bulk/row-run.ts`)
 * wait for the disk together instead of one after another. It leaves stale temporary files to the
 * next synchronous write of the same name, which sweeps them (reading a folder of many records on
 * every write would cost more than the write).
 */
export async function writeJsonAtomicAsync(file: string, value: unknown): Promise<void> {
  const target = linkTarget(file)
  const dir = path.dirname(target)
  const temp = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex')}.tmp`,
  )
  try {
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 })
    const handle = await fs.promises.open(temp, 'wx', 0o600)
    try {
      await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.promises.rename(temp, target)
  } catch (error) {
    await fs.promises.rm(temp, { force: true })
    const code = (error as { code?: unknown } | null)?.code
    if (typeof code === 'string' && code in DISK_FAILURES) throw new FileWriteError(file, error)
    throw error
  }
  let folder: fs.promises.FileHandle | undefined
  try {
    folder = await fs.promises.open(dir, 'r')
    await folder.sync()
  } catch {
    // A folder cannot be flushed here (Windows): the rename is still atomic.
  } finally {
    await folder?.close()
  }
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
