// Rows in flight: at most `--concurrency` at once, and all of them slowed together when the
// service says it is busy. A 429 (or a retry the client makes, which honours Retry-After) pauses
// every worker until the wait is over, and halves how many rows may be in flight; each run of
// successful rows after that lets one more in again, up to `--concurrency`.
//
// A row that waits for the disk (its journal flushed before its request leaves, its outcome
// written after its answer) steps aside meanwhile (`aside`): it has no request with the service
// then, so its place goes to another row, and it takes a place again, before any new row, when
// the disk is done. So the service sees at most `--concurrency` rows in flight, as with a script
// that keeps no journal, and the wait for the disk is not added to every row's time. At most
// ASIDE_FACTOR times as many rows are started and not finished at once.
export const ASIDE_FACTOR = 4

export class Workers {
  /** Rows holding a place (not aside). */
  private active = 0
  /** Rows started and not finished, aside or not. */
  private started = 0
  private limit: number
  private pausedUntil = 0
  private sinceSlowdown = 0
  /** New rows waiting for a place. */
  private readonly idle: Array<() => void> = []
  /** Rows back from the disk waiting for a place: served first. */
  private readonly returning: Array<() => void> = []
  private readonly tasks = new Set<Promise<void>>()

  constructor(
    readonly max: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.limit = max
  }

  /** Starts `task` once a place is free (waits for one); resolves when it has started. */
  async submit(task: () => Promise<void>): Promise<void> {
    while (this.active >= this.limit || this.started >= this.max * ASIDE_FACTOR) await new Promise<void>((resolve) => this.idle.push(resolve))
    this.active++
    this.started++
    const running = task().finally(() => {
      this.active--
      this.started--
      this.tasks.delete(running)
      this.wake()
    })
    this.tasks.add(running)
  }

  /**
   * Waits for `wait` (the disk) without holding a place: another row takes it meanwhile. Called
   * only from within a task; the place is taken back before it resolves.
   */
  async aside<T>(wait: Promise<T>): Promise<T> {
    const back = this.leave()
    try {
      return await wait
    } finally {
      await back()
    }
  }

  /**
   * Gives up the task's place until the function it returns is called (once; later calls do
   * nothing), which takes a place back, before any new row. For a wait that is not a request, such
   * as the lock of a row's operation: a row that held a place while it waited for a lock held by a
   * row stepped aside could leave no place for that row to come back to.
   */
  leave(): () => Promise<void> {
    this.active--
    this.wake()
    let back: Promise<void> | undefined
    return () =>
      (back ??= (async () => {
        while (this.active >= this.limit) await new Promise<void>((resolve) => this.returning.push(resolve))
        this.active++
      })())
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
      this.wake()
    }
  }

  /** How many rows may be in flight now. */
  get inFlightLimit(): number {
    return this.limit
  }

  /** A place may be free: a row back from the disk first, else a new row. */
  private wake(): void {
    ;(this.returning.shift() ?? this.idle.shift())?.()
  }
}
