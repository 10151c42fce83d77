// One pass over the command line before oclif parses it (and so before any flag's own check
// echoes a value, and before anything is sent): every value, of a flag or an argument, is
// refused (exit 2) when it holds a control character or is longer than payfac takes. The
// error names the flag and shows the value escaped: a raw CR, LF or ESC never reaches stderr.
// Light: loaded for every command.
import { UsageError } from '../errors/index.js'

/**
 * The longest value of a flag or argument: 2,048 characters. The contract gives no lengths
 * (references, descriptions, names, URLs); this bounds what goes into a URL or a body from a
 * flag. Whole bodies (`--data`) and lists of ids (`--merchants`) are exempt (MAX_TEXT_BLOCK_CHARS).
 */
export const MAX_VALUE_CHARS = 2048

/** The longest `--data` or `--merchants` value given on the command line: 1 MiB of text. */
export const MAX_TEXT_BLOCK_CHARS = 1024 * 1024

/** Flags whose value is a block of text (JSON, a list): they may hold tabs and line breaks. */
const TEXT_BLOCK_FLAGS: ReadonlySet<string> = new Set(['data', 'merchants'])

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
/** The same, less tab, line feed and carriage return (allowed in a text block). */
const CONTROL_IN_BLOCK = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

/** Checks every value of `argv` (as the command received it); throws a UsageError at the first bad one. */
export function checkArgv(argv: readonly string[]): void {
  let flag: string | undefined
  let positional = false
  for (const token of argv) {
    if (!positional && token === '--') {
      positional = true
      flag = undefined
      continue
    }
    let name = flag
    let value = token
    if (!positional && token.startsWith('--')) {
      const at = token.indexOf('=')
      name = at === -1 ? token.slice(2) : token.slice(2, at)
      value = at === -1 ? '' : token.slice(at + 1)
      checkName(token.slice(0, at === -1 ? undefined : at))
      flag = at === -1 ? name : undefined
      if (at === -1) continue
    } else if (!positional && /^-[A-Za-z]$/.test(token)) {
      flag = token
      continue
    } else {
      flag = undefined
    }
    checkValue(value, name === undefined ? 'An argument' : name.startsWith('-') ? name : `--${name}`, name !== undefined && TEXT_BLOCK_FLAGS.has(name))
  }
}

/** A value as it may be shown: control characters escaped (`\r`, `\n`, `\u001b`), at most `max` characters. */
export function escapeValue(value: string, max = 80): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

function checkName(token: string): void {
  if (CONTROL.test(token) || token.length > 100) {
    throw new UsageError(`The flag "${escapeValue(token, 40)}" is not one payfac knows`, 'See --help for the flags and examples')
  }
}

function checkValue(value: string, what: string, block: boolean): void {
  const limit = block ? MAX_TEXT_BLOCK_CHARS : MAX_VALUE_CHARS
  if (value.length > limit) {
    throw new UsageError(
      `${what} is ${value.length} characters long; payfac takes at most ${limit} (it starts "${escapeValue(value, 20)}")`,
      block ? 'Pass a long body as @file or - (stdin)' : 'Check the value: no field of the service takes text that long',
    )
  }
  const found = (block ? CONTROL_IN_BLOCK : CONTROL).exec(value)
  if (found) {
    const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
    throw new UsageError(`${what} holds a control character (${code}): "${escapeValue(value)}"`, 'Remove line breaks, tabs and escape sequences from the value')
  }
}
