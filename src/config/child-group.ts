// Ending a program payfac started together with everything it started in turn (a credential
// command is often a shell script, and `sh -c '… sleep 1000'` leaves a grandchild when only its
// shell is stopped).
//
// - A child that needs no terminal is spawned in a process group of its own (`detached`: its own
//   session) and ended with kill(-pid): every process in the group, including a grandchild
//   whose parent has already gone, unless it made a group of its own (a daemon does, on purpose).
// - A child that shares payfac's terminal (a vault asking for a password) stays in payfac's group,
//   so that its prompt and Ctrl-C work; it is ended with every descendant found (Linux: /proc;
//   elsewhere `ps -A -o pid=,ppid=`), listed before any is signalled, so that one orphaned by its
//   parent's death is still known.
// - On Linux, a child may be given a marker in its environment (a variable with a value of its
//   own): whatever carries it is ended too, found in /proc/<pid>/environ, so that a grandchild
//   orphaned before the end (`(sleep 1000 &)`), or one that left the group, is still found.
// - On Windows, `taskkill /T /F` ends the tree.
// Ending is SIGTERM, then SIGKILL `graceMs` later to whatever is left (payfac waits for that).
// And until the child is settled, payfac's own exit (a signal, an error) sends SIGKILL at once
// from its 'exit' handler, so nothing payfac started outlives it by accident.
import { type ChildProcess, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import process from 'node:process'

export interface TrackedChild {
  /** SIGTERM to the child and all it started, SIGKILL `graceMs` later; resolves once that is done. */
  end(graceMs: number): Promise<void>
  /** The child is done with (exited and judged): payfac's exit no longer ends what it left. */
  settle(): void
}

/** `[pid, parent pid]` of every process, or undefined when the system does not say. */
function processTable(): Array<[number, number]> | undefined {
  if (process.platform === 'linux') {
    const table: Array<[number, number]> = []
    let names: string[]
    try {
      names = readdirSync('/proc')
    } catch {
      return undefined
    }
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue
      try {
        // The command name (field 2) is in parentheses and may hold spaces: fields after the last `)`.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        table.push([Number(name), ppid])
      } catch {
        // Gone between the listing and the read.
      }
    }
    return table
  }
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 5000 })
  if (ps.status !== 0 || !ps.stdout) return undefined
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
    .filter(([pid, ppid]) => Number.isInteger(pid) && Number.isInteger(ppid))
}

/** Every descendant of `pid` (children, their children …), as the process table shows them now. */
export function descendantsOf(pid: number): number[] {
  const table = processTable() ?? []
  const children = new Map<number, number[]>()
  for (const [child, parent] of table) children.set(parent, [...(children.get(parent) ?? []), child])
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
  let known: number[] = []
  const send = (name: NodeJS.Signals) => {
    if (pid === undefined) return
    if (process.platform === 'win32') {
      spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', timeout: 5000 })
      return
    }
    if (ownGroup) signal(-pid, name)
    known = [...new Set([...known, ...(ownGroup ? [] : descendantsOf(pid)), ...(marker ? markedProcesses(marker) : [])])]
    for (const each of ownGroup ? known : [pid, ...known]) signal(each, name)
  }
  const atExit = () => send('SIGKILL')
  if (!settled) process.once('exit', atExit)
  const settle = () => {
    settled = true
    process.off('exit', atExit)
  }
  return {
    settle,
    end(graceMs) {
      if (settled) return Promise.resolve()
      send('SIGTERM')
      return new Promise((resolve) => {
        setTimeout(() => {
          send('SIGKILL')
          settle()
          resolve()
        }, graceMs)
      })
    },
  }
}
