// The lock that serialises changes to the profile store, and the permission check of the store.
//
// The lock is a file created with O_EXCL (`wx`), holding the owner's pid and the time it was
// taken. A process that finds it waits (a few milliseconds at a time, synchronously: the store's
// methods are synchronous) and tries again. A lock whose owner is no longer running, or that is
// older than LOCK_STALE_MS, was left by a process that died (SIGKILL, a crash) and is taken
// over; a lock still held after LOCK_WAIT_MS is reported instead of waited on for ever.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { ConfigError } from './errors.js'

/** A lock older than this is stale whoever holds it: a change of the store takes milliseconds. */
export const LOCK_STALE_MS = 10_000
/** How long a change waits for the lock before giving up. */
export const LOCK_WAIT_MS = 15_000

const pause = new Int32Array(new SharedArrayBuffer(4))
function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms)
}

interface LockOwner {
  pid: number
  at: number
}

function readOwner(lock: string): LockOwner | undefined {
  try {
    const [pid, at] = fs.readFileSync(lock, 'utf8').trim().split(/\s+/).map(Number)
    return Number.isInteger(pid) && Number.isFinite(at) ? { pid: pid as number, at: at as number } : undefined
  } catch {
    return undefined
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** True when the lock was left behind: its owner is gone, it is too old, or it cannot be read. */
function isStale(lock: string, now: number): boolean {
  const owner = readOwner(lock)
  if (!owner) {
    // Being written right now, or garbage: judged by its age.
    const stat = fs.statSync(lock, { throwIfNoEntry: false })
    return stat !== undefined && now - stat.mtimeMs > LOCK_STALE_MS
  }
  return now - owner.at > LOCK_STALE_MS || !isRunning(owner.pid)
}

function tryTake(lock: string): boolean {
  try {
    const fd = fs.openSync(lock, 'wx', 0o600)
    try {
      fs.writeSync(fd, `${process.pid} ${Date.now()}\n`)
    } finally {
      fs.closeSync(fd)
    }
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** Runs `work` holding the lock file `lock`; the lock is removed afterwards, whatever happens. */
export function withLock<T>(lock: string, work: () => T, now: () => number = Date.now): T {
  const started = now()
  let wait = 2
  for (;;) {
    let taken: boolean
    try {
      taken = tryTake(lock)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      throw new ConfigError(`Cannot lock the profile store (${lock}): ${code}.`, {
        hint: 'Check the permissions of the folder, or set PAYFAC_CONFIG_DIR to another folder.',
        cause: error,
      })
    }
    if (taken) break
    if (isStale(lock, now())) {
      // Moved aside under a name of our own first, so that two processes taking over the same
      // stale lock cannot remove each other's fresh one.
      // If what was moved turns out to be fresh (taken over and retaken between our look and the
      // move), it is put back.
      const aside = `${lock}.${process.pid}.stale`
      try {
        fs.renameSync(lock, aside)
        if (!isStale(aside, now())) fs.linkSync(aside, lock)
      } catch {
        // Someone else took it over first, or took the lock again meanwhile; try again.
      }
      fs.rmSync(aside, { force: true })
      continue
    }
    if (now() - started > LOCK_WAIT_MS) {
      const owner = readOwner(lock)
      throw new ConfigError(`The profile store is locked by another payfac${owner ? ` (process ${owner.pid})` : ''}.`, {
        hint: `Wait for it to finish; if no payfac is running, remove ${lock}.`,
      })
    }
    sleepSync(wait + Math.floor(Math.random() * wait))
    wait = Math.min(wait * 2, 50)
  }
  try {
    return work()
  } finally {
    fs.rmSync(lock, { force: true })
  }
}

/**
 * Refuses a store that others can read or write, or that belongs to someone else (as ssh checks
 * its files: a file another user owns could have been written by them). The error gives the exact
 * chmod or chown that fixes it. (Not on Windows, whose permissions are not mode bits.)
 */
export function checkPrivate(dir: string, file: string, platform: NodeJS.Platform = process.platform, uid: number | undefined = process.getuid?.()): void {
  if (platform === 'win32') return
  const fixes: string[] = []
  const loose: string[] = []
  const dirStat = fs.statSync(dir)
  const fileStat = fs.statSync(file)
  const foreign = [dirStat.uid !== uid ? dir : undefined, fileStat.uid !== uid ? file : undefined].filter((p): p is string => p !== undefined)
  if (uid !== undefined && foreign.length > 0) {
    throw new ConfigError(
      `The profile store ${file} holds credentials, and ${foreign.map((p) => `${p} belongs to user id ${(p === dir ? dirStat : fileStat).uid}`).join(' and ')}, not to you (${uid}).`,
      { reason: 'exposed-store', hint: `Check who changed it; if it is yours, run: sudo chown ${uid} ${foreign.map(shellPath).join(' ')}` },
    )
  }
  const dirMode = dirStat.mode & 0o777
  if (dirMode & 0o077) {
    loose.push(`its folder ${dir} is ${octal(dirMode)}`)
    fixes.push(`chmod 700 ${shellPath(dir)}`)
  }
  const fileMode = fileStat.mode & 0o777
  if (fileMode & 0o077) {
    loose.push(`the file is ${octal(fileMode)}`)
    fixes.push(`chmod 600 ${shellPath(file)}`)
  }
  if (loose.length === 0) return
  throw new ConfigError(`The profile store ${file} holds credentials that others on this machine can reach: ${loose.join(' and ')}.`, {
    reason: 'exposed-store',
    hint: `Run: ${fixes.join(' && ')}`,
  })
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`
}

function shellPath(p: string): string {
  const absolute = path.resolve(p)
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(absolute) ? absolute : `'${absolute.replace(/'/g, `'\\''`)}'`
}
