// The delivery ids `webhooks listen` has already acknowledged, so that a delivery sent twice
// (a replay of captured traffic, or a sender that did not see the first answer) reaches the
// handler once. An id is kept until the signature it came with can no longer be accepted (its
// timestamp plus the tolerance), so memory stays bounded by time, and by MAX_REMEMBERED ids.

/** Ids kept at most; beyond this the oldest are forgotten first. */
export const MAX_REMEMBERED = 100_000

export type DedupeVerdict =
  /** Not seen: go on, then `settle()` it. */
  | 'new'
  /** Acknowledged before, within the window: answer 2xx and do not forward again. */
  | 'duplicate'
  /** Another copy is being handled right now: ask the sender to try later. */
  | 'in-flight'

interface Entry {
  expiresAt: number
  settled: boolean
}

export class DeliveryDedupe {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly now: () => number = Date.now,
    private readonly capacity = MAX_REMEMBERED,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /** The verdict for `id`, and, when new, marks it in flight until `settle()`; kept until `expiresAt` (ms). */
  begin(id: string, expiresAt: number): DedupeVerdict {
    this.sweep()
    const entry = this.entries.get(id)
    if (entry && entry.expiresAt > this.now()) return entry.settled ? 'duplicate' : 'in-flight'
    if (entry) this.entries.delete(id)
    this.entries.set(id, { expiresAt, settled: false })
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string)
    return 'new'
  }

  /** `acknowledged`: the sender was answered 2xx, so a copy is a duplicate; otherwise the id is forgotten (its retry goes through). */
  settle(id: string, acknowledged: boolean): void {
    const entry = this.entries.get(id)
    if (!entry) return
    if (acknowledged) entry.settled = true
    else this.entries.delete(id)
  }

  /** Drops expired ids from the oldest end (ids arrive roughly in expiry order; the cap bounds the rest). */
  private sweep(): void {
    const now = this.now()
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) break
      this.entries.delete(id)
    }
  }
}

/**
 * The verdict for a delivery known by several keys (its `Webhook-Delivery-Id`, and the signed
 * content its valid signature covers): a duplicate or in flight by any key is that; when new by
 * all, each is begun, to be settled together. The delivery id is not signed, so a replay of a
 * captured delivery under a fresh id (or none) is still caught by the signed key.
 */
export function beginAll(dedupe: DeliveryDedupe, keys: string[], expiresAt: number): DedupeVerdict {
  const begun: string[] = []
  for (const key of keys) {
    const verdict = dedupe.begin(key, expiresAt)
    if (verdict !== 'new') {
      for (const each of begun) dedupe.settle(each, false)
      return verdict
    }
    begun.push(key)
  }
  return 'new'
}
