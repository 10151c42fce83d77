// oclif's parse errors in payfac's words: one line that names the flags as typed.
//   "The following errors occurred: --csv=true cannot also be provided when using --json …"
//     → "use either --json or --csv"
//   "Missing required flag amount" → "--amount is required"
//   "All of the following must be provided when using --amount: --currency" → "--amount needs --currency"

const RULES: Array<[RegExp, (...groups: string[]) => string]> = [
  [/--([\w-]+)(?:=\S*)? cannot also be provided when using --([\w-]+)/, (a, b) => `use either --${b} or --${a}, not both`],
  [/Missing required flag:?\s*-*([\w-]+)/, (name) => `--${name} is required`],
  [/All of the following must be provided when using --([\w-]+): (.+)$/m, (name, others) => `--${name} needs ${others.trim()} too`],
  [/Exactly one of the following must be provided: (.+)$/m, (flags) => `give exactly one of ${flags.trim()}`],
  [/At least one of the following must be provided: (.+)$/m, (flags) => `give at least one of ${flags.trim()}`],
  [/Nonexistent flags?: (.+?)(?:\n|$)/, (flags) => `unknown flag ${flags.trim()}`],
  [/Unexpected arguments?: (.+?)(?:\n|$)/, (args) => `unexpected argument ${args.trim()}`],
  [/Missing (\d+ )?required args?:?\s*\n?\s*([\w-]+)/, (_n, name) => `the argument ${name} is missing`],
  [/Expected --([\w-]+)=(\S+) to be one of: (.+?)(?:\n|$)/, (name, value, options) => `--${name} must be one of ${options.trim()} (got "${value}")`],
  [/Expected (?!--)(\S+) to be one of: (.+?)(?:\n|$)/, (value, options) => `"${value}" must be one of ${options.trim()}`],
  [/Parsing --([\w-]+)\s+Expected an integer but received: (\S+)/, (name, value) => `--${name} must be a whole number (got "${value}")`],
]

/** The message of an oclif parse error, reworded; the text itself (joined into one line) when no rule fits. */
export function rewordParseError(message: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '')
  for (const [pattern, say] of RULES) {
    const match = pattern.exec(plain)
    if (match) return say(...match.slice(1).map((g) => g ?? ''))
  }
  return undefined
}
