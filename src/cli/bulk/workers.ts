// Rows in flight: at most `--concurrency` at once, and all of them slowed together when the
// service says it is busy. A 429 (or a retry the client makes, which honours Retry-After) pauses
// every worker until the wait is over, and halves how many rows may be in flight; each run of
// successful rows after that lets one more in again, up to `--concurrency`.
export class Workers {
  private active = 0
  private limit: number
  private pausedUntil = 0
  private sinceSlowdown = 0
  private readonly idle: Array<() => void> = []
  private readonly tasks = new Set<Promise<void>>()

  constructor(
    readonly max: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.limit = max
  }

  /** Starts `task` once a slot is free (waits for one); resolves when it has started. */
  async submit(task: () => Promise<void>): Promise<void> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.idle.push(resolve))
    this.active++
    const running = task().finally(() => {
      this.active--
      this.tasks.delete(running)
      this.idle.shift()?.()
    })
    this.tasks.add(running)
  }

  /** Waits for every task started. */
  async drain(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks])
  }

  /** Waits while the service asked every worker to wait. */
  async paced(): Promise<void> {
    for (let wait = this.pausedUntil - this.now(); wait > 0; wait = this.pausedUntil - this.now()) await this.sleep(wait)
  }

  /** The service is busy: every worker waits `ms`, and fewer rows are let in flight for a while. */
  slowDown(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.max(0, ms))
    this.limit = Math.max(1, Math.floor(this.limit / 2))
    this.sinceSlowdown = 0
  }

  /** A row went through: after as many in a row as the limit, one more may be in flight. */
  succeeded(): void {
    if (this.limit >= this.max) return
    if (++this.sinceSlowdown >= this.limit * 4) {
      this.limit++
      this.sinceSlowdown = 0
      this.idle.shift()?.()
    }
  }

  /** How many rows may be in flight now. */
  get inFlightLimit(): number {
    return this.limit
  }
}
