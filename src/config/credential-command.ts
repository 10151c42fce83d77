// A credential command (`--credential-command`, a profile's `credentialCommand`,
// PAYFAC_CREDENTIAL_COMMAND): a program that prints the secret, run each time a credential is
// needed (once per payfac run); what it prints is never stored.
//
// How it is run, exactly:
// - No shell. The text is split into words as a POSIX shell splits a simple command, and nothing
//   more: blanks separate words; '…' keeps everything inside as it is; "…" too, except that \" \\
//   \$ and \` stand for the character; outside quotes a backslash keeps the next character.
//   $VAR, ~, globs, pipes, ; and redirections mean nothing special (`sh -c '…'` when they should).
//   The first word is the program, found on the PATH.
// - It gets payfac's environment (plus PAYFAC_CREDENTIAL_RUN, a random value that marks what it starts), no stdin unless payfac's stdin is a terminal (payfac's stdin may
//   carry data: `--data -`, a piped file), and payfac's stderr, so its prompts and errors show.
// - Its stdout, trimmed, is the credential: it must be one word of printable ASCII (no blanks inside).
//   What it printed before it exited counts: a background program holding stdout is not waited for.
// - Without a terminal on stdin it runs in a process group of its own (its own session), with
//   a terminal in payfac's (its prompts and Ctrl-C work): child-group.ts.
// - It has PAYFAC_CREDENTIAL_TIMEOUT seconds (default 60) before it is stopped with everything it
//   started (its process group, or its tree: SIGTERM, then SIGKILL a second later: payfac waits
//   for that second), so no grandchild of it, which may hold the secret, outlives the time-out. The
//   same when it prints too much, and SIGKILL at once if payfac itself ends while it runs.
// - Errors name the command and its exit status or signal, never what it printed.
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import process from 'node:process'
import { trackChild } from './child-group.js'
import { ConfigError } from './errors.js'

/** Seconds a credential command may take, unless PAYFAC_CREDENTIAL_TIMEOUT says otherwise. */
export const CREDENTIAL_COMMAND_TIMEOUT_S = 60
/** How long stdout is still read after the command has exited (a background program may hold it open). */
const EXIT_DRAIN_MS = 200
/** The variable that marks everything one run of a credential command starts (child-group.ts). */
const RUN_MARKER = 'PAYFAC_CREDENTIAL_RUN'
/** More than this on stdout is not a credential. */
const MAX_OUTPUT = 64 * 1024

/** The words of a command line, split as described above. Throws ConfigError on an unclosed quote. */
export function splitCommand(text: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: "'" | '"' | undefined
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string
    if (quote === "'") {
      if (c === "'") quote = undefined
      else word += c
    } else if (quote === '"') {
      if (c === '"') quote = undefined
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1] as string)) word += text[++i]
      else word += c
    } else if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word)
      word = undefined
    } else {
      word ??= ''
      if (c === "'" || c === '"') quote = c
      else if (c === '\\' && i + 1 < text.length) word += text[++i]
      else word += c
    }
  }
  if (quote) throw new ConfigError(`The credential command \`${text}\` has an unclosed ${quote === "'" ? 'single' : 'double'} quote.`, { reason: 'invalid' })
  if (word !== undefined) words.push(word)
  if (words.length === 0) throw new ConfigError('The credential command is empty.', { reason: 'invalid' })
  return words
}

/** The time limit in ms: PAYFAC_CREDENTIAL_TIMEOUT (seconds, > 0) or the default. */
export function credentialCommandTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const text = env.PAYFAC_CREDENTIAL_TIMEOUT?.trim()
  if (!text) return CREDENTIAL_COMMAND_TIMEOUT_S * 1000
  const seconds = Number(text)
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new ConfigError(`PAYFAC_CREDENTIAL_TIMEOUT=${text} is not a number of seconds between 0 and 3600.`, { reason: 'invalid' })
  }
  return Math.round(seconds * 1000)
}

export interface CredentialCommandOptions {
  /** Where the command comes from, for errors: "profile live", "PAYFAC_CREDENTIAL_COMMAND". */
  origin: string
  timeoutMs?: number | undefined
}

/** Runs the command and gives the credential it printed (trimmed), or throws ConfigError. */
export async function runCredentialCommand(command: string, options: CredentialCommandOptions): Promise<string> {
  const [program, ...args] = splitCommand(command)
  const named = `The credential command \`${command}\` (${options.origin})`
  const timeoutMs = options.timeoutMs ?? credentialCommandTimeoutMs()
  // A terminal on stdin: the command may ask the person there, so it stays in payfac's process group.
  const interactive = Boolean(process.stdin.isTTY)
  const ownGroup = !interactive && process.platform !== 'win32'
  return new Promise<string>((resolve, reject) => {
    // Whatever the command starts carries this in its environment (unless it clears it), so that it can be found and ended.
    const marker = randomUUID()
    const child = spawn(program as string, args, {
      shell: false,
      windowsHide: true,
      detached: ownGroup,
      env: { ...process.env, [RUN_MARKER]: marker },
      stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit'],
    })
    const tracked = trackChild(child, ownGroup, `${RUN_MARKER}=${marker}`)
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    let stopped = false
    let drained: NodeJS.Timeout | undefined
    const finish = (error: ConfigError | undefined, value?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearTimeout(drained)
      // A program it started may keep the pipe open; payfac does not wait for it.
      child.stdout?.destroy()
      if (!stopped) tracked.settle()
      if (error) reject(error)
      else resolve(value as string)
    }
    // Stopped with everything it started: SIGTERM, then SIGKILL a second later to whatever is left
    // (one that ignores SIGTERM must not outlive payfac: payfac waits for that second, and the
    // answer, an error, is given once it has passed).
    const stop = (error: ConfigError) => {
      if (stopped || settled) return
      stopped = true
      clearTimeout(timer)
      clearTimeout(drained)
      // Nothing more it prints is read (a flood would otherwise be read, and dropped, for that second).
      child.stdout?.destroy()
      void tracked.end(1000).then(() => finish(error))
    }
    // A program it started in the background (an agent) may keep stdout open after the command
    // itself has exited: what was printed before the exit is the answer, read a moment later,
    // rather than waiting for the time limit.
    child.on('exit', (code, signal) => {
      if (stopped) return
      clearTimeout(timer)
      drained = setTimeout(() => done(code, signal), EXIT_DRAIN_MS)
    })
    const timer = setTimeout(() => {
      stop(
        new ConfigError(`${named} did not finish within ${timeoutMs / 1000} s and was stopped.`, {
          reason: 'missing',
          hint: 'Check that it runs on its own (unlocked vault, signed in), or give it more time with PAYFAC_CREDENTIAL_TIMEOUT=SECONDS.',
        }),
      )
    }, timeoutMs)
    child.stdout?.on('data', (chunk: Buffer) => {
      if (stopped) return
      size += chunk.length
      if (size > MAX_OUTPUT) {
        chunks.length = 0
        stop(new ConfigError(`${named} printed more than ${MAX_OUTPUT / 1024} KiB: that is not a credential.`, { reason: 'invalid' }))
      } else chunks.push(chunk)
    })
    child.on('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'ENOENT' ? `could not be started: there is no program "${program}" on the PATH` : `could not be started (${error.code ?? error.name})`
      finish(
        new ConfigError(`${named} ${why}.`, {
          reason: 'missing',
          hint: 'Check the command with `payfac profiles show`, and fix it with `payfac profiles add NAME --replace`.',
        }),
      )
    })
    child.on('close', (code, signal) => {
      if (!stopped) done(code, signal)
    })
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(drained)
      if (code !== 0) {
        const status = signal ? `was stopped by ${signal}` : `exited with status ${code}`
        finish(
          new ConfigError(`${named} ${status}; no credential.`, {
            reason: 'missing',
            hint: 'Its own message, if any, is above. Run it by hand to see what it needs.',
          }),
        )
        return
      }
      const credential = Buffer.concat(chunks).toString('utf8').trim()
      if (!credential)
        finish(new ConfigError(`${named} printed nothing; no credential.`, { reason: 'missing', hint: 'It should print the key alone on stdout.' }))
      else if (/\s/.test(credential))
        finish(
          new ConfigError(`${named} printed more than one word; a credential is one word.`, {
            reason: 'invalid',
            hint: 'It should print the key alone on stdout.',
          }),
        )
      // A bearer credential is printable ASCII; anything else (binary, control or escape characters) is refused here, as configuration, never quoted.
      else if (/[^\x21-\x7e]/.test(credential))
        finish(
          new ConfigError(`${named} printed characters a credential cannot hold (binary, control or non-ASCII); no credential.`, {
            reason: 'invalid',
            hint: 'It should print the key alone on stdout, as text.',
          }),
        )
      else finish(undefined, credential)
    }
  })
}
