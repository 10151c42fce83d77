// A lock across processes per operation identity (proper-lockfile, loaded only on the path that
// takes one): a lock folder beside the record (`<record>.lock`), made with mkdir, its time
// refreshed every LOCK_UPDATE_MS while held. A process that finds it held says so once on
// stderr and waits, polling, for at most the time the holder's request can take plus a margin.
// A lock whose time has not moved for LOCK_STALE_MS was left by a process that died (SIGKILL,
// power loss) and is taken over; one released normally is removed (also on SIGINT/SIGTERM, by
// proper-lockfile's exit hook).
import fs from 'node:fs'
import path from 'node:path'

import { ConfigError } from './errors.js'
import { LOCK_PAUSE_MS, LOCK_STALE_MS, LOCK_UPDATE_MS, LockWaitError } from './journal-store.js'

export { LOCK_PAUSE_MS, LOCK_STALE_MS, LOCK_UPDATE_MS, LockWaitError }

export type Release = () => Promise<void>

/**
 * Whether the lock may no longer be this process's: a reason in words, or undefined while it is
 * surely held. A holder paused longer than LOCK_STALE_MS / 2 (SIGSTOP, Ctrl-Z, a suspended
 * machine) may have been taken over as a lock left by a dead process; its folder made anew is
 * another's. Asked right before a request is sent: a lost lock sends nothing.
 */
export type Lost = () => string | undefined

export interface LockWait {
  /** How long to wait for another holder at most, in ms. */
  waitMs: number
  /** Said once, when the lock is found held. */
  onWait: () => void
  /** What is locked, in words, for the message when the wait runs out. */
  what: string
  sleep?: ((ms: number) => Promise<void>) | undefined
  now?: (() => number) | undefined
}

/**
 * Takes the lock of `file` (a record that may not exist yet), waiting for another holder as
 * `wait` says. Resolves with whether it had to wait, and the release.
 */
export async function takeLock(file: string, wait: LockWait): Promise<{ release: Release; waited: boolean; lost: Lost }> {
  const loaded = await import('proper-lockfile')
  // A CommonJS package: its API is the default export under ESM interop.
  const lockfile = (loaded.default as typeof loaded.default | undefined) ?? loaded
  const lockfilePath = `${file}.lock`
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const now = wait.now ?? Date.now
  const sleep = wait.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const deadline = now() + wait.waitMs
  let waited = false
  let pause = 25
  let lostWhy: string | undefined
  // proper-lockfile works through this fs (its `fs` option): the time it last set on the folder is
  // kept, so that the folder can be told to be still this process's; once the lock is held, the
  // folder is removed (on release, or by the exit hook) only while it is: a holder that was taken
  // over must not remove the lock of the run that took it over.
  let held: { identity: string; mtime: number | undefined; setting?: number | undefined } | undefined
  const ours = (): boolean => {
    if (held === undefined || folderIdentity(lockfilePath) !== held.identity) return false
    const now = folderMtime(lockfilePath)
    return held.mtime === undefined || now === held.mtime || now === held.setting
  }
  const lockFs = {
    ...fs,
    utimes: (target: fs.PathLike, atime: Date, mtime: Date, callback: (error: NodeJS.ErrnoException | null) => void) => {
      // The time being set counts as this process's from the moment it is asked for.
      if (held && target === lockfilePath) held.setting = mtime.getTime()
      fs.utimes(target, atime, mtime, (error) => {
        if (held && target === lockfilePath) {
          if (!error) held.mtime = mtime.getTime()
          held.setting = undefined
        }
        callback(error)
      })
    },
    rmdir: (target: fs.PathLike, callback: (error: NodeJS.ErrnoException | null) => void) => {
      if (held && target === lockfilePath && !ours()) return callback(null)
      // Not held yet: proper-lockfile removes a lock it found stale. Its look may be old (a busy
      // event loop answers late), and meanwhile another run may have taken it over and be sending:
      // it is looked at again right before it is removed, in one go, and left when fresh.
      if (!held && target === lockfilePath) return removeIfStale(lockfilePath, callback)
      fs.rmdir(target, callback)
    },
    rmdirSync: (target: fs.PathLike) => {
      if (held && target === lockfilePath && !ours()) return
      fs.rmdirSync(target)
    },
  }
  for (;;) {
    try {
      const release = await lockfile.lock(file, {
        lockfilePath,
        realpath: false,
        fs: lockFs as unknown as typeof fs,
        stale: LOCK_STALE_MS,
        update: LOCK_UPDATE_MS,
        retries: 0,
        // The lock was lost while held (its folder removed, or time not refreshed): the outcome is
        // still journaled by this process; say so rather than crash.
        onCompromised: (error: Error) => {
          lostWhy ??= `its lock was lost while held: ${error.message}`
          process.stderr.write(`Warning: the lock of ${wait.what} was lost while held (${error.message}).\n`)
        },
      })
      // The folder this process made: one made anew by a takeover is another's (a new inode and
      // birth time, and a time this process did not set).
      held = { identity: folderIdentity(lockfilePath), mtime: folderMtime(lockfilePath) }
      let beat = now()
      const heartbeat = setInterval(() => {
        const at = now()
        if (at - beat > LOCK_PAUSE_MS) lostWhy ??= `this run was paused for ${Math.round((at - beat) / 1000)} s while it held the lock`
        beat = at
      }, LOCK_UPDATE_MS / 2)
      heartbeat.unref()
      const lost: Lost = () => {
        const at = now()
        if (at - beat > LOCK_PAUSE_MS) lostWhy ??= `this run was paused for ${Math.round((at - beat) / 1000)} s while it held the lock`
        if (lostWhy === undefined && !ours()) lostWhy = 'its lock was taken over by another payfac run'
        return lostWhy
      }
      return {
        release: () => {
          clearInterval(heartbeat)
          return release().catch(() => undefined)
        },
        waited,
        lost,
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new ConfigError(`Cannot lock ${wait.what} (${lockfilePath}): ${(error as NodeJS.ErrnoException).code ?? String(error)}. Nothing was sent.`, {
          reason: 'damaged-store',
          hint: 'Check the permissions of the folder (yours, 0700), or set PAYFAC_CONFIG_DIR to another folder.',
          cause: error,
        })
      }
    }
    // A lock whose time is ahead of this clock by more than the stale time was not refreshed by a
    // live holder here (each sets its own now): left by a payfac that died before this machine's
    // clock was set back. proper-lockfile would call it fresh until the clock catches up (hours,
    // perhaps); its time is put back so that it is taken over as stale.
    if (aheadOfClock(lockfilePath)) {
      const old = new Date(Date.now() - 2 * LOCK_STALE_MS)
      try {
        fs.utimesSync(lockfilePath, old, old)
        continue
      } catch {
        // Gone meanwhile, or not ours to touch: waited for as any other.
      }
    }
    if (!waited) {
      waited = true
      wait.onWait()
    }
    if (now() >= deadline) {
      throw new LockWaitError(`Another payfac run of ${wait.what} was still in flight after ${Math.round(wait.waitMs / 1000)} s; nothing was sent.`, {
        hint: `Run the command again once it has finished: it then reports what that run did. A lock left by a payfac that died is taken over after ${LOCK_STALE_MS / 1000} s.`,
      })
    }
    await sleep(Math.min(pause, Math.max(1, deadline - now())))
    pause = Math.min(pause * 2, 250)
  }
}

/** Removes a lock folder only while its time is older than the stale time (as proper-lockfile judges it); a fresh one is ELOCKED. */
function removeIfStale(folder: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
  let failure: NodeJS.ErrnoException | null = null
  const time = folderMtime(folder)
  if (time !== undefined && time >= Date.now() - LOCK_STALE_MS) failure = Object.assign(new Error('Lock file is already being held'), { code: 'ELOCKED' })
  else {
    try {
      fs.rmdirSync(folder)
    } catch (error) {
      failure = error as NodeJS.ErrnoException
    }
  }
  callback(failure)
}

/** The lock folder's time is ahead of this machine's clock by more than the stale time. */
function aheadOfClock(folder: string): boolean {
  const time = folderMtime(folder)
  return time !== undefined && time > Date.now() + LOCK_STALE_MS
}

/** The lock folder's time in ms (as proper-lockfile compares it), or undefined when it is gone. */
function folderMtime(folder: string): number | undefined {
  try {
    return fs.statSync(folder).mtime.getTime()
  } catch {
    return undefined
  }
}

/** The lock folder's identity (inode and birth time), or 'gone'. */
function folderIdentity(folder: string): string {
  try {
    const st = fs.statSync(folder, { bigint: true })
    return `${st.ino}:${st.birthtimeNs}`
  } catch {
    return 'gone'
  }
}

/**
 * takeLock for many short holds at once (the rows of a bulk run): the same lock folder, made with
 * one mkdir when it is free, without loading proper-lockfile or probing the folder's time. One
 * timer serves every lock held this way: it refreshes the time of each held longer than
 * LOCK_UPDATE_MS (a holder slowed by a busy machine keeps it, as proper-lockfile's holders do)
 * and notices a pause of the whole process (the same LOCK_PAUSE_MS rule). A folder found there
 * already, whoever holds it, goes the long way (takeLock: the wait, the message, the takeover of a
 * lock left by a dead process). Released (or at exit), the folder is removed only while it is
 * still this process's; the removal runs on the thread pool (it frees a block of the disk, which
 * may wait for the disk) and is not waited for: `quickLocksRemoved()` waits for those under way.
 */
export async function takeLockQuick(file: string, wait: LockWait): Promise<{ release: Release; waited: boolean; lost: Lost }> {
  const folder = `${file}.lock`
  try {
    await makeLockFolder(folder)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return takeLock(file, wait)
    throw new ConfigError(`Cannot lock ${wait.what} (${folder}): ${(error as NodeJS.ErrnoException).code ?? String(error)}. Nothing was sent.`, {
      reason: 'damaged-store',
      hint: 'Check the permissions of the folder (yours, 0700), or set PAYFAC_CONFIG_DIR to another folder.',
      cause: error,
    })
  }
  const hold = quickHold(folder)
  return {
    release: async () => {
      quickHolds.delete(hold)
      if (quickHolds.size === 0) stopQuickTimer()
      if (!quickOurs(hold)) return
      removing.set(
        hold,
        new Promise<void>((resolve) =>
          fs.rmdir(folder, () => {
            removing.delete(hold)
            resolve()
          }),
        ),
      )
    },
    waited: false,
    lost: () => {
      const gap = Date.now() - quickBeat
      if (gap > LOCK_PAUSE_MS) hold.lostWhy ??= `this run was paused for ${Math.round(gap / 1000)} s while it held the lock`
      if (hold.lostWhy === undefined && !quickOurs(hold)) hold.lostWhy = 'its lock was taken over by another payfac run'
      return hold.lostWhy
    },
  }
}

/** Resolves once the folders of the quick locks released so far are removed. */
export async function quickLocksRemoved(): Promise<void> {
  while (removing.size > 0) await Promise.all(removing.values())
}

/** A lock folder held by takeLockQuick: what it was when made (identity and time), and why it may be lost. */
interface QuickHold {
  folder: string
  identity: string
  mtimeNs: bigint
  refreshedAt: number
  lostWhy?: string | undefined
}

const quickHolds = new Set<QuickHold>()
/** Released, their folders being removed. */
const removing = new Map<QuickHold, Promise<void>>()
let quickTimer: NodeJS.Timeout | undefined
let quickBeat = 0
let quickExitHook = false

/** mkdir on the thread pool (making a folder can take long), its parent made (0700) when missing. */
async function makeLockFolder(folder: string): Promise<void> {
  const make = () => new Promise<void>((resolve, reject) => fs.mkdir(folder, (error) => (error ? reject(error) : resolve())))
  try {
    await make()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    fs.mkdirSync(path.dirname(folder), { recursive: true, mode: 0o700 })
    await make()
  }
}

function quickHold(folder: string): QuickHold {
  const st = fs.statSync(folder, { bigint: true })
  const hold: QuickHold = { folder, identity: `${st.ino}:${st.birthtimeNs}`, mtimeNs: st.mtimeNs, refreshedAt: Date.now() }
  if (quickHolds.size === 0) startQuickTimer()
  quickHolds.add(hold)
  if (!quickExitHook) {
    quickExitHook = true
    // Ended by process.exit (a second Ctrl-C, an error): the folders still held are removed, as proper-lockfile's exit hook does.
    process.once('exit', () => {
      for (const h of [...quickHolds, ...removing.keys()]) if (quickOurs(h)) removeFolder(h.folder)
    })
  }
  return hold
}

/** The folder is the one this process made, with the time it last set. */
function quickOurs(hold: QuickHold): boolean {
  try {
    const st = fs.statSync(hold.folder, { bigint: true })
    return `${st.ino}:${st.birthtimeNs}` === hold.identity && st.mtimeNs === hold.mtimeNs
  } catch {
    return false
  }
}

function removeFolder(folder: string): void {
  try {
    fs.rmdirSync(folder)
  } catch {
    // Gone already: nothing of this process's is left.
  }
}

function startQuickTimer(): void {
  quickBeat = Date.now()
  quickTimer = setInterval(() => {
    const at = Date.now()
    const gap = at - quickBeat
    quickBeat = at
    for (const hold of quickHolds) {
      if (gap > LOCK_PAUSE_MS) hold.lostWhy ??= `this run was paused for ${Math.round(gap / 1000)} s while it held the lock`
      if (hold.lostWhy !== undefined || at - hold.refreshedAt < LOCK_UPDATE_MS) continue
      if (!quickOurs(hold)) {
        hold.lostWhy = 'its lock was taken over by another payfac run'
        continue
      }
      try {
        const time = new Date(at)
        fs.utimesSync(hold.folder, time, time)
        hold.mtimeNs = fs.statSync(hold.folder, { bigint: true }).mtimeNs
        hold.refreshedAt = at
      } catch (error) {
        hold.lostWhy = `its lock was lost while held: ${(error as NodeJS.ErrnoException).code ?? String(error)}`
      }
    }
  }, LOCK_UPDATE_MS / 2)
  quickTimer.unref()
}

function stopQuickTimer(): void {
  if (quickTimer) clearInterval(quickTimer)
  quickTimer = undefined
}
