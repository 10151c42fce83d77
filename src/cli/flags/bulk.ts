// `--from-file` and its company (`--concurrency`, `--out`) for the commands that run once per row
// of a file (cli/bulk). A row's columns are the command's own flags and arguments, so a flag or
// an argument that one command requires is required of every row instead when `--from-file` is
// given: `rowFlags`/`rowArgs` keep that requirement for the rows (ROW_REQUIRED) and leave oclif
// to ask for it only without `--from-file`. Light on purpose: command files import it at start-up.
import { Flags } from '@oclif/core'

import { UsageError } from '../errors/index.js'

/** Marks a flag or an argument that every row must give (it was `required` on the command line). */
export const ROW_REQUIRED = Symbol.for('payfac.bulk.rowRequired')

export const MAX_CONCURRENCY = 16

/** `--from-file FILE`, `--concurrency N`, `--out FILE`. */
export function bulkFlags() {
  return {
    'from-file': Flags.string({
      description:
        'Run once per row of FILE: CSV with a header row of flag names (JSON Lines when FILE ends in .jsonl; - for stdin). Every row is checked before the first is sent; each is done at most once, and a re-run with the same file carries on where it stopped.',
      helpValue: 'FILE',
    }),
    concurrency: Flags.integer({
      description: `With --from-file: rows in flight at once (1 to ${MAX_CONCURRENCY}, default 4).`,
      min: 1,
      max: MAX_CONCURRENCY,
      dependsOn: ['from-file'],
    }),
    out: Flags.string({
      description: 'With --from-file: write the results (one line per row) to FILE at the end, and to FILE.partial while running; stdout otherwise.',
      helpValue: 'FILE',
      dependsOn: ['from-file'],
    }),
  }
}

type Definition = { required?: boolean; [ROW_REQUIRED]?: boolean }

/** The command's flags with their `required` moved to the rows: given exactly once, by the flag or by --from-file. */
export function rowFlags<T extends Record<string, object>>(flags: T): T {
  const out: Record<string, object> = {}
  for (const [name, flag] of Object.entries(flags)) {
    out[name] = (flag as Definition).required ? { ...flag, required: false, exactlyOne: [name, 'from-file'], [ROW_REQUIRED]: true } : flag
  }
  return out as T
}

/** The command's arguments, optional on the command line with --from-file (`argGiven` asks for one without it). */
export function rowArgs<T extends Record<string, object>>(args: T): T {
  const out: Record<string, object> = {}
  for (const [name, arg] of Object.entries(args)) out[name] = (arg as Definition).required ? { ...arg, required: false, [ROW_REQUIRED]: true } : arg
  return out as T
}

/** A `rowArgs` argument without --from-file: required as before. */
export function argGiven<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new UsageError(`Missing the argument ${name}`, 'Give it, or run the command once per row of a file with --from-file')
  return value
}
