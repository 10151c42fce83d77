// The shared journal's records (shared-journal.ts): one row of payfac_operations per record, the
// record as JSON (the local journal's format). A record is written only while its reservation is
// this run's and fresh: the write and that check are one statement, so a run that lost its
// reservation cannot write an intent (and so cannot send). A record's `updatedAt` is the
// database's clock. Reads and writes in flight share round trips. Also the lists and the lookup
// of `payfac journal`, with the runner holding each record's reservation, and the check that a
// record read is one payfac wrote.
import { ConfigError } from './errors.js'
import { type JournalEntry, LOCK_PAUSE_MS, LOCK_STALE_MS, type ListFilter, type Slot, runnerWords, thisRunner } from './journal-store.js'
import { Batcher } from './batcher.js'
import { parseEntryId } from './local-journal.js'
import { type OperationRecord, operationRecordSchema } from './operations.js'
import { LINGER_MS, type SharedConnection } from './shared-connection.js'
import { type HeldRow, lostError } from './shared-reservations.js'

/** The record's `updatedAt`, written by the database. */
const NOW_ISO = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

export class SharedRecords {
  constructor(private readonly connection: SharedConnection) {}

  /** The record in `slot`: the one read with its reservation (`prefetched`), or read now. */
  async read(slot: Slot, check: string | undefined, prefetched: { record: unknown } | undefined): Promise<OperationRecord | undefined> {
    const record = prefetched ? prefetched.record : await this.reads.add(slot)
    return record === undefined ? undefined : this.parse(record, `${slot.scope}/${slot.name}`, check)
  }

  /** Writes a record in `slot` while `guard` (a reservation of this run) is still this run's and fresh. */
  async write(slot: Slot, record: OperationRecord, guard: HeldRow, line: number | undefined): Promise<OperationRecord> {
    const saved = operationRecordSchema.parse({ ...record, runner: thisRunner() })
    const written = await this.writes.add({ slot, guard, record: saved, line })
    if (written === undefined) {
      guard.lostWhy ??= 'its reservation in the shared journal was no longer this run’s'
      throw lostError(slot, guard.lostWhy, this.connection.where)
    }
    return this.parse(written, `${slot.scope}/${slot.name}`)
  }

  /** The records of the slots whose names start with `prefix` in `scope` (a bulk run's rows), with their lines. */
  async readPrefix(scope: string, prefix: string): Promise<Array<{ line: number; record: OperationRecord }>> {
    const rows = await this.connection.query('SELECT line, record FROM payfac_operations WHERE scope = $1 AND starts_with(name, $2) AND line IS NOT NULL', [
      scope,
      prefix,
    ])
    return rows.map((r) => ({ line: Number(r.line), record: this.parse(r.record, `${scope}/${prefix}#${r.line}`) }))
  }

  async list(filter: ListFilter): Promise<JournalEntry[]> {
    const rows = await this.connection.query(
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
    const [row] = await this.connection.query(
      `SELECT o.scope, o.name, o.line, o.record, r.runner AS held_by FROM payfac_operations o
       LEFT JOIN payfac_reservations r ON r.scope = o.scope AND r.name = o.name AND r.beat_at > clock_timestamp() - make_interval(secs => $3)
       WHERE o.scope = $1 AND o.name = $2`,
      [slot.scope, slot.name, LOCK_STALE_MS / 1000],
    )
    return row ? this.entry(row) : undefined
  }

  /** Reads together (each its own statement's snapshot, taken after its reservation). */
  private readonly reads = new Batcher<Slot, unknown>(
    async (slots) => {
      const found = await this.connection.query(
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
      const written = await this.connection.query(
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
    throw new ConfigError(
      `The record ${id} of the shared journal ${this.connection.where} is not one payfac wrote. Nothing was sent; it has been left as it is.`,
      {
        reason: 'damaged-store',
        hint: check ? `Check on the service what the operation did with: ${check}.` : 'Check on the service what the operation did (its list command).',
      },
    )
  }
}

/** `<scope>/<bulk name>#<line>`: a bulk row's record. */
function parseRowId(id: string): Slot | undefined {
  const match = /^([a-f0-9]{20})\/(bulk-[A-Za-z0-9_-]{1,120}#\d{1,9})$/.exec(id.trim())
  return match ? { scope: match[1] as string, name: match[2] as string } : undefined
}
