// The shared journal: the operation journal's records and reservations in PostgreSQL (schema:
// shared-journal-schema.ts), through the `postgres` client, loaded only by the commands that use
// it (cli/safety/open-journal.ts). The same rules as the local journal (local-journal.ts):
//
//   - a reservation is a row of payfac_reservations, taken with one INSERT … ON CONFLICT that
//     succeeds only when there is none or the one there is stale (no beat for LOCK_STALE_MS: its
//     runner died); the others see it held, say so once and poll, at most `waitMs`;
//   - a holder beats every LOCK_UPDATE_MS (one UPDATE for every reservation it holds); a beat
//     that fails or finds a reservation gone makes `lost()` say why, and a holder whose clock
//     jumped (paused) is lost too;
//   - a record is written only while its reservation is this run's and fresh: the write and that
//     check are one statement, so a run that lost its reservation cannot write an intent (and so
//     cannot send);
//   - a record's `updatedAt` is the database's clock, and `startedAt()` is this process's start
//     on that clock (measured when the journal is opened), so that "written meanwhile" compares
//     times of one clock across machines.
// Rows in flight share round trips: reservations, writes and releases that arrive while one is on
// the wire go together in the next (a bulk run's rows, batched).
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'

import { Batcher } from './batcher.js'
import { ConfigError } from './errors.js'
import {
  type Held,
  type JournalEntry,
  type JournalStore,
  LOCK_PAUSE_MS,
  LOCK_STALE_MS,
  LOCK_UPDATE_MS,
  type ListFilter,
  LockWaitError,
  type ReserveWords,
  type Slot,
  runnerWords,
  thisRunner,
} from './journal-store.js'
import { redactJournalUrl } from './journal-url.js'
import { parseEntryId, runStart } from './local-journal.js'
import { type OperationRecord, operationRecordSchema } from './operations.js'
import { type Client, databaseProblem, openSchema } from './shared-journal-schema.js'

/** How long a batch's first item waits for the other rows in flight to reach the same step (PAYFAC_JOURNAL_LINGER_MS, for measuring). */
const LINGER_MS = Number(process.env.PAYFAC_JOURNAL_LINGER_MS ?? 2)

/** A query that has not answered in this long counts as a database gone away. */
const QUERY_TIMEOUT_MS = 15_000

/** The record's `updatedAt`, written by the database. */
const NOW_ISO = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The reservation was no longer this run's when a record was to be written: nothing was sent (the CLI's exit 7). */
export class ReservationLostError extends ConfigError {
  override name = 'ReservationLostError'
}

interface HeldRow {
  slot: Slot
  holder: string
  /** The record read right after the reservation was taken (in the reservation's batch), until the first read takes it. */
  prefetched?: { record: unknown } | undefined
  /** Why it is no longer this run's, once known. */
  lostWhy?: string | undefined
}

/** Opens the shared journal at `url` (from `origin`): connects, checks (or makes) the schema; a ConfigError (exit 3) otherwise. */
export async function openSharedJournal(url: string, origin: string, options: { create?: boolean; startedAt?: number } = {}): Promise<SharedJournal> {
  const where = redactJournalUrl(url)
  const sql = postgres(url, {
    max: 4,
    connect_timeout: 10,
    idle_timeout: 0,
    fetch_types: false,
    onnotice: () => undefined,
    // An intent is on disk before its request leaves: this session commits durably whatever the
    // server's default (a server run with synchronous_commit off could lose the last intents in a crash).
    connection: { application_name: 'payfac', synchronous_commit: 'on' },
  })
  try {
    const check = await timed(openSchema(sql as unknown as Client, where, options.create ?? true), where)
    return new SharedJournal(sql, where, origin, (options.startedAt ?? runStart()) + check.offsetMs - check.uncertaintyMs, check.created)
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => undefined)
    throw databaseProblem(error, where)
  }
}

export class SharedJournal implements JournalStore {
  readonly kind = 'shared' as const
  private readonly held = new Map<string, HeldRow>()
  private readonly rows = new WeakMap<Held, HeldRow>()
  private beat: NodeJS.Timeout | undefined
  private lastBeat = Date.now()
  private beatFailed: string | undefined

  constructor(
    private readonly sql: postgres.Sql,
    readonly where: string,
    readonly origin: string,
    /** When this run started (local-journal.ts runStart), on the database's clock, taken early by the measure's uncertainty. */
    private readonly runStartedAt: number,
    readonly created: boolean,
  ) {}

  startedAt(): number {
    return this.runStartedAt
  }

  async reserve(slot: Slot, words: ReserveWords): Promise<{ held: Held; release: () => Promise<void> }> {
    const row: HeldRow = { slot, holder: `${thisRunner().tag}-${randomBytes(6).toString('hex')}` }
    const deadline = Date.now() + words.waitMs
    let waited = false
    let pause = 25
    while (!(await this.reservations.add(row))) {
      if (!waited) {
        waited = true
        words.onWait()
      }
      if (Date.now() >= deadline) {
        throw new LockWaitError(`Another payfac run of ${words.what} was still in flight after ${Math.round(words.waitMs / 1000)} s; nothing was sent.`, {
          hint: `Run the command again once it has finished: it then reports what that run did. A reservation left by a runner that died is taken over after ${LOCK_STALE_MS / 1000} s.`,
        })
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause + Math.floor(Math.random() * pause), Math.max(1, deadline - Date.now()))))
      pause = Math.min(pause * 2, 250)
    }
    this.held.set(row.holder, row)
    this.startBeating()
    const held: Held = { waited, lost: () => this.lostWhy(row) }
    this.rows.set(held, row)
    return {
      held,
      release: async () => {
        this.held.delete(row.holder)
        if (this.held.size === 0) this.stopBeating()
        await this.releases.add(row.holder).catch(() => undefined)
      },
    }
  }

  async read(slot: Slot, check?: string): Promise<OperationRecord | undefined> {
    // Read once right after the reservation, by the statement after the one that took it (so its
    // snapshot holds whatever the last holder wrote); no one else writes while it is held.
    const mine = [...this.held.values()].find((r) => r.prefetched && r.slot.scope === slot.scope && r.slot.name === slot.name)
    const prefetched = mine?.prefetched
    if (mine) mine.prefetched = undefined
    const record = prefetched ? prefetched.record : await this.reads.add(slot)
    return record === undefined ? undefined : this.parse(record, `${slot.scope}/${slot.name}`, check)
  }

  async write(slot: Slot, record: OperationRecord, held: Held): Promise<OperationRecord> {
    return this.put(slot, record, held, undefined)
  }

  /**
   * Writes a record in `slot` while `held` is this run's: its own reservation, or (a bulk run's
   * row, `line`) the reservation of the run's file. Rows in flight share one statement.
   */
  async put(slot: Slot, record: OperationRecord, held: Held, line: number | undefined): Promise<OperationRecord> {
    const row = this.rows.get(held)
    const why = row && this.held.has(row.holder) ? this.lostWhy(row) : 'it was released'
    if (!row || why !== undefined || (line === undefined && (row.slot.scope !== slot.scope || row.slot.name !== slot.name))) {
      throw lostError(slot, why ?? 'another slot', this.where)
    }
    const saved = operationRecordSchema.parse({ ...record, runner: thisRunner() })
    const written = await this.writes.add({ slot, guard: row, record: saved, line })
    if (written === undefined) {
      row.lostWhy ??= 'its reservation in the shared journal was no longer this run’s'
      throw lostError(slot, row.lostWhy, this.where)
    }
    return this.parse(written, `${slot.scope}/${slot.name}`)
  }

  /** The records of the slots whose names start with `prefix` in `scope` (a bulk run's rows), with their lines. */
  async readPrefix(scope: string, prefix: string): Promise<Array<{ line: number; record: OperationRecord }>> {
    const rows = await this.query('SELECT line, record FROM payfac_operations WHERE scope = $1 AND starts_with(name, $2) AND line IS NOT NULL', [scope, prefix])
    return rows.map((r) => ({ line: Number(r.line), record: this.parse(r.record, `${scope}/${prefix}#${r.line}`) }))
  }

  /** Reservations tried together: taken (true) or held by another run (false). */
  private readonly reservations = new Batcher<HeldRow, boolean>(
    async (rows) => {
      const taken = await this.query(
        `INSERT INTO payfac_reservations AS r (scope, name, holder, runner, taken_at, beat_at)
         SELECT v.s, v.n, v.h, $2, clock_timestamp(), clock_timestamp() FROM jsonb_to_recordset($1::jsonb) AS v(s text, n text, h text)
         ON CONFLICT (scope, name) DO UPDATE SET holder = EXCLUDED.holder, runner = EXCLUDED.runner, taken_at = EXCLUDED.taken_at, beat_at = EXCLUDED.beat_at
         WHERE r.beat_at < clock_timestamp() - make_interval(secs => $3)
         RETURNING holder`,
        [rows.map((r) => ({ s: r.slot.scope, n: r.slot.name, h: r.holder })), runnerWords(thisRunner()), LOCK_STALE_MS / 1000],
      )
      const won = new Set(taken.map((t) => String(t.holder)))
      const mine = rows.filter((r) => won.has(r.holder))
      if (mine.length > 0) {
        // A statement of its own, after the reservations are committed: its snapshot sees what the last holders wrote.
        const found = await this.query(
          `SELECT o.scope, o.name, o.record FROM payfac_operations o
           JOIN jsonb_to_recordset($1::jsonb) AS v(s text, n text) ON o.scope = v.s AND o.name = v.n`,
          [mine.map((r) => ({ s: r.slot.scope, n: r.slot.name }))],
        )
        const by = new Map(found.map((f) => [`${f.scope}/${f.name}`, f.record]))
        for (const r of mine) r.prefetched = { record: by.get(`${r.slot.scope}/${r.slot.name}`) }
      }
      return rows.map((r) => won.has(r.holder))
    },
    (row) => `${row.slot.scope}/${row.slot.name}`,
    500,
    LINGER_MS,
  )

  /** Reads together (each its own statement's snapshot, taken after its reservation). */
  private readonly reads = new Batcher<Slot, unknown>(
    async (slots) => {
      const found = await this.query(
        `SELECT o.scope, o.name, o.record FROM payfac_operations o
         JOIN jsonb_to_recordset($1::jsonb) AS v(s text, n text) ON o.scope = v.s AND o.name = v.n`,
        [slots.map((slot) => ({ s: slot.scope, n: slot.name }))],
      )
      const by = new Map(found.map((f) => [`${f.scope}/${f.name}`, f.record]))
      return slots.map((slot) => by.get(`${slot.scope}/${slot.name}`))
    },
    (slot) => `${slot.scope}/${slot.name}`,
    500,
    LINGER_MS,
  )

  /** Writes together, each only while its guarding reservation is this run's and fresh; undefined for one that was not. */
  private readonly writes = new Batcher<{ slot: Slot; guard: HeldRow; record: OperationRecord; line: number | undefined }, unknown>(
    async (items) => {
      const values = items.map((i) => ({
        s: i.slot.scope,
        n: i.slot.name,
        gs: i.guard.slot.scope,
        gn: i.guard.slot.name,
        h: i.guard.holder,
        k: i.record.kind,
        st: i.record.state,
        rid: i.record.resultId,
        line: i.line ?? null,
        rec: i.record,
        runner: runnerWords(i.record.runner),
      }))
      const written = await this.query(
        `INSERT INTO payfac_operations (scope, name, kind, state, result_id, line, record, runner, updated_at)
         SELECT v.s, v.n, v.k, v.st, v.rid, v.line, v.rec || jsonb_build_object('updatedAt', ${NOW_ISO}), v.runner, clock_timestamp()
         FROM jsonb_to_recordset($1::jsonb) AS v(s text, n text, gs text, gn text, h text, k text, st text, rid text, line integer, rec jsonb, runner text)
         WHERE EXISTS (SELECT 1 FROM payfac_reservations r WHERE r.scope = v.gs AND r.name = v.gn AND r.holder = v.h
                       AND r.beat_at > clock_timestamp() - make_interval(secs => $2))
         ON CONFLICT (scope, name) DO UPDATE SET kind = EXCLUDED.kind, state = EXCLUDED.state, result_id = EXCLUDED.result_id,
           line = EXCLUDED.line, record = EXCLUDED.record, runner = EXCLUDED.runner, updated_at = EXCLUDED.updated_at
         RETURNING scope, name, record`,
        [values, LOCK_PAUSE_MS / 1000],
      )
      const by = new Map(written.map((w) => [`${w.scope}/${w.name}`, w.record]))
      return items.map((i) => by.get(`${i.slot.scope}/${i.slot.name}`))
    },
    (item) => `${item.slot.scope}/${item.slot.name}`,
    500,
    LINGER_MS,
  )

  /** Releases together. */
  private readonly releases = new Batcher<string, void>(
    async (holders) => {
      await this.query('DELETE FROM payfac_reservations WHERE holder IN (SELECT jsonb_array_elements_text($1::jsonb))', [holders])
      return holders.map(() => undefined)
    },
    (holder) => holder,
    500,
    LINGER_MS,
  )

  async list(filter: ListFilter): Promise<JournalEntry[]> {
    const rows = await this.query(
      `SELECT o.scope, o.name, o.line, o.record, r.runner AS held_by FROM payfac_operations o
       LEFT JOIN payfac_reservations r ON r.scope = o.scope AND r.name = o.name AND r.beat_at > clock_timestamp() - make_interval(secs => $4)
       WHERE ($1::jsonb IS NULL OR o.state IN (SELECT jsonb_array_elements_text($1::jsonb))) AND ($2::text IS NULL OR o.kind = $2)
       ORDER BY o.updated_at DESC LIMIT $3`,
      [filter.states ? [...filter.states] : null, filter.kind ?? null, filter.limit, LOCK_STALE_MS / 1000],
    )
    return rows.map((r) => this.entry(r))
  }

  async show(id: string): Promise<JournalEntry | undefined> {
    const slot = parseEntryId(id) ?? parseRowId(id)
    if (!slot) return undefined
    const [row] = await this.query(
      `SELECT o.scope, o.name, o.line, o.record, r.runner AS held_by FROM payfac_operations o
       LEFT JOIN payfac_reservations r ON r.scope = o.scope AND r.name = o.name AND r.beat_at > clock_timestamp() - make_interval(secs => $3)
       WHERE o.scope = $1 AND o.name = $2`,
      [slot.scope, slot.name, LOCK_STALE_MS / 1000],
    )
    return row ? this.entry(row) : undefined
  }

  async close(): Promise<void> {
    this.stopBeating()
    await this.sql.end({ timeout: 2 }).catch(() => undefined)
  }

  /** Runs one statement, bounded in time; a failure is a ConfigError (exit 3) naming the database. */
  async query(text: string, parameters: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    try {
      return (await timed(this.sql.unsafe(text, parameters as never[]), this.where)) as unknown as Array<Record<string, unknown>>
    } catch (error) {
      throw databaseProblem(error, this.where)
    }
  }

  private entry(row: Record<string, unknown>): JournalEntry {
    const id = `${row.scope}/${row.name}`
    return {
      id,
      record: this.parse(row.record, id),
      line: typeof row.line === 'number' ? row.line : undefined,
      heldBy: typeof row.held_by === 'string' ? row.held_by : undefined,
    }
  }

  private parse(value: unknown, id: string, check?: string): OperationRecord {
    const parsed = operationRecordSchema.safeParse(typeof value === 'string' ? JSON.parse(value) : value)
    if (parsed.success) return parsed.data
    throw new ConfigError(`The record ${id} of the shared journal ${this.where} is not one payfac wrote. Nothing was sent; it has been left as it is.`, {
      reason: 'damaged-store',
      hint: check ? `Check on the service what the operation did with: ${check}.` : 'Check on the service what the operation did (its list command).',
    })
  }

  private lostWhy(row: HeldRow): string | undefined {
    if (row.lostWhy !== undefined) return row.lostWhy
    const gap = Date.now() - this.lastBeat
    if (gap > LOCK_PAUSE_MS) {
      return this.beatFailed
        ? `the shared journal has not answered for ${Math.round(gap / 1000)} s (${this.beatFailed})`
        : `this run was paused for ${Math.round(gap / 1000)} s while it held the reservation`
    }
    return undefined
  }

  private startBeating(): void {
    if (this.beat) return
    this.lastBeat = Date.now()
    let beating = false
    this.beat = setInterval(() => {
      if (beating) return
      beating = true
      void this.beatOnce().finally(() => {
        beating = false
      })
    }, LOCK_UPDATE_MS)
    this.beat.unref()
  }

  private stopBeating(): void {
    if (this.beat) clearInterval(this.beat)
    this.beat = undefined
  }

  private async beatOnce(): Promise<void> {
    const holders = [...this.held.keys()]
    if (holders.length === 0) return
    const sentAt = Date.now()
    // A beat that leaves after a pause must not hide it: the pause is judged from the last beat.
    if (sentAt - this.lastBeat > LOCK_PAUSE_MS) {
      for (const row of this.held.values())
        row.lostWhy ??= `this run was paused for ${Math.round((sentAt - this.lastBeat) / 1000)} s while it held the reservation`
    }
    try {
      const rows = await this.query(
        'UPDATE payfac_reservations SET beat_at = clock_timestamp() WHERE holder IN (SELECT jsonb_array_elements_text($1::jsonb)) RETURNING holder',
        [holders],
      )
      const still = new Set(rows.map((r) => String(r.holder)))
      for (const holder of holders) {
        const row = this.held.get(holder)
        if (row && !still.has(holder)) row.lostWhy ??= 'its reservation was taken over by another payfac run'
      }
      this.lastBeat = sentAt
      this.beatFailed = undefined
    } catch (error) {
      this.beatFailed = error instanceof Error ? error.message : String(error)
    }
  }
}

/** `<scope>/<bulk name>#<line>`: a bulk row's record. */
function parseRowId(id: string): Slot | undefined {
  const match = /^([a-f0-9]{20})\/(bulk-[A-Za-z0-9_-]{1,120}#\d{1,9})$/.exec(id.trim())
  return match ? { scope: match[1] as string, name: match[2] as string } : undefined
}

function lostError(slot: Slot, why: string, where: string): ReservationLostError {
  return new ReservationLostError(
    `This payfac run no longer holds the reservation of ${slot.scope}/${slot.name} in the shared journal ${where} (${why}). Nothing was sent.`,
    {
      hint: 'Run the same command again once the other run has finished: it then reports what was done.',
    },
  )
}

/** `work`, or a rejection once QUERY_TIMEOUT_MS has passed without an answer. */
function timed<T>(work: Promise<T>, where: string): Promise<T> {
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
