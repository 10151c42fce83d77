// The shared journal's reservations (shared-journal.ts): a reservation is a row of
// payfac_reservations, taken with one INSERT … ON CONFLICT that succeeds only when there is none or
// the one there is stale (no beat for LOCK_STALE_MS: its runner died); the others see it held, say
// so once and poll, at most `waitMs`. A holder beats every LOCK_UPDATE_MS (one UPDATE for every
// reservation it holds); a beat that fails or finds a reservation gone, or a pause of this process
// (its clock jumped), makes `lost()` say why, and a record is then no longer written under it
// (`guard`, ReservationLostError). Reservations and releases in flight share round trips; the
// record last written in a slot is read right after its reservation is taken, in the same batch.
import { randomBytes } from 'node:crypto'

import { Batcher } from './batcher.js'
import { ConfigError } from './errors.js'
import {
  type Held,
  LOCK_PAUSE_MS,
  LOCK_STALE_MS,
  LOCK_UPDATE_MS,
  LockWaitError,
  type ReserveWords,
  type Slot,
  runnerWords,
  thisRunner,
} from './journal-store.js'
import { LINGER_MS, type SharedConnection } from './shared-connection.js'

/** The reservation was no longer this run's when a record was to be written: nothing was sent (the CLI's exit 7). */
export class ReservationLostError extends ConfigError {
  override name = 'ReservationLostError'
}

/** A reservation this run holds (or held). */
export interface HeldRow {
  slot: Slot
  holder: string
  /** The record read right after the reservation was taken (in the reservation's batch), until the first read takes it. */
  prefetched?: { record: unknown } | undefined
  /** Why it is no longer this run's, once known. */
  lostWhy?: string | undefined
}

export class SharedReservations {
  private readonly held = new Map<string, HeldRow>()
  private readonly rows = new WeakMap<Held, HeldRow>()
  private beat: NodeJS.Timeout | undefined
  private lastBeat = Date.now()
  private beatFailed: string | undefined

  constructor(private readonly connection: SharedConnection) {}

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

  /**
   * The record read with this run's reservation of `slot` when it was taken, if no read has taken
   * it yet (the statement after the one that took the reservation, so its snapshot holds whatever
   * the last holder wrote; no one else writes while it is held).
   */
  takePrefetched(slot: Slot): { record: unknown } | undefined {
    const mine = [...this.held.values()].find((r) => r.prefetched && r.slot.scope === slot.scope && r.slot.name === slot.name)
    const prefetched = mine?.prefetched
    if (mine) mine.prefetched = undefined
    return prefetched
  }

  /**
   * The reservation under which a record of `slot` may be written: `held` itself, still this run's
   * and of that slot, or (a bulk run's row, `line`) the reservation of the run's file. A
   * ReservationLostError otherwise.
   */
  guard(held: Held, slot: Slot, line: number | undefined): HeldRow {
    const row = this.rows.get(held)
    const why = row && this.held.has(row.holder) ? this.lostWhy(row) : 'it was released'
    if (!row || why !== undefined || (line === undefined && (row.slot.scope !== slot.scope || row.slot.name !== slot.name))) {
      throw lostError(slot, why ?? 'another slot', this.connection.where)
    }
    return row
  }

  /** Stops beating (the journal is closed). */
  stop(): void {
    this.stopBeating()
  }

  /** Reservations tried together: taken (true) or held by another run (false). */
  private readonly reservations = new Batcher<HeldRow, boolean>(
    async (rows) => {
      const taken = await this.connection.query(
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
        const found = await this.connection.query(
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

  /** Releases together. */
  private readonly releases = new Batcher<string, void>(
    async (holders) => {
      await this.connection.query('DELETE FROM payfac_reservations WHERE holder IN (SELECT jsonb_array_elements_text($1::jsonb))', [holders])
      return holders.map(() => undefined)
    },
    (holder) => holder,
    500,
    LINGER_MS,
  )

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
      const rows = await this.connection.query(
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

/** The error of a record that could not be written because its reservation was no longer this run's. */
export function lostError(slot: Slot, why: string, where: string): ReservationLostError {
  return new ReservationLostError(
    `This payfac run no longer holds the reservation of ${slot.scope}/${slot.name} in the shared journal ${where} (${why}). Nothing was sent.`,
    {
      hint: 'Run the same command again once the other run has finished: it then reports what was done.',
    },
  )
}
