// The shared journal's connection to PostgreSQL (opened with the `postgres` client by
// shared-journal.ts, the only file that loads it): the settings it is opened with, every statement
// bounded in time, and a failure turned into a ConfigError naming the database (exit 3;
// shared-journal-schema.ts says what each problem means). Also how long a batch of rows in flight
// waits for the others, for the records (shared-records.ts) and reservations
// (shared-reservations.ts) that share round trips.
import { databaseProblem } from './shared-journal-schema.js'

/** How long a batch's first item waits for the other rows in flight to reach the same step (PAYFAC_JOURNAL_LINGER_MS, for measuring). */
export const LINGER_MS = Number(process.env.PAYFAC_JOURNAL_LINGER_MS ?? 2)

/** A query that has not answered in this long counts as a database gone away. */
const QUERY_TIMEOUT_MS = 15_000

/** How the `postgres` client is opened for the shared journal. */
export const CONNECTION_OPTIONS = {
  max: 4,
  connect_timeout: 10,
  idle_timeout: 0,
  fetch_types: false,
  onnotice: () => undefined,
  // An intent is on disk before its request leaves: this session commits durably whatever the
  // server's default (a server run with synchronous_commit off could lose the last intents in a crash).
  connection: { application_name: 'payfac', synchronous_commit: 'on' },
}

/** What the connection needs of the `postgres` client: statements as text, and its end. */
export interface Connectable {
  unsafe(query: string, parameters?: unknown[]): PromiseLike<unknown>
  end(options: { timeout: number }): Promise<void>
}

/** One open connection (a pool of `CONNECTION_OPTIONS.max`) to the database named `where` (redacted). */
export class SharedConnection {
  constructor(
    private readonly sql: Connectable,
    readonly where: string,
  ) {}

  /** Runs one statement, bounded in time; a failure is a ConfigError (exit 3) naming the database. */
  async query(text: string, parameters: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    try {
      return (await timed(this.sql.unsafe(text, parameters as never[]), this.where)) as unknown as Array<Record<string, unknown>>
    } catch (error) {
      throw databaseProblem(error, this.where)
    }
  }

  /** Closes the connection, waiting at most `timeoutS` seconds for statements under way; never fails. */
  async end(timeoutS: number): Promise<void> {
    await this.sql.end({ timeout: timeoutS }).catch(() => undefined)
  }
}

/** `work`, or a rejection once QUERY_TIMEOUT_MS has passed without an answer. */
export function timed<T>(work: PromiseLike<T>, where: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer from ${where} within ${QUERY_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })),
      QUERY_TIMEOUT_MS,
    )
    timer.unref()
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
