// oclif's parse errors in payfac's words: one line that names the flags as typed.
//   "The following errors occurred: --csv=true cannot also be provided when using --json …"
//     → "use either --json or --csv"
//   "Missing required flag amount" → "--amount is required"
//   "All of the following must be provided when using --amount: --currency" → "--amount needs --currency"
//   "Nonexistent flag: --ammount" → "unknown flag --ammount. Did you mean --amount?"
import { distance } from './not-found.js'

const RULES: Array<[RegExp, (...groups: string[]) => string]> = [
  [/--([\w-]+)(?:=\S*)? cannot also be provided when using --([\w-]+)/, (a, b) => `use either --${b} or --${a}, not both`],
  [/Missing required flag:?\s*-*([\w-]+)/, (name) => `--${name} is required`],
  [/All of the following must be provided when using --([\w-]+): (.+)$/m, (name, others) => `--${name} needs ${others.trim()} too`],
  [/Exactly one of the following must be provided: (.+)$/m, (flags) => `give exactly one of ${flags.trim()}`],
  [/At least one of the following must be provided: (.+)$/m, (flags) => `give at least one of ${flags.trim()}`],
  [/Unexpected arguments?: (.+?)(?:\n|$)/, (args) => `unexpected argument ${args.trim()}`],
  [/Missing (\d+ )?required args?:?\s*\n?\s*([\w-]+)/, (_n, name) => `the argument ${name} is missing`],
  [/Expected --([\w-]+)=(\S+) to be one of: (.+?)(?:\n|$)/, (name, value, options) => `--${name} must be one of ${options.trim()} (got "${value}")`],
  [/Expected (?!--)(\S+) to be one of: (.+?)(?:\n|$)/, (value, options) => `"${value}" must be one of ${options.trim()}`],
  [/Parsing --([\w-]+)\s+Expected an integer but received: (\S+)/, (name, value) => `--${name} must be a whole number (got "${value}")`],
]

/**
 * The message of an oclif parse error, reworded; undefined when no rule fits. Given the error
 * itself, an unknown flag also gets the nearest flag of the command (oclif's error carries the
 * command's flags).
 */
export function rewordParseError(error: string | Error): string | undefined {
  const message = typeof error === 'string' ? error : error.message
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '')
  const unknown = /Nonexistent flags?: (.+?)(?:\n|$)/.exec(plain)
  if (unknown) return `unknown flag ${(unknown[1] as string).trim()}${didYouMean(error)}`
  for (const [pattern, say] of RULES) {
    const match = pattern.exec(plain)
    if (match) return say(...match.slice(1).map((g) => g ?? ''))
  }
  return undefined
}

/** The flags of the command an oclif parse error came from: names, short names and aliases. */
function flagsOf(error: string | Error): string[] {
  if (typeof error === 'string') return []
  const flags = (error as { parse?: { input?: { flags?: Record<string, { char?: string; aliases?: string[]; hidden?: boolean }> } } }).parse?.input?.flags
  if (!flags) return []
  return Object.entries(flags)
    .filter(([, flag]) => !flag.hidden)
    .flatMap(([name, flag]) => [name, ...(flag.aliases ?? [])])
}

/** `" Did you mean --amount?"` for the unknown flags of an oclif error, or ''. */
function didYouMean(error: string | Error): string {
  const unknown = typeof error === 'string' ? [] : (((error as { flags?: unknown }).flags as string[] | undefined) ?? [])
  const known = flagsOf(error)
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
