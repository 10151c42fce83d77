// Runs a payfac command in this process, through the same bundled entry point and manifest as
// bin/run.js, and captures what it writes and the exit code it sets. Faster than spawning; the
// e2e tests spawn bin/run.js for real streams and signals.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const BIN_URL = pathToFileURL(resolve(__dirname, '../../bin/run.js')).href
const MAIN = pathToFileURL(resolve(__dirname, '../../dist/bundle/cli/start/main.js')).href

export interface CommandResult {
  code: number
  stdout: string
  stderr: string
}

export async function runCommand(
  argv: string[],
  options: { env?: Record<string, string | undefined>; stdin?: string; onStdout?: (chunk: string) => void } = {},
): Promise<CommandResult> {
  const { runCommandLine } = (await import(MAIN)) as { runCommandLine: (argv: string[], binUrl: string) => Promise<void> }
  const out: string[] = []
  const err: string[] = []
  const writeOut = process.stdout.write.bind(process.stdout)
  const writeErr = process.stderr.write.bind(process.stderr)
  const savedEnv = { ...process.env }
  const savedExit = process.exitCode
  process.exitCode = undefined
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out.push(String(chunk))
    options.onStdout?.(String(chunk))
    return true
  }) as typeof process.stdout.write
  process.stderr.write = ((chunk: string | Uint8Array) => {
    err.push(String(chunk))
    return true
  }) as typeof process.stderr.write
  let code: number
  try {
    await runCommandLine(argv, BIN_URL)
    code = typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (error) {
    const exit = (error as { oclif?: { exit?: number } }).oclif?.exit
    err.push(String((error as Error).message))
    code = typeof exit === 'number' ? exit : 1
  } finally {
    process.stdout.write = writeOut
    process.stderr.write = writeErr
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key]
    Object.assign(process.env, savedEnv)
    process.exitCode = savedExit
  }
  return { code, stdout: out.join(''), stderr: err.join('') }
}
