// How V8 sizes its heap while a long `--all` walk runs. A walk allocates a page of records,
// renders it and drops it, page after page; V8's defaults are tuned for programs that keep what
// they allocate, and they let a walk's peak RSS follow its length:
//
// - The young generation (two semi-spaces, 16 MiB each at most on 64-bit) grows whenever enough
//   has survived its collections since it last grew, and a walk always has a page alive when a
//   collection comes, so it grows to its maximum. Capped at 8 MiB a semi-space once it has got
//   there, 100 000 records peaked at 95 MiB instead of 112 MiB with the same CPU; at 4 MiB the
//   walk took more CPU and, promoting more, did not even use less memory.
// - After each full collection, the old generation may grow by a factor V8 picks from how fast
//   the program runs (up to 4×): with a walk's small live set, garbage piles up between
//   collections, and with it the socket buffers its objects hold. At 1.5× (`--heap-growing-percent
//   =50`) a 1 000 000-record walk peaked at 111–114 MiB instead of 120–148 MiB, with the same CPU
//   (5.8 and 6.3 s against 5.4 and 6.4 s); at 1.2× it took 10 % more CPU.
//
// Both are flags that V8 reads each time it resizes, so they can be set once the process runs
// (the young generation's maximum, `--max-semi-space-size`, is fixed at start-up; its growth
// factor set to 1 stops it growing). See docs/cli.md (Lists).
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'

/** The young generation's size (both semi-spaces) at which growth stops: 8 MiB a semi-space. */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 1024 * 1024
/** How much the old generation may grow after a full collection during a walk, in percent. */
export const OLD_GENERATION_GROWTH_PERCENT = 50
/** How often the young generation's size is looked at while the walk runs. */
const CHECK_MS = 10

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
}

/** True on Node 20 to 26, whose V8 has the heap flags set here and in reconcile/memory.ts. */
export function knowsHeapFlags(nodeVersion = process.versions.node): boolean {
  const major = Number(nodeVersion.split('.')[0])
  return major >= 20 && major <= 26
}

/**
 * Shapes the heap for a walk: the old generation grows by at most OLD_GENERATION_GROWTH_PERCENT
 * after a full collection, and the young generation stops growing once it reaches
 * YOUNG_GENERATION_CAP_BYTES (it may be smaller when the walk starts). Returns the function that
 * ends it, putting V8's defaults back. Only on Node 20 to 26, whose V8 reads both flags as it
 * resizes (a V8 without a flag would print an error).
 */
export function shapeHeapForWalk(nodeVersion = process.versions.node): () => void {
  if (!knowsHeapFlags(nodeVersion)) return () => undefined
  setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`)
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
    setFlagsFromString('--heap-growing-percent=0')
  }
}
