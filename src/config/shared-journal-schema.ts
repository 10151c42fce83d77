// The shared journal's schema in PostgreSQL, its version, and what a database problem means to a
// user. Three tables, created on first use (or by `payfac journal init`) under an advisory lock,
// so that runners starting together on an empty database create them once:
//
//   payfac_journal_meta    name → value; ('schema', '1') is the version this payfac reads
//   payfac_operations      one row per record: (scope, name) as the local journal's folder and
//                          file, the record as JSON (the local journal's format), its state,
//                          result id, the runner that wrote it, and the database's time
//   payfac_reservations    one row per reservation held: (scope, name), the holder (a random tag
//                          per reservation), its runner, and the time of its last beat; a row
//                          whose beat is older than LOCK_STALE_MS was left by a runner that died
//
// Every problem (unreachable, refused credentials, no such database, a schema of another version
// or of someone else's tables, permission denied) is a ConfigError: exit 3, nothing sent, never a
// silent fall-back to the local journal.
import { ConfigError } from './errors.js'
import { JOURNAL_URL_ENV } from './journal-url.js'

/** The version of the tables this payfac reads and writes. */
export const SHARED_SCHEMA_VERSION = 1

/** What a query runs through: the tagged template of the `postgres` client (shared-journal.ts), as unsafe text here. */
export interface Unsafe {
  unsafe(query: string, parameters?: unknown[]): Promise<Array<Record<string, unknown>>>
}

/** A client that can also run a transaction on one connection. */
export interface Client extends Unsafe {
  begin<T>(work: (tx: Unsafe) => Promise<T>): Promise<T>
}

const CREATE = [
  `CREATE TABLE IF NOT EXISTS payfac_journal_meta (name text PRIMARY KEY, value text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS payfac_operations (
     scope text NOT NULL,
     name text NOT NULL,
     kind text NOT NULL,
     state text NOT NULL,
     result_id text,
     line integer,
     record jsonb NOT NULL,
     runner text NOT NULL,
     updated_at timestamptz NOT NULL,
     PRIMARY KEY (scope, name))`,
  `CREATE INDEX IF NOT EXISTS payfac_operations_updated ON payfac_operations (updated_at DESC)`,
  `CREATE TABLE IF NOT EXISTS payfac_reservations (
     scope text NOT NULL,
     name text NOT NULL,
     holder text NOT NULL,
     runner text NOT NULL,
     taken_at timestamptz NOT NULL,
     beat_at timestamptz NOT NULL,
     PRIMARY KEY (scope, name))`,
]

/** The tables and the columns payfac uses, to tell its own tables from someone else's of the same name. */
const EXPECTED_COLUMNS: Record<string, string[]> = {
  payfac_operations: ['scope', 'name', 'kind', 'state', 'result_id', 'line', 'record', 'runner', 'updated_at'],
  payfac_reservations: ['scope', 'name', 'holder', 'runner', 'taken_at', 'beat_at'],
}

/** What `openSchema` found: the database's clock against this machine's, for "made meanwhile". */
export interface SchemaCheck {
  /** The database's now minus this machine's, in ms (measured at the middle of the round trip). */
  offsetMs: number
  /** Half the round trip: how far off the offset may be. */
  uncertaintyMs: number
  /** The tables were made by this run. */
  created: boolean
}

/**
 * Checks the schema (its version, that payfac may read and write the tables); creates it when
 * there is none and `create` is true (otherwise a ConfigError naming `payfac journal init`).
 */
export async function openSchema(sql: Client, where: string, create = true): Promise<SchemaCheck> {
  const tables = await sql
    .unsafe(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
       AND table_name IN ('payfac_journal_meta', 'payfac_operations', 'payfac_reservations')`,
    )
    .catch((error: unknown) => {
      throw databaseProblem(error, where)
    })
  let created = false
  if (tables.length === 0) {
    if (!create) throw databaseProblem(Object.assign(new Error('no tables'), { code: '42P01' }), where)
    await createSchema(sql, where)
    created = true
  } else if (tables.length < 3) {
    const have = tables.map((t) => String(t.table_name)).sort()
    throw wrongSchema(where, `it has ${have.join(' and ')} but not all of payfac's tables`)
  }
  await checkColumns(sql, where)
  const sentAt = Date.now()
  const rows = await sql.unsafe(CHECK).catch((error: unknown) => {
    throw databaseProblem(error, where)
  })
  const receivedAt = Date.now()
  const row = rows[0] ?? {}
  const version = row.version === null || row.version === undefined ? undefined : Number(row.version)
  if (version === undefined) throw wrongSchema(where, 'payfac_journal_meta has no schema version: the tables are not ones payfac made')
  if (version !== SHARED_SCHEMA_VERSION) {
    throw wrongSchema(
      where,
      version > SHARED_SCHEMA_VERSION
        ? `its schema is version ${version}, made by a newer payfac (this one reads version ${SHARED_SCHEMA_VERSION})`
        : `its schema is version ${version}, older than this payfac's ${SHARED_SCHEMA_VERSION}`,
    )
  }
  await checkColumns(sql, where)
  if (row.allowed !== true) {
    throw new ConfigError(`Permission denied on the shared journal ${where}: this database user may not read and write payfac's tables. Nothing was sent.`, {
      reason: 'invalid',
      hint: 'Grant it SELECT, INSERT, UPDATE and DELETE on payfac_operations and payfac_reservations (and SELECT on payfac_journal_meta), or use the user that ran `payfac journal init`.',
    })
  }
  const now = Number(row.now)
  return { offsetMs: now - (sentAt + receivedAt) / 2, uncertaintyMs: (receivedAt - sentAt) / 2 + 1, created }
}

const CHECK = `SELECT
  (SELECT value FROM payfac_journal_meta WHERE name = 'schema') AS version,
  (has_table_privilege('payfac_operations', 'SELECT, INSERT, UPDATE')
    AND has_table_privilege('payfac_reservations', 'SELECT, INSERT, UPDATE, DELETE')) AS allowed,
  (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now`

async function createSchema(sql: Client, where: string): Promise<void> {
  try {
    await sql.begin(async (tx) => {
      // Runners that start together on an empty database make the tables once.
      await tx.unsafe(`SELECT pg_advisory_xact_lock(hashtext('payfac_journal_schema'))`)
      for (const statement of CREATE) await tx.unsafe(statement)
      await tx.unsafe(`INSERT INTO payfac_journal_meta (name, value) VALUES ('schema', $1) ON CONFLICT (name) DO NOTHING`, [String(SHARED_SCHEMA_VERSION)])
    })
  } catch (error) {
    throw databaseProblem(error, where, 'create the tables')
  }
}

async function checkColumns(sql: Unsafe, where: string): Promise<void> {
  const rows = await sql
    .unsafe(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name IN (SELECT jsonb_array_elements_text($1::jsonb))`,
      [Object.keys(EXPECTED_COLUMNS)],
    )
    .catch((error: unknown) => {
      throw databaseProblem(error, where)
    })
  for (const [table, columns] of Object.entries(EXPECTED_COLUMNS)) {
    const have = new Set(rows.filter((r) => r.table_name === table).map((r) => String(r.column_name)))
    const missing = columns.filter((c) => !have.has(c))
    if (missing.length > 0) throw wrongSchema(where, `${table} has no column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`)
  }
}

function wrongSchema(where: string, why: string): ConfigError {
  return new ConfigError(`The shared journal ${where} has the wrong schema: ${why}. Nothing was sent.`, {
    reason: 'invalid',
    hint: `Point ${JOURNAL_URL_ENV} at a database (or schema) of payfac's own, and run \`payfac journal init\` there; upgrade payfac where a newer one made it.`,
  })
}

/** The SQLSTATE of a database error, or the system error's code (ECONNREFUSED …). */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' ? code : undefined
}

/** A database problem in words, as a ConfigError (exit 3): nothing was sent. */
export function databaseProblem(error: unknown, where: string, doing = 'use it'): ConfigError {
  if (error instanceof ConfigError) return error
  const code = codeOf(error)
  const message = error instanceof Error ? error.message : String(error)
  const unreachable = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'ENOENT'])
  if (code && (unreachable.has(code) || code.startsWith('CONNECT') || code.startsWith('CONNECTION') || code === '57P01' || code === '57P03')) {
    return new ConfigError(`The shared journal ${where} cannot be reached (${code}); payfac sends nothing while it cannot write its journal.`, {
      reason: 'invalid',
      hint: `Start the database or check ${JOURNAL_URL_ENV}; payfac does not fall back to the local journal while a shared one is set (unset ${JOURNAL_URL_ENV} to use the local one on purpose).`,
      cause: error,
    })
  }
  if (code === '28P01' || code === '28000') {
    return new ConfigError(`The shared journal ${where} refused the database user's credentials (${code}): nothing was sent.`, {
      reason: 'invalid',
      hint: 'Check the user and its password (PGPASSWORD, or the URL).',
      cause: error,
    })
  }
  if (code === '3D000') {
    return new ConfigError(`The shared journal's database does not exist (${where}): nothing was sent.`, {
      reason: 'invalid',
      hint: 'Create it (createdb), or fix the database name in the URL.',
      cause: error,
    })
  }
  if (code === '42P01') {
    return new ConfigError(`The shared journal ${where} has no payfac tables yet: nothing was sent.`, {
      reason: 'invalid',
      hint: 'Run `payfac journal init` (a money command also creates them on first use when its user may).',
      cause: error,
    })
  }
  if (code === '42501') {
    return new ConfigError(`Permission denied on the shared journal ${where} (trying to ${doing}): nothing was sent.`, {
      reason: 'invalid',
      hint: 'Run `payfac journal init` as a user that may create tables, then grant this user SELECT, INSERT, UPDATE and DELETE on them.',
      cause: error,
    })
  }
  return new ConfigError(`The shared journal ${where} failed (${code ?? 'error'}: ${message}); payfac sends nothing while it cannot write its journal.`, {
    reason: 'invalid',
    hint: `Check the database; payfac does not fall back to the local journal while ${JOURNAL_URL_ENV} is set.`,
    cause: error,
  })
}
