// `-o/--output json|csv|table` turned into the flags it spells (--json, --csv), once parsed, so
// that every command and the error path see one set of format flags. `jsonl` is not among the
// formats yet: `--jsonl` is being added on its own, and `--output jsonl` follows it.
import { UsageError } from '../errors/index.js'

const SPELT: Record<string, string | undefined> = { json: 'json', csv: 'csv', table: undefined }

/** Sets `json` or `csv` from `output`; `--output csv --json` (two formats) is a usage error. */
export function applyOutputFormat(flags: Record<string, unknown>): void {
  const output = flags.output
  if (typeof output !== 'string') return
  const chosen = SPELT[output]
  const others = ['json', 'csv', 'jsonl'].filter((name) => name !== chosen && flags[name] === true)
  if (others.length > 0) throw new UsageError(`--output ${output} and --${others[0]} ask for two formats`, 'Give one of them')
  if (chosen) flags[chosen] = true
}
