// The lock that serialises changes to the profile store, and the permission check of the store.
//
// The lock is proper-lockfile's: a folder `profiles.json.lock` made with mkdir (atomic on every
// file system payfac runs on), its time refreshed while held. A process that finds it held waits,
// polling with a growing pause, and tries again; a lock whose time has not moved for
// LOCK_STALE_MS was left by a process that died (SIGKILL, a crash) and is taken over; a lock still
// held after LOCK_WAIT_MS is reported instead of waited on for ever. proper-lockfile is loaded
// only here, on the commands that change the store.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { ConfigError } from './errors.js'

/** A lock whose time has not moved for this long is stale: a change of the store takes milliseconds. */
export const LOCK_STALE_MS = 10_000
/** How long a change waits for the lock before giving up. */
export const LOCK_WAIT_MS = 15_000
/** How often a holder refreshes its lock's time. */
const LOCK_UPDATE_MS = 2_000

export interface StoreLockWait {
  /** How long to wait for another holder at most, in ms. Default LOCK_WAIT_MS. */
  waitMs?: number | undefined
  sleep?: ((ms: number) => Promise<void>) | undefined
  now?: (() => number) | undefined
}

/** Whether the lock was lost while held (its folder removed, or its time not refreshed). */
export interface HeldLock {
  readonly compromised: boolean
}

/**
 * Runs `work` holding the lock `<file>.lock` (file: profiles.json, which may not exist yet); the
 * lock is removed afterwards, whatever happens. The folder of `file` must exist.
 */
export async function withStoreLock<T>(file: string, work: (held: HeldLock) => Promise<T> | T, wait: StoreLockWait = {}): Promise<T> {
  const loaded = await import('proper-lockfile')
  // A CommonJS package: its API is the default export under ESM interop.
  const lockfile = (loaded.default as typeof loaded.default | undefined) ?? loaded
  const lock = `${file}.lock`
  const now = wait.now ?? Date.now
  const sleep = wait.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const deadline = now() + (wait.waitMs ?? LOCK_WAIT_MS)
  const held = { compromised: false }
  let pause = 5
  let release: (() => Promise<void>) | undefined
  while (!release) {
    try {
      release = await lockfile.lock(file, {
        lockfilePath: lock,
        realpath: false,
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        retries: 0,
        onCompromised: () => {
          held.compromised = true
        },
      })
      break
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOTDIR' && takeOverOldLock(lock, now())) continue
      if (code !== 'ELOCKED') {
        throw new ConfigError(`Cannot lock the profile store (${lock}): ${code ?? String(error)}.`, {
          hint: 'Check the permissions of the folder, or set PAYFAC_CONFIG_DIR to another folder.',
          cause: error,
        })
      }
    }
    if (now() >= deadline) {
      throw new ConfigError(
        `The profile store is locked by another payfac (${lock} was still held after ${Math.round((wait.waitMs ?? LOCK_WAIT_MS) / 1000)} s).`,
        {
          hint: `Wait for it to finish; a lock left by a payfac that died is taken over after ${LOCK_STALE_MS / 1000} s.`,
        },
      )
    }
    // A little randomness, so that processes that met at the lock do not meet again.
    await sleep(Math.min(pause + Math.floor(Math.random() * pause), Math.max(1, deadline - now())))
    pause = Math.min(pause * 2, 100)
  }
  try {
    return await work(held)
  } finally {
    await release().catch(() => undefined)
  }
}

/**
 * payfac before proper-lockfile locked the store with a plain file of the same name (created
 * exclusively): such a file still there after LOCK_STALE_MS was left by a process that died, and
 * is removed. True when it was (or is already gone), so the lock can be tried again; a recent one
 * is held by an older payfac still running, and is waited on like any lock.
 */
function takeOverOldLock(lock: string, now: number): boolean {
  const stat = fs.lstatSync(lock, { throwIfNoEntry: false })
  if (!stat) return true
  if (!stat.isFile() || now - stat.mtimeMs <= LOCK_STALE_MS) return false
  fs.rmSync(lock, { force: true })
  return true
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
