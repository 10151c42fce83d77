// Identifiers: `<prefix>_` + 16 URL-safe base64 characters, e.g. `ordr_ZqCNoNcm_22WeZ-j`.
// The real generator is random; tests inject a seeded one so that ids repeat run after run.
//
// An id is built with `join`, not `+` or a template: V8 keeps `a + b` of 13 characters or more
// as a pair of pointers (a "cons string") and copies it into one piece the first time it is
// read whole (a JSON or CSV answer). Stored records live in the old generation, so that copy
// would be made there too, once per record, and stay: a first report of 1 000 000 seeded
// ledger entries grew the heap by 84 MiB that way. `join` writes the text in one piece at once.
import { createHash, randomBytes } from 'node:crypto'

export interface IdGenerator {
  /** A new identifier `<prefix>_<16 url-safe base64 chars>`. The prefix is given without the underscore. */
  next(prefix: string): string
  /** `count` URL-safe base64 characters, for secrets (keys, tokens). */
  secret(count: number): string
  /** A UUID (version 4 layout), for identifiers the banking network issues (PayTo agreement uid). */
  uuid(): string
}

export const ID_BODY_LENGTH = 16
// The ids it makes have 16 characters after the prefix; ids it is given (fixtures) may have any
// number, as the contract's ids are opaque and a real service's may be longer.
const ID_PATTERN = /^[a-z0-9]+_[A-Za-z0-9_-]+$/

export function isId(value: string, prefix?: string): boolean {
  return ID_PATTERN.test(value) && (prefix === undefined || value.startsWith(`${prefix}_`))
}

function build(bytes: (n: number) => Buffer): IdGenerator {
  const chars = (count: number) =>
    bytes(Math.ceil((count * 3) / 4))
      .toString('base64url')
      .slice(0, count)
  return {
    next: (prefix) => [prefix, chars(ID_BODY_LENGTH)].join('_'),
    secret: chars,
    uuid() {
      const b = bytes(16)
      b[6] = (b[6]! & 0x0f) | 0x40
      b[8] = (b[8]! & 0x3f) | 0x80
      const h = b.toString('hex')
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
    },
  }
}

/** Random bytes drawn from the system's source this many at a time (one call per id would cost more than the rest of a request). */
const RANDOM_POOL_BYTES = 4096

export function randomIds(): IdGenerator {
  let pool = randomBytes(RANDOM_POOL_BYTES)
  let used = 0
  return build((n) => {
    if (n > RANDOM_POOL_BYTES) return randomBytes(n)
    if (used + n > RANDOM_POOL_BYTES) {
      pool = randomBytes(RANDOM_POOL_BYTES)
      used = 0
    }
    used += n
    // Each byte is handed out once, and every caller turns its bytes into text at once.
    return pool.subarray(used - n, used)
  })
}

/** Deterministic ids: the same seed gives the same sequence. */
export function seededIds(seed = 'payfac-emulator'): IdGenerator {
  let counter = 0
  return build((n) => {
    const out = Buffer.alloc(n)
    let filled = 0
    while (filled < n) {
      const block = createHash('sha256').update(`${seed}:${counter++}`).digest()
      filled += block.copy(out, filled, 0, Math.min(block.length, n - filled))
    }
    return out
  })
}
