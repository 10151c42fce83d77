// oclif's parse errors in payfac's words: one line that names the flags as typed.
//   "The following errors occurred: --csv=true cannot also be provided when using --json …"
//     → "use either --json or --csv"
//   "Missing required flag amount" → "--amount is required"
//   "All of the following must be provided when using --amount: --currency" → "--amount needs --currency"
//   "Nonexistent flag: --ammount" → "unknown flag --ammount. Did you mean --amount?"
//
// What oclif gives besides its English message is read from its fields: the flags typed that the
// command does not have (`flags`), the extra arguments (`args`, as typed), the missing ones (`args`,
// their definitions), and the command's flags (`parse.input.flags`). Which error it is cannot be
// told otherwise: oclif exports none of its parse error classes through its entry points (in oclif
// 5, `@oclif/core/parser` offers parse, validate and flagUsages, `@oclif/core/errors` CLIError,
// ExitError and ModuleLoadError), and the flag validations (required, exclusive, dependsOn,
// exactlyOne, atLeastOne), a bad option and a bad integer carry no field, only the message. So
// the kinds are told by their wording: test/contract/oclif-parse-errors.test.ts makes every one
// of these errors with oclif's own parser and fails when oclif words one differently, or drops a
// field read here.
import { distance } from './not-found.js'

const RULES: Array<[RegExp, (...groups: string[]) => string]> = [
  [/--([\w-]+)(?:=\S*)? cannot also be provided when using --([\w-]+)/, (a, b) => `use either --${b} or --${a}, not both`],
  [/Missing required flag:?\s*-*([\w-]+)/, (name) => `--${name} is required`],
  [/All of the following must be provided when using --([\w-]+): (.+)$/m, (name, others) => `--${name} needs ${others.trim()} too`],
  [/Exactly one of the following must be provided: (.+)$/m, (flags) => `give exactly one of ${flags.trim()}`],
  [/At least one of the following must be provided: (.+)$/m, (flags) => `give at least one of ${flags.trim()}`],
  [/Expected --([\w-]+)=(\S+) to be one of: (.+?)(?:\n|$)/, (name, value, options) => `--${name} must be one of ${options.trim()} (got "${value}")`],
  [/Expected (?!--)(\S+) to be one of: (.+?)(?:\n|$)/, (value, options) => `"${value}" must be one of ${options.trim()}`],
  [/Parsing --([\w-]+)\s+Expected an integer but received: (\S+)/, (name, value) => `--${name} must be a whole number (got "${value}")`],
]

/** The fields of oclif's parse errors that are read here (see the top of this file). */
interface ParseErrorFields {
  flags?: unknown
  args?: unknown
  parse?: { input?: { flags?: Record<string, { char?: string; aliases?: string[]; hidden?: boolean }> } }
}

/**
 * The message of an oclif parse error, reworded; undefined when no rule fits. Given the error
 * itself, the words typed come from its fields, and an unknown flag also gets the nearest flag
 * of the command.
 */
export function rewordParseError(error: string | Error): string | undefined {
  const message = typeof error === 'string' ? error : error.message
  const fields: ParseErrorFields = typeof error === 'string' ? {} : (error as ParseErrorFields)
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '')
  const unknown = /Nonexistent flags?: (.+?)(?:\n|$)/.exec(plain)
  if (unknown) return `unknown flag ${words(fields.flags) ?? (unknown[1] as string).trim()}${didYouMean(fields)}`
  const extra = /Unexpected arguments?: (.+?)(?:\n|$)/.exec(plain)
  if (extra) return `unexpected argument ${words(fields.args) ?? (extra[1] as string).trim()}`
  const missing = /Missing (?:\d+ )?required args?:?\s*\n?\s*([\w-]+)/.exec(plain)
  if (missing) return `the argument ${argName(fields.args) ?? missing[1]} is missing`
  for (const [pattern, say] of RULES) {
    const match = pattern.exec(plain)
    if (match) return say(...match.slice(1).map((g) => g ?? ''))
  }
  return undefined
}

/** The words of a field that lists what was typed (`flags`, `args`), joined as oclif lists them. */
function words(field: unknown): string | undefined {
  return Array.isArray(field) && field.length > 0 && field.every((w) => typeof w === 'string') ? field.join(', ') : undefined
}

/** The name of the first missing argument, from the definitions oclif lists. */
function argName(field: unknown): string | undefined {
  const first: unknown = Array.isArray(field) ? field[0] : undefined
  const name = (first as { name?: unknown } | undefined)?.name
  return typeof name === 'string' && name ? name : undefined
}

/** The flags of the command an oclif parse error came from: names and aliases. */
function flagsOf(fields: ParseErrorFields): string[] {
  const flags = fields.parse?.input?.flags
  if (!flags) return []
  return Object.entries(flags)
    .filter(([, flag]) => !flag.hidden)
    .flatMap(([name, flag]) => [name, ...(flag.aliases ?? [])])
}

/** `" Did you mean --amount?"` for the unknown flags of an oclif error, or ''. */
function didYouMean(fields: ParseErrorFields): string {
  const unknown = Array.isArray(fields.flags) ? fields.flags.filter((f): f is string => typeof f === 'string') : []
  const known = flagsOf(fields)
  const pairs = unknown.flatMap((typed) => {
    const near = nearestFlag(typed, known)
    return near ? [[typed.replace(/=.*$/s, ''), `--${near}`] as const] : []
  })
  if (pairs.length === 0) return ''
  if (pairs.length === 1 && unknown.length === 1) return `. Did you mean ${pairs[0]?.[1]}?`
  return `. Did you mean ${pairs.map(([typed, near]) => `${near} for ${typed}`).join(', ')}?`
}

/**
 * What other tools call some of payfac's flags: `--jq` is `--query`, `--verbose` is `--debug`.
 * The first name the command has is suggested.
 */
const OTHER_NAMES: Record<string, string[]> = {
  jq: ['query'],
  jmespath: ['query'],
  filter: ['query'],
  output: ['json', 'csv', 'out'],
  o: ['json', 'csv', 'out'],
  format: ['json', 'csv'],
  verbose: ['debug'],
  v: ['debug'],
  trace: ['debug'],
  force: ['yes'],
  confirm: ['yes'],
  'assume-yes': ['yes'],
  'non-interactive': ['no-input'],
  'no-prompt': ['no-input'],
  'no-interactive': ['no-input'],
  quiet: ['ids'],
  'per-page': ['limit'],
  'page-size': ['limit'],
  size: ['limit'],
  offset: ['page'],
  'order-by': ['sort'],
  'sort-by': ['sort'],
  since: ['from', 'created-after'],
  after: ['created-after', 'from'],
  until: ['to', 'created-before'],
  before: ['created-before', 'to'],
  endpoint: ['base-url'],
  'api-url': ['base-url'],
  url: ['base-url'],
  server: ['base-url'],
  merchant: ['merchant-id'],
  marketplace: ['marketplace-id'],
  customer: ['customer-id'],
  env: ['profile'],
}

/**
 * The flag of `known` nearest to what was typed (`--ammount`, `--jq=.id`, `-verbose`): a name
 * other tools use for it, a unique beginning of it, or one within a few edits. Undefined when
 * nothing is near enough.
 */
export function nearestFlag(typed: string, known: string[]): string | undefined {
  const word = typed.replace(/^-+/, '').replace(/=.*$/s, '').toLowerCase()
  if (!word) return undefined
  const names = new Set(known)
  const other = OTHER_NAMES[word]?.find((name) => names.has(name))
  if (other) return other
  if (word.length >= 3) {
    const starting = known.filter((name) => name.startsWith(word))
    if (starting.length === 1) return starting[0]
  }
  const limit = word.length <= 3 ? 1 : Math.max(2, Math.floor(word.length / 3))
  let best: { name: string; score: number } | undefined
  for (const name of known) {
    const score = distance(word, name)
    if (score <= limit && (!best || score < best.score)) best = { name, score }
  }
  return best?.name
}
