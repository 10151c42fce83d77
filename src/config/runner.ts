// Who wrote a record of the operation journal: the machine, the user and the process, plus a
// random tag of this process (two processes never share it, whatever their pids). Pure.
import { randomBytes } from 'node:crypto'
import os from 'node:os'

/** Who wrote a record: the machine, the user and the process, plus a random tag of this process. */
export interface Runner {
  host: string
  user: string
  pid: number
  tag: string
}

let self: Runner | undefined

/** This process as a writer of records. */
export function thisRunner(): Runner {
  if (self) return self
  let user = ''
  try {
    user = os.userInfo().username
  } catch {
    user = String(process.getuid?.() ?? '')
  }
  self = { host: os.hostname(), user, pid: process.pid, tag: randomBytes(6).toString('hex') }
  return self
}

/** `user@host pid 1234`: a runner in words. */
export function runnerWords(runner: Runner | undefined): string {
  return runner ? `${runner.user}@${runner.host} pid ${runner.pid}` : 'a runner that did not say'
}
