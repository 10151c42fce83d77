// Checks of a guard read (a read that decides whether a money command sends) beyond its loose
// schema. Light: imported on the start-up path of the money commands (no zod).
import { ResponseFormatError } from './errors.js'
import { redactJson } from './redact.js'

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** What a guard read's field must be: present, and of this kind. */
export type GuardField = [path: string, kind: 'object' | 'string' | 'integer' | 'amount' | 'currency']

/** Whether `value` is of `kind`: an amount is a whole number of minor units, 0 or more; a currency three capital letters (ISO 4217). */
function fitsKind(value: unknown, kind: GuardField[1]): boolean {
  switch (kind) {
    case 'object':
      return isObject(value)
    case 'string':
      return typeof value === 'string' && value !== ''
    case 'integer':
      return Number.isSafeInteger(value)
    case 'amount':
      return Number.isSafeInteger(value) && (value as number) >= 0
    case 'currency':
      return typeof value === 'string' && /^[A-Z]{3}$/.test(value)
  }
}

const EXPECTED: Record<GuardField[1], string> = {
  object: 'object',
  string: 'string',
  integer: 'integer',
  amount: 'a whole number of minor units, 0 or more',
  currency: 'a three-letter currency code',
}

/**
 * A read that decides whether a money command sends (a guard read) must hold what the decision
 * reads, beyond what its loose schema requires: each dot path present, not null, of its kind.
 * Otherwise a ResponseFormatError (the CLI's exit 7) naming the first field that is not, so
 * that nothing is sent on an answer that cannot vouch for it.
 */
export function checkGuardRead(body: unknown, at: { method: string; path: string; status?: number | undefined }, fields: readonly GuardField[]): void {
  for (const [fieldPath, kind] of fields) {
    let value: unknown = body
    for (const part of fieldPath.split('.')) value = isObject(value) ? value[part] : undefined
    if (fitsKind(value, kind)) continue
    const problem = value === undefined || value === null ? `is required (expected ${EXPECTED[kind]})` : `expected ${EXPECTED[kind]}`
    throw new ResponseFormatError({ method: at.method, path: at.path, status: at.status ?? 200, body: redactJson(body), reason: `${fieldPath}: ${problem}` })
  }
}
