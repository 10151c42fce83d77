// A reader that closes stdout early (`payfac orders list --all | head -1`) has what it wanted:
// that is not a failure. Node reports the closed pipe as an 'error' event on stdout (EPIPE),
// which with no listener would end the process as a crash. This listener notes it, so that the
// command stops at its next write (the output module throws OutputClosedError, exit 0) and any
// later write to the dead stream is ignored. Any other failure (a full disk behind `> file`, an
// I/O error) is noted by the output module, which says it in one line: never a stack trace.
//
// oclif's Command module adds a listener of its own that throws every stdout error but EPIPE,
// which would end the process as an uncaught exception: a stack trace and a line of bundled
// source. The process-wide handler below lets an error this listener has already seen go (it is
// noted and reported once); any other uncaught exception still ends the process with exit 1 and
// its stack, as Node's own handler would, without the source excerpt.
import { noteStdoutFailure } from '../../output/sink.js'

let closed = false
let lastError: unknown

/** True once a write to stdout failed because the reader went away. */
export function stdoutClosed(): boolean {
  return closed
}

/** Installs the listener and the handler once. */
export function quietOnClosedStdout(out: NodeJS.WriteStream = process.stdout): void {
  if (out.listeners('error').includes(onError)) return
  out.on('error', onError)
  if (out === process.stdout) process.on('uncaughtException', onUncaught)
}

function onError(error: NodeJS.ErrnoException): void {
  lastError = error
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || closed) {
    closed = true
    if (!process.exitCode) process.exitCode = 0
    return
  }
  noteStdoutFailure(error)
}

function onUncaught(error: unknown): void {
  // stdout's own error, rethrown by another listener: already noted above.
  if (error !== undefined && error === lastError) return
  try {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  } finally {
    process.exit(1)
  }
}
