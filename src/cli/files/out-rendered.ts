// Output that payfac renders itself (a table, CSV, JSON, JSON Lines) saved with `--out`, as it is
// rendered: the rendering writes into a pipe that the atomic writer (out-file.ts) drains into a
// temporary file beside FILE, renamed over FILE only when the rendering ended well.
import { PassThrough, type Writable } from 'node:stream'

import { saveStream } from './out-file.js'

/**
 * Rows rendered by `render` into `path`, saved atomically as they are rendered: the file appears
 * only when rendering ended well; a failure of either side leaves nothing under `path`.
 */
export async function saveRendered(path: string, render: (out: Writable) => Promise<number>): Promise<{ count: number; bytes: number }> {
  const pipe = new PassThrough()
  const saving = saveStream(pipe, path)
  saving.catch(() => undefined)
  let count: number
  try {
    count = await render(pipe)
    pipe.end()
  } catch (error) {
    // The writer destroys the pipe when the file fails (a full disk): that failure stopped the
    // rendering, and is said rather than "the output closed".
    const fileFailed = pipe.destroyed
    pipe.destroy()
    const failure = await saving.then(
      () => undefined,
      (saveError: unknown) => saveError,
    )
    throw fileFailed && failure !== undefined ? failure : error
  }
  return { count, bytes: await saving }
}
