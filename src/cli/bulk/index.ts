// The way into a run from a file (`--from-file`): light, so that a command file can import it at
// start-up; the engine (run.ts and what it uses) is loaded only when a file is given.
import type { BulkHost } from '../base-command.js'

/** Runs the command once per row of its `--from-file` (run.ts). */
export async function fromFile(host: BulkHost): Promise<unknown> {
  const { runBulk } = await import('./run.js')
  return runBulk(host)
}
