// `--query`: a JMESPath expression over the JSON output (the bare record, or the list's array).
import jmespath from 'jmespath'

/** A --query expression that is not valid JMESPath. Thrown before anything is sent. */
export class QueryError extends Error {
  override name = 'QueryError'
}

/** Checks an expression, so that a typo is a usage error before any request. */
export function checkQuery(expression: string): string {
  try {
    jmespath.search({}, expression)
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ').trim() : String(error)
    throw new QueryError(`--query is not a valid JMESPath expression (${reason}): ${expression}`)
  }
  return expression
}

/**
 * The result as text: a string on its own as plain text (so `ID=$(… --query orderId)` needs no
 * unquoting), anything else as indented JSON. A query that selects nothing prints `null`, as
 * JMESPath's own command-line tool and aws do, so that a script reads an answer, never an empty
 * line it could take for a value; `nothing` says so, for the caller's line on stderr.
 */
export function queryResult(expression: string, data: unknown): { text: string; nothing: boolean } {
  const result: unknown = jmespath.search(data as never, expression)
  if (result === null || result === undefined) return { text: 'null\n', nothing: true }
  if (typeof result === 'string') return { text: `${result}\n`, nothing: false }
  return { text: `${JSON.stringify(result, null, 2)}\n`, nothing: false }
}

/** The line for stderr when a query selected nothing. */
export function nothingSelected(expression: string): string {
  return `--query ${JSON.stringify(expression)} selected nothing: printed null`
}

/** The expression on its own data. */
export function search(expression: string, data: unknown): unknown {
  return jmespath.search(data as never, expression)
}

/**
 * For a plain projection over the list (`[].expr` or `[*].expr`, where `expr` has no pipe and no
 * projection of its own), the expression to apply to each record; undefined for anything else.
 * Records whose result is null are left out, as JMESPath's projections do.
 */
export function projectionOf(expression: string): string | undefined {
  const match = /^\s*\[\*?\]\s*\.\s*(.+?)\s*$/.exec(expression)
  const each = match?.[1]
  if (!each || /[|`'"]|\[\s*\*?\s*\]|\[\s*\?/.test(each)) return undefined
  return each
}
