// The rows of a bulk run in the shared journal: the same records as the local run file
// (cli/bulk/journal.ts), one row of payfac_operations per line of the file, named
// `bulk-<command>-<hash>#<line>` in the party's scope, written only while the run holds the
// reservation of its file. What earlier runs of the same file did (from any runner) is read when
// the run starts; rows in flight share their writes (shared-records.ts).
import type { Held } from './journal-store.js'
import type { OperationRecord, ServiceIdentity } from './operations.js'
import type { SharedJournal } from './shared-journal.js'

export type SharedRowRecord = OperationRecord & { line: number }

export class SharedRows {
  private readonly latest = new Map<number, SharedRowRecord>()

  private constructor(
    private readonly store: SharedJournal,
    readonly identity: ServiceIdentity,
    readonly fileHash: string,
    private readonly name: string,
    private readonly held: Held,
  ) {}

  /** `name`: the run's slot name (`bulk-<command>-<hash>`); `held`: the run's reservation of it. */
  static async open(store: SharedJournal, identity: ServiceIdentity, fileHash: string, name: string, held: Held): Promise<SharedRows> {
    const rows = new SharedRows(store, identity, fileHash, name, held)
    for (const { line, record } of await store.readPrefix(identity.id, `${name}#`)) {
      rows.latest.set(line, record.state === 'done' ? { ...record, before: undefined, line } : { ...record, line })
    }
    return rows
  }

  prior(line: number): SharedRowRecord | undefined {
    return this.latest.get(line)
  }

  forget(line: number): void {
    this.latest.delete(line)
  }

  async append(record: SharedRowRecord): Promise<SharedRowRecord> {
    const saved = {
      ...(await this.store.put({ scope: this.identity.id, name: `${this.name}#${record.line}` }, record, this.held, record.line)),
      line: record.line,
    }
    this.latest.set(record.line, saved)
    return saved
  }

  async close(): Promise<void> {}
}
