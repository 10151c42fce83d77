// The entry point behind bin/run.js (which answers `--version` itself). Help without a terminal is
// a page the build rendered with oclif's help (./help-pages.ts); a known command is found in the
// small command index and run by oclif's configuration (./dispatch.ts); everything else (help at a
// terminal, unknown commands, plugins' commands) goes to oclif's `run`. oclif reads its manifest
// instead of loading every command file.
import { readFileSync } from 'node:fs'

import { sanitizeLine } from '../../output/sanitize.js'
import { isGone, noteOutputStall } from '../../output/sink.js'
import { type CommandIndex, readIndex, runArgv } from './dispatch.js'
import { helpPage, wantsHelp } from './help-pages.js'
import { knownPhrases, notFoundMessage } from '../errors/not-found.js'
import { openApiQuickly } from '../files/openapi.js'
import { quietOnClosedStdout, stdoutClosed } from '../runtime/pipes.js'
import { installSignalHandling, wantsJsonErrors } from '../runtime/signals.js'

interface PackageJson {
  name: string
  version: string
  oclif: { bin: string; topics?: Record<string, unknown> }
}

export async function main(argv: string[], binUrl: string): Promise<void> {
  quietOnClosedStdout()
  const pkg = readPackage(binUrl)
  const index = readIndex(binUrl, pkg.version)
  const help = index && helpPage(argv, index, binUrl, pkg.version)
  if (help) {
    process.stdout.write(help)
    return
  }
  // `payfac openapi` prints a file the build wrote: answered here, without oclif (goal: +50 ms over bare node).
  if (await openApiQuickly(argv, new URL('..', binUrl))) return
  // SIGINT and SIGTERM alike, for every command: clean-ups run, then exit 130 or 143.
  installSignalHandling(process, Date.now, { json: wantsJsonErrors(argv) })
  try {
    await dispatch(argv, binUrl, index)
  } catch (error) {
    // Commands report their own failures (the base command's catch); what reaches here is
    // oclif's own: an unknown command gets the nearest one, anything else oclif's handler.
    if (await reportNotFound(error, argv, binUrl, pkg)) return
    const oclif = await loadOclif()
    await oclif.handle(error as Error)
  }
}

/** oclif's "command x:y not found", said in payfac's words with the nearest command (exit 2). */
async function reportNotFound(error: unknown, argv: string[], binUrl: string, pkg: PackageJson): Promise<boolean> {
  if (!(error instanceof Error) || !/^command \S+ not found/i.test(error.message)) return false
  let commands: string[] = []
  try {
    commands = Object.keys(JSON.parse(readFileSync(new URL('../oclif.manifest.json', binUrl), 'utf8')).commands ?? {})
  } catch {
    // Without a manifest there is nothing to compare with; the message still says what failed.
  }
  const words = argv[0] === 'help' ? argv.slice(1) : argv
  const { message, hint } = notFoundMessage(words, knownPhrases(commands, Object.keys(pkg.oclif.topics ?? {})), pkg.oclif.bin)
  process.exitCode = 2
  if (wantsJsonErrors(argv)) {
    // Under --json (or --query) the error is its JSON line on stderr, as for every other error.
    const [{ UsageError }, { reportError }] = await Promise.all([import('../errors/index.js'), import('../errors/output.js')])
    reportError(new UsageError(message, hint), { json: true })
    return true
  }
  // The words are the user's: shown inert, whatever they hold.
  process.stderr.write(`Error: ${sanitizeLine(message)}\nHint: ${sanitizeLine(hint)}\n`)
  return true
}

/**
 * Runs a command, leaving any error it throws to the caller (main() hands it to oclif's
 * handler; the in-process tests read it). With the index (and not `{ index: false }`), payfac
 * finds and runs the command with oclif's configuration (./dispatch.ts); otherwise oclif's `run`.
 */
export async function runCommandLine(argv: string[], binUrl: string, options: { index?: boolean } = {}): Promise<void> {
  const pkg = readPackage(binUrl)
  await dispatch(argv, binUrl, options.index === false ? undefined : readIndex(binUrl, pkg.version))
}

async function dispatch(argv: string[], binUrl: string, index: CommandIndex | undefined): Promise<void> {
  if (index && !wantsHelp(argv)) await runArgv(argv, binUrl)
  else await (await loadOclif()).run(argv, binUrl)
  await flushStdout()
}

/**
 * Waits until stdout has no backlog left, or until it is gone: a reader that closed the pipe
 * (`| head -1`) leaves a backlog that will never drain, and on Node 24 the stream still says it
 * needs to. (oclif's flush() leaves a 'drain' listener on stdout whenever the stream was already
 * drained, one more per call.)
 */
async function flushStdout(out: NodeJS.WriteStream = process.stdout): Promise<void> {
  if (!out.writableNeedDrain || stdoutClosed() || isGone(out)) return
  noteOutputStall()
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done)
      out.off('close', done)
      out.off('error', done)
      resolve()
    }
    out.on('drain', done)
    out.on('close', done)
    out.on('error', done)
  })
}

type Oclif = typeof import('@oclif/core')

/** oclif, which comes back as the default export when bundled (it is a CommonJS module). */
async function loadOclif(): Promise<Oclif> {
  const loaded = (await import('@oclif/core')) as Oclif & { default?: Oclif }
  return typeof loaded.run === 'function' ? loaded : (loaded.default as Oclif)
}

function readPackage(binUrl: string): PackageJson {
  return JSON.parse(readFileSync(new URL('../package.json', binUrl), 'utf8')) as PackageJson
}
