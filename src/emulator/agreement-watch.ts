// PayToAgreementStatusChanged. An agreement's status is computed from the clock when read
// (resources/payto.ts: a schedule of {status, at}), so nothing happens at the moment it changes.
// The watcher looks after every request, on each background tick and after a clock advance,
// walks each agreement's schedule from where it last stopped up to "now", and records one event
// per change, stamped with the time of the change. A `SetPayToAgreementStatus` override is seen
// the same way (it appends to the schedule).
import type { Clock } from './clock.js'
import { timestamp } from './clock.js'
import { emitEvent } from './events.js'
import type { IdGenerator } from './ids.js'
import { agreementView } from './resources/payto.js'
import type { AgreementStatus, Store } from './store.js'

export const AGREEMENT_STATUS_CHANGED = 'PayToAgreementStatusChanged'

interface Seen {
  /** Schedule entries already looked at. */
  processed: number
  status: AgreementStatus
  /** The request during which the watcher first saw the agreement (normally the one that sent it). */
  origin: string | null
}

export class AgreementWatcher {
  private seen = new Map<string, Seen>()

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {
    this.baseline()
  }

  /** Takes every agreement as it stands now, without events (at start, after fixtures, after a reset). */
  baseline(): void {
    this.seen.clear()
    const now = timestamp(this.clock.now())
    for (const agreement of this.store.agreements.values()) {
      let processed = 0
      let status: AgreementStatus = 'Pending'
      for (const entry of agreement.schedule) {
        if (entry.at > now) break
        processed++
        status = entry.status
      }
      this.seen.set(agreement.token, { processed, status, origin: null })
    }
  }

  /**
   * Records a PayToAgreementStatusChanged event for each change up to now. `requestId` is the
   * request being handled (null for a background tick: then the request that sent the
   * agreement stands as the cause). Answers how many events were recorded.
   */
  evaluate(requestId: string | null): number {
    const nowDate = this.clock.now()
    // Written out only when some agreement has a scheduled change still to come (on every request, most have none).
    let now: string | undefined
    let count = 0
    for (const agreement of this.store.agreements.values()) {
      let seen = this.seen.get(agreement.token)
      if (!seen) {
        // New since the last look: its first entry is the status it was sent in.
        const first = agreement.schedule[0]
        seen = { processed: first ? 1 : 0, status: first?.status ?? 'Pending', origin: requestId }
        this.seen.set(agreement.token, seen)
      }
      if (seen.processed > agreement.schedule.length) seen.processed = agreement.schedule.length
      while (seen.processed < agreement.schedule.length) {
        const entry = agreement.schedule[seen.processed]
        now ??= timestamp(nowDate)
        if (!entry || entry.at > now) break
        seen.processed++
        if (entry.status === seen.status) continue
        const previousStatus = seen.status
        seen.status = entry.status
        const cause = requestId ?? seen.origin ?? this.ids.next('req')
        const view = { ...agreementView(agreement, nowDate), status: entry.status, updatedAt: entry.at }
        const record = emitEvent({ store: this.store, clock: this.clock, ids: this.ids, requestId: cause }, AGREEMENT_STATUS_CHANGED, agreement.merchantId, {
          agreement: view,
          previousStatus,
        })
        record.timestamp = entry.at
        count++
      }
    }
    return count
  }
}
