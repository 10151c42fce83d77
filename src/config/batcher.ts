// Group commit: what arrives while one round trip is on the wire goes together in the next. Each
// item's promise settles with its own result (or the batch's failure). Items whose key is already
// in the batch wait for the next one (a statement cannot touch one row twice). Pure.

export class Batcher<I, R> {
  private queue: Array<{ item: I; resolve: (result: R) => void; reject: (error: unknown) => void }> = []
  private running = false

  constructor(
    /** Runs one batch; returns one result per item, in order. */
    private readonly flush: (items: I[]) => Promise<R[]>,
    /** Items with one key never share a batch. */
    private readonly keyOf: (item: I) => string,
    private readonly max = 500,
    /** How long the first item of a batch waits for others (ms): rows in flight reach the same step at about the same time. */
    private readonly lingerMs = 0,
  ) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject })
      if (!this.running) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.running = true
    try {
      // Let the callers of this tick join the first batch.
      await Promise.resolve()
      while (this.queue.length > 0) {
        if (this.lingerMs > 0 && this.queue.length < this.max) await new Promise((resolve) => setTimeout(resolve, this.lingerMs))
        const keys = new Set<string>()
        const batch: typeof this.queue = []
        const rest: typeof this.queue = []
        for (const entry of this.queue) {
          const key = this.keyOf(entry.item)
          if (batch.length < this.max && !keys.has(key)) {
            keys.add(key)
            batch.push(entry)
          } else rest.push(entry)
        }
        this.queue = rest
        try {
          const results = await this.flush(batch.map((e) => e.item))
          for (const [i, e] of batch.entries()) e.resolve(results[i] as R)
        } catch (error) {
          for (const e of batch) e.reject(error)
        }
      }
    } finally {
      this.running = false
    }
  }
}
