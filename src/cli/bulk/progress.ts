// Progress of a bulk run on stderr: on a terminal one line redrawn at most ten times a second
// (rows finished of all, done, skipped, failed, unknown, rate, ETA); elsewhere (CI, a log file)
// the same words as a line of its own every 10 s. Numbers only: payfac's own text.
import type { RowStatus } from './results.js'

export interface BulkProgress {
  update(counts: Record<RowStatus, number>): void
  end(): void
}

export function bulkProgress(total: number, out: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): BulkProgress {
  const tty = Boolean(out.isTTY) && process.env.TERM !== 'dumb'
  const started = now()
  let latest: Record<RowStatus, number> | undefined
  let drawnAt = 0
  let shown = false
  const describe = (c: Record<RowStatus, number>): string => {
    const finished = c.done + c['skipped-already-done'] + c.failed + c.unknown
    const seconds = (now() - started) / 1000
    const rate = seconds > 0 ? c.done / seconds : 0
    const left = total - finished
    const eta = rate > 0 && left > 0 ? `, about ${duration(left / rate)} left` : ''
    return `Rows ${finished} of ${total}: ${c.done} done, ${c['skipped-already-done']} skipped (done before), ${c.failed} failed, ${c.unknown} unknown; ${rate.toFixed(rate < 10 ? 1 : 0)} rows/s${eta}`
  }
  const timer = tty
    ? undefined
    : setInterval(() => {
        if (latest) out.write(`${describe(latest)}\n`)
      }, 10_000)
  timer?.unref()
  return {
    update(counts) {
      latest = counts
      if (!tty) return
      const at = now()
      if (at - drawnAt < 100) return
      drawnAt = at
      out.write(`\r\u001b[2K${describe(counts)}`)
      shown = true
    },
    end() {
      if (timer) clearInterval(timer)
      if (shown) out.write('\r\u001b[2K')
    },
  }
}

function duration(seconds: number): string {
  if (seconds < 90) return `${Math.ceil(seconds)} s`
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`
  return `${(seconds / 3600).toFixed(1)} h`
}
