// Ending a program payfac started together with everything it started in turn (a credential
// command is often a shell script, and `sh -c '… sleep 1000'` leaves a grandchild when only its
// shell is stopped).
//
// - A child that needs no terminal is spawned in a process group of its own (`detached`: its own
//   session) and ended with kill(-pid): every process in the group, including a grandchild
//   whose parent has already gone, unless it made a group of its own (a daemon does, on purpose).
// - A child that shares payfac's terminal (a vault asking for a password) stays in payfac's group,
//   so that its prompt and Ctrl-C work; it is ended with every descendant found (Linux: /proc;
//   elsewhere `ps`), listed before any is signalled, so that one orphaned by its parent's death
//   is still known.
// - On Linux, a child may be given a marker in its environment (a variable with a value of its
//   own): whatever carries it is ended too, found in /proc/<pid>/environ, so that a grandchild
//   orphaned before the end (`(sleep 1000 &)`), or one that left the group, is still found.
// - On Windows, `taskkill /T /F` ends the tree.
// Ending is SIGTERM, then SIGKILL `graceMs` later to whatever is left, then a short wait (at most
// GONE_WAIT_MS) until none of them runs any more: when end() resolves, they are gone. Until the
// child is settled, payfac's own exit (a signal, an error) sends SIGKILL at once from its 'exit'
// handler, so nothing payfac started outlives it by accident.
import { type ChildProcess, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import process from 'node:process'

/** The longest end() waits, after SIGKILL, for what it ended to be gone. */
const GONE_WAIT_MS = 2000

export interface TrackedChild {
  /** SIGTERM to the child and all it started, SIGKILL `graceMs` later; resolves once they are gone. */
  end(graceMs: number): Promise<void>
  /** The child is done with (exited and judged): payfac's exit no longer ends what it left. */
  settle(): void
}

interface ProcessRow {
  pid: number
  ppid: number
  pgid: number
  /** Dead and waiting to be reaped (a zombie): it runs nothing any more. */
  zombie: boolean
}

/** Every process, or an empty list when the system does not say. */
function processTable(): ProcessRow[] {
  if (process.platform === 'linux') {
    let names: string[]
    try {
      names = readdirSync('/proc')
    } catch {
      return []
    }
    const table: ProcessRow[] = []
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue
      try {
        // The command name (field 2) is in parentheses and may hold spaces: fields after the last `)`.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
        const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        table.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), zombie: state === 'Z' || state === 'X' })
      } catch {
        // Gone between the listing and the read.
      }
    }
    return table
  }
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8', timeout: 5000 })
  if (ps.status !== 0 || !ps.stdout) return []
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 4)
    .map(([pid, ppid, pgid, stat]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: (stat ?? '').startsWith('Z') }))
}

/** Every descendant of `pid` (children, their children …) in `table`. */
export function descendantsOf(pid: number, table: ProcessRow[] = processTable()): number[] {
  const children = new Map<number, number[]>()
  for (const row of table) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row.pid])
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (found.includes(child)) continue
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

/** Processes (Linux) whose environment holds `marker` (`NAME=value`), this one excepted. */
export function markedProcesses(marker: string): number[] {
  if (process.platform !== 'linux') return []
  const needle = Buffer.from(`\0${marker}\0`)
  const found: number[] = []
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${name}/environ`)])
      if (environ.includes(needle)) found.push(Number(name))
    } catch {
      // Gone, or another user's.
    }
  }
  return found
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    // Already gone (ESRCH), or not ours to signal.
  }
}

/**
 * Tracks `child`, spawned with `detached: ownGroup`. With `ownGroup`, its process group is ended;
 * otherwise its tree; with `marker` (`NAME=value` in its environment), whatever carries it too.
 * Call `settle()` once it has exited and nothing it left should be ended.
 */
export function trackChild(child: ChildProcess, ownGroup: boolean, marker?: string): TrackedChild {
  const pid = child.pid
  let settled = pid === undefined
  const known = new Set<number>()
  /** Everything of the child's that runs now, the ones listed before included. */
  const running = (): number[] => {
    if (pid === undefined) return []
    const table = processTable()
    for (const each of ownGroup ? table.filter((row) => row.pgid === pid).map((row) => row.pid) : [pid, ...descendantsOf(pid, table)]) known.add(each)
    if (marker) for (const each of markedProcesses(marker)) known.add(each)
    const live = new Set(table.filter((row) => !row.zombie).map((row) => row.pid))
    return [...known].filter((each) => live.has(each))
  }
  const send = (name: NodeJS.Signals) => {
    if (pid === undefined) return
    if (process.platform === 'win32') {
      spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', timeout: 5000 })
      return
    }
    if (ownGroup) signal(-pid, name)
    for (const each of running()) signal(each, name)
  }
  const atExit = () => send('SIGKILL')
  if (!settled) process.once('exit', atExit)
  const settle = () => {
    settled = true
    process.off('exit', atExit)
  }
  return {
    settle,
    async end(graceMs) {
      if (settled) return
      send('SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, graceMs))
      send('SIGKILL')
      // A signal is delivered, not awaited: wait (briefly) until the processes are gone, so that
      // none is still running when payfac reports the time-out and exits.
      const until = Date.now() + GONE_WAIT_MS
      while (process.platform !== 'win32' && running().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
      settle()
    },
  }
}
