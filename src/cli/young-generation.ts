// A long `--all` walk allocates a page of records, renders it and drops it, page after page. V8
// grows its young generation (two semi-spaces, 16 MiB each at most on 64-bit) whenever enough
// has survived its collections since it last grew, and a walk always has a page alive when a
// collection comes, so the young generation grows to its maximum: 32 MiB of the peak RSS, and
// the more so the longer the buffers read from the socket wait between collections. Capped at
// 8 MiB a semi-space once it has reached that, a 1 000 000-record `--csv` walk peaked at 140 MiB
// instead of 162 MiB, with no more CPU (100 000 records: 0.91 s against 0.92 s); at 4 MiB it
// peaked at 131 MiB but took 7 % more CPU (see docs/cli.md, Lists).
//
// The size is fixed when the process starts (`--max-semi-space-size`), but the factor by which
// the young generation grows is read each time it grows: set to 1, it stops growing.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'

/** The young generation's size (both semi-spaces) at which growth stops: 8 MiB a semi-space. */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 1024 * 1024
/** How often the size is looked at while the walk runs. */
const CHECK_MS = 10

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
}

/**
 * Stops the young generation from growing past YOUNG_GENERATION_CAP_BYTES while a walk runs
 * (it may already be smaller; it then grows up to the cap). Returns the function that ends it,
 * putting V8's default growth back. Only on Node 20 to 24, whose V8 reads the flag as it grows.
 */
export function capYoungGeneration(nodeVersion = process.versions.node): () => void {
  const major = Number(nodeVersion.split('.')[0])
  if (major < 20 || major > 24) return () => undefined
  let capped = false
  const check = () => {
    if (capped || youngGenerationBytes() < YOUNG_GENERATION_CAP_BYTES) return
    setFlagsFromString('--semi-space-growth-factor=1')
    capped = true
    clearInterval(timer)
  }
  const timer = setInterval(check, CHECK_MS)
  timer.unref()
  check()
  return () => {
    clearInterval(timer)
    if (capped) setFlagsFromString('--semi-space-growth-factor=2')
  }
}
