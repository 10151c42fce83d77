// Runs one payfac command in this process, exactly as `payfac <command> … --json` would run it
// (runCommandLine: the same index, bundle and oclif configuration), and captures what it writes
// and the exit code it sets. Every write of the MCP server goes through here, so every rule the
// command keeps (the production guard, the operation journal and its locks, repeat windows, the
// witness, unknown outcomes, dry runs) applies unchanged, now and as the commands change.
//
// A command writes to process.stdout and process.stderr and sets process.exitCode, all of them
// process-wide: runs are taken one at a time (a queue), and the MCP transport writes through the
// stream's own write function, kept before any run replaces it (stdoutForTransport).
import { Writable } from 'node:stream'

import type { runCommandLine } from '../cli/start/main.js'

export interface CommandRun {
  /** The exit code the command set: 0 ok, 6 refused, 7 unknown outcome … (src/cli/errors/exit-codes.ts). */
  code: number
  stdout: string
  stderr: string
}

/** The original stdout write, taken when this module loads: before any run replaces it. */
const writeStdout = process.stdout.write.bind(process.stdout)

/**
 * A stream for the MCP transport that writes with stdout's own write function, so that what a
 * command prints while it runs (captured) and the protocol's messages never mix.
 */
export function stdoutForTransport(): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writeStdout(chunk, (error) => callback(error ?? null))
    },
  })
}

/**
 * From now on, anything but the transport that writes to stdout (a stray late write of a command,
 * a library's console.log) goes to stderr instead: stdout carries the protocol's messages only.
 */
export function keepStdoutForProtocol(): void {
  process.stdout.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, encoding, callback)) as typeof process.stdout.write
}

let queue: Promise<unknown> = Promise.resolve()

/** Runs `argv` (a command line without `payfac`) after every run before it has ended. */
export function runCommand(argv: string[], binUrl: string): Promise<CommandRun> {
  const run = queue.then(() => runNow(argv, binUrl))
  queue = run.catch(() => undefined)
  return run
}

/**
 * runCommandLine of the entry point bin/run.js loaded (the same module, already in memory): taken
 * at run time, so that the bundle keeps the entry point whole and no other command's start-up
 * loads a chunk split off it for this server.
 */
async function entry(binUrl: string): Promise<typeof runCommandLine> {
  const main = (await import(new URL('../dist/bundle/cli/start/main.js', binUrl).href)) as { runCommandLine: typeof runCommandLine }
  return main.runCommandLine
}

async function runNow(argv: string[], binUrl: string): Promise<CommandRun> {
  const run = await entry(binUrl)
  const out: string[] = []
  const err: string[] = []
  const savedOut = process.stdout.write
  const savedErr = process.stderr.write
  const savedExit = process.exitCode
  process.exitCode = undefined
  const capture = (into: string[]) =>
    ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const done = typeof encoding === 'function' ? encoding : callback
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)())
      return true
    }) as typeof process.stdout.write
  process.stdout.write = capture(out)
  process.stderr.write = capture(err)
  let code: number
  try {
    await run(argv, binUrl)
    code = typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (error) {
    // What oclif itself throws (its own exit, a parse failure before the command's catch).
    const exit = (error as { oclif?: { exit?: number } }).oclif?.exit
    err.push(`${JSON.stringify({ error: { message: String((error as Error)?.message ?? error) } })}\n`)
    code = typeof exit === 'number' ? exit : 1
  } finally {
    process.stdout.write = savedOut
    process.stderr.write = savedErr
    process.exitCode = savedExit
  }
  return { code, stdout: out.join(''), stderr: err.join('') }
}
