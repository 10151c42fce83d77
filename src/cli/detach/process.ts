// Whether a process id still names a running process, and whether that process is the emulator a
// record names, read from its command line (the run's public instance id is on it: `emulator start
// --instance <id>`) and its owner. A process id is reused by the system once its process is gone,
// so a record's pid alone proves nothing: payfac signals a process only when it answers with the
// run's proof over HTTP (probe.ts) or, when it does not answer, when this check proves it.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import process from 'node:process'

/** True while `pid` names a process (of any user) that has not ended: a zombie, ended but not yet reaped, has. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (process.platform !== 'linux') return true
  try {
    // /proc/<pid>/stat: "<pid> (<name>) <state> …"; the name may hold spaces and brackets.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true
  }
}

/** Whether this system shows a process's command line and owner (Linux, macOS, the BSDs: not Windows). */
export function canReadArguments(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32' && typeof process.getuid === 'function'
}

/** The arguments of process `pid` when it is the current user's, or undefined when they cannot be read. */
export function ownArguments(pid: number, platform: NodeJS.Platform = process.platform): string[] | undefined {
  const me = typeof process.getuid === 'function' ? process.getuid() : undefined
  if (me === undefined) return undefined
  if (platform === 'linux') {
    try {
      if (fs.statSync(`/proc/${pid}`).uid !== me) return undefined
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (args.at(-1) === '') args.pop()
      return args
    } catch {
      return undefined
    }
  }
  try {
    // macOS and the BSDs: ps prints the owner and the command line (arguments joined by spaces).
    const out = execFileSync('ps', ['-o', 'uid=', '-o', 'command=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const match = /^\s*(\d+)\s+(.*)$/s.exec(out.trim())
    if (!match || Number(match[1]) !== me) return undefined
    return (match[2] as string).split(/\s+/)
  } catch {
    return undefined
  }
}

/** True when `args` are those of `payfac emulator start` for the run `instance`. */
export function argumentsOfInstance(args: readonly string[], instance: string): boolean {
  const at = args.indexOf('emulator')
  if (at < 0 || args[at + 1] !== 'start') return false
  return args.some((arg, i) => arg === `--instance=${instance}` || (arg === '--instance' && args[i + 1] === instance))
}

/** True when process `pid` is the current user's `payfac emulator start` of the run `instance`. */
export function isInstanceProcess(pid: number, instance: string): boolean {
  const args = ownArguments(pid)
  return args !== undefined && argumentsOfInstance(args, instance)
}
