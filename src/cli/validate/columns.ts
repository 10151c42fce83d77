// `--columns`, checked when the flag is parsed: before anything is sent. Each entry is a column
// of a view or a dot path of the JSON record (`purchaseDetails.status`); which of them the
// answer really holds is only known when it comes, so here the first name of each entry must be
// one payfac knows: a column of one of its views, or a field of a record of the contract (the
// client's schemas). `--columns nope` is refused without a request; a known name the answer
// lacks is still refused at the first record, as before. Views and schemas are loaded only when
// the flag is given.
import { UsageError } from '../errors/index.js'

/** The most entries `--columns` takes. */
export const MAX_COLUMNS = 100

const ENTRY = /^[A-Za-z_$][\w$-]*(\.[\w$-]+)*$/

export async function checkColumnsFlag(input: string): Promise<string> {
  const entries = input
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const hint = 'Give column names or dot paths separated by commas, such as --columns orderId,amount,purchaseDetails.status'
  if (entries.length === 0) throw new UsageError('--columns names no column', hint)
  if (entries.length > MAX_COLUMNS) throw new UsageError(`--columns takes at most ${MAX_COLUMNS} columns (got ${entries.length})`, hint)
  const malformed = entries.find((entry) => !ENTRY.test(entry))
  if (malformed !== undefined) throw new UsageError(`--columns: "${malformed}" is not a column name or dot path`, hint)
  const known = await knownNames()
  const unknown = entries.find((entry) => !known.has(entry.split('.')[0] as string))
  if (unknown !== undefined) {
    throw new UsageError(
      `--columns: no record payfac shows has a column or field "${unknown.split('.')[0]}"`,
      'Leave --columns out to see the columns, or look at the field names with --json',
    )
  }
  return input
}

let names: Promise<Set<string>> | undefined

/** Every view column key and every field name of the contract's schemas (first names only matter). */
function knownNames(): Promise<Set<string>> {
  names ??= (async () => {
    const found = new Set<string>()
    const modules = await Promise.all([
      import('../../output/views/auth.js'),
      import('../../output/views/cards.js'),
      import('../../output/views/customers.js'),
      import('../../output/views/diagnostics.js'),
      import('../../output/views/emulator.js'),
      import('../../output/views/loans.js'),
      import('../../output/views/marketplaces.js'),
      import('../../output/views/merchants.js'),
      import('../../output/views/money.js'),
      import('../../output/views/orders.js'),
      import('../../output/views/payplans.js'),
      import('../../output/views/payto.js'),
      import('../../output/views/profiles.js'),
      import('../../output/views/sources.js'),
      import('../../output/views/tokens.js'),
      import('../../output/views/transactions.js'),
      import('../../output/views/webhooks-local.js'),
      import('../../output/views/webhooks.js'),
    ])
    for (const module of modules) {
      for (const value of Object.values(module as Record<string, unknown>)) {
        const view = value as { columns?: unknown; detail?: unknown }
        if (!view || typeof view !== 'object') continue
        for (const list of [view.columns, view.detail]) {
          if (!Array.isArray(list)) continue
          for (const column of list as Array<{ key?: unknown }>) if (typeof column?.key === 'string') found.add(column.key.split('.')[0] as string)
        }
      }
    }
    const schemas = await import('../../client/schemas/index.js')
    const seen = new Set<unknown>()
    for (const schema of Object.values(schemas as Record<string, unknown>)) fieldNames(schema, found, seen)
    return found
  })()
  return names
}

interface Def {
  type?: string
  shape?: Record<string, unknown>
  innerType?: unknown
  element?: unknown
  options?: unknown[]
  valueType?: unknown
  in?: unknown
  out?: unknown
  left?: unknown
  right?: unknown
}

/** The object field names anywhere in a zod schema (read from its definition, through wrappers). */
function fieldNames(schema: unknown, found: Set<string>, seen: Set<unknown>): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return
  seen.add(schema)
  const def = (schema as { _zod?: { def?: Def } })._zod?.def
  if (!def) return
  if (def.type === 'object' && def.shape) {
    for (const [name, field] of Object.entries(def.shape)) {
      found.add(name)
      fieldNames(field, found, seen)
    }
  }
  for (const inner of [def.innerType, def.element, def.valueType, def.in, def.out, def.left, def.right, ...(def.options ?? [])]) fieldNames(inner, found, seen)
}
