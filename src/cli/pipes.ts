// A reader that closes stdout early (`payfac orders list --all | head -1`) has what it wanted:
// that is not a failure. Node reports the closed pipe as an 'error' event on stdout (EPIPE),
// which with no listener would end the process as a crash. This listener notes it, so that the
// command stops at its next write (the output module throws OutputClosedError, exit 0) and any
// later write to the dead stream is ignored.

let closed = false

/** True once a write to stdout failed because the reader went away. */
export function stdoutClosed(): boolean {
  return closed
}

/** Installs the listener once; other stdout errors are still thrown. */
export function quietOnClosedStdout(out: NodeJS.WriteStream = process.stdout): void {
  if (out.listeners('error').includes(onError)) return
  out.on('error', onError)
}

function onError(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || closed) {
    closed = true
    if (!process.exitCode) process.exitCode = 0
    return
  }
  throw error
}
