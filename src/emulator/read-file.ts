// A file the emulator is handed (`--state`, `--fixtures`), read without ever blocking: opened with
// O_NONBLOCK (a FIFO opens at once, writer or not) and refused unless what was opened is a regular
// file of at most `limit` bytes. So `--state /dev/zero`, a FIFO with no writer or a folder is an
// error at once, never a read that fills memory nor an open that Ctrl-C cannot end (a synchronous
// open of a FIFO blocks the whole process, signal handlers included).
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs'

/** The most a `--fixtures` file may hold: 16 MiB. */
export const MAX_FIXTURES_BYTES = 16 * 1024 * 1024
/** The most a `--state` file may hold: 500 MiB (just below the longest text JavaScript can hold). */
export const MAX_STATE_BYTES = 500 * 1024 * 1024

/** Why a file cannot be read: its errno code (`ENOENT`), or `ENOTREG` / `EFBIG` for what payfac refuses. */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError'
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
  }
}

/** The text of the regular file `path`, at most `limit` bytes; anything else is an UnreadableFileError. */
export function readRegularFileSync(path: string, limit: number): string {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO'
    throw new UnreadableFileError((error as Error).message, code)
  }
  try {
    const info = fstatSync(fd)
    if (!info.isFile()) throw new UnreadableFileError(`${path} is not a regular file (a folder, FIFO or device)`, 'ENOTREG')
    if (info.size > limit)
      throw new UnreadableFileError(`${path} holds ${info.size} bytes, more than the ${limit / (1024 * 1024)} MiB the emulator reads`, 'EFBIG')
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}
