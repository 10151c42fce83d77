// `-o/--output json|csv|jsonl|table` turned into the flags it spells (--json, --csv, --jsonl), once
// parsed, so that every command and the error path see one set of format flags.
import { UsageError } from '../errors/index.js'

const SPELT: Record<string, string | undefined> = { json: 'json', csv: 'csv', jsonl: 'jsonl', table: undefined }

/** Sets `json`, `csv` or `jsonl` from `output`; `--output csv --json` (two formats) is a usage error. */
export function applyOutputFormat(flags: Record<string, unknown>): void {
  const output = flags.output
  if (typeof output !== 'string') return
  const chosen = SPELT[output]
  const others = ['json', 'csv', 'jsonl'].filter((name) => name !== chosen && flags[name] === true)
  if (others.length > 0) throw new UsageError(`--output ${output} and --${others[0]} ask for two formats`, 'Give one of them')
  if (chosen) flags[chosen] = true
}
