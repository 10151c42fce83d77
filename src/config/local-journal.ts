// The local journal: the config folder, as payfac has always kept it. One file per record,
// <config>/operations/<scope>/<name>.json (operations.ts), a lock folder beside it per
// reservation (op-lock.ts, proper-lockfile: loaded only when one is taken), every folder and file
// checked fail-closed (fs-check.ts) before it is trusted. It holds on one machine and one config
// folder; the shared journal (shared-journal.ts) is the same interface over PostgreSQL.
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'

import { checkPrivateFolders } from './fs-check.js'
import type { JournalEntry, JournalStore, ListFilter, ReserveWords, Slot } from './journal-store.js'
import { type OperationRecord, readOperation, slotPath, writeOperation } from './operations.js'

export class LocalJournal implements JournalStore {
  readonly kind = 'local' as const
  readonly where: string

  constructor(
    readonly configDir: string,
    /** When this run started (runStart), on this machine's clock. */
    private readonly runStartedAt: number = runStart(),
  ) {
    this.where = path.join(configDir, 'operations')
  }

  startedAt(): number {
    return this.runStartedAt
  }

  async reserve(slot: Slot, words: ReserveWords) {
    const file = slotPath(this.configDir, slot)
    checkPrivateFolders(this.configDir, path.dirname(file), 'operation journal')
    const { takeLock } = await import('./op-lock.js')
    const lock = await takeLock(file, { waitMs: words.waitMs, what: words.what, onWait: words.onWait })
    return { held: { waited: lock.waited, lost: lock.lost }, release: lock.release }
  }

  async read(slot: Slot, check?: string): Promise<OperationRecord | undefined> {
    return readOperation(slotPath(this.configDir, slot), check)
  }

  async write(slot: Slot, record: OperationRecord): Promise<OperationRecord> {
    return writeOperation(slotPath(this.configDir, slot), record)
  }

  /** The newest records of every scope (a record that cannot be read is left out: `journal show` names its problem). */
  async list(filter: ListFilter): Promise<JournalEntry[]> {
    checkPrivateFolders(this.configDir, this.where, 'operation journal')
    const entries: JournalEntry[] = []
    for (const scope of readdir(this.where)) {
      const folder = path.join(this.where, scope)
      if (!fs.lstatSync(folder).isDirectory()) continue
      for (const file of readdir(folder)) {
        if (!file.endsWith('.json')) continue
        let record: OperationRecord | undefined
        try {
          record = readOperation(path.join(folder, file))
        } catch {
          continue
        }
        if (!record || (filter.states && !filter.states.includes(record.state)) || (filter.kind && record.kind !== filter.kind)) continue
        entries.push({ id: `${scope}/${file.slice(0, -'.json'.length)}`, record })
      }
    }
    entries.sort((a, b) => b.record.updatedAt.localeCompare(a.record.updatedAt))
    return entries.slice(0, filter.limit)
  }

  async show(id: string): Promise<JournalEntry | undefined> {
    const slot = parseEntryId(id)
    if (!slot) return undefined
    checkPrivateFolders(this.configDir, path.join(this.where, slot.scope), 'operation journal')
    const record = readOperation(slotPath(this.configDir, slot))
    return record ? { id, record } : undefined
  }

  async close(): Promise<void> {}
}

/**
 * When a run started, for "written meanwhile": the process's start for a command run in a fresh
 * process (a racer that loaded slowly still counts from its start), but never more than
 * RUN_START_MARGIN_MS before the command itself began, so that a long-lived process (a server
 * running commands for hours) does not count every record of the day as written meanwhile.
 */
export function runStart(commandStartedAt: number = Date.now()): number {
  return Math.max(performance.timeOrigin, commandStartedAt - RUN_START_MARGIN_MS)
}

export const RUN_START_MARGIN_MS = 2_000

/** `<scope>/<name>` as `journal list` shows it, or undefined when it is not one. */
export function parseEntryId(id: string): Slot | undefined {
  const match = /^([a-f0-9]{20})\/([A-Za-z0-9_-]{1,120})$/.exec(id.trim())
  return match ? { scope: match[1] as string, name: match[2] as string } : undefined
}

function readdir(folder: string): string[] {
  try {
    return fs.readdirSync(folder)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}
