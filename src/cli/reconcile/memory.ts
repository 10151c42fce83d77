// How reconcile asks V8 to spend memory. What reconcile must hold is small (the index of the
// month's entries: under a hundred bytes an entry), but it reads the month through pages that are
// garbage a moment later. Left to its defaults, V8 lets that garbage pile up: the young
// generation grows to 2 × 16 MiB, and every page that waits its turn long enough to live through
// one young collection is moved to the old generation, where it stays until the next full
// collection, which V8 puts off until the old generation has grown by a large factor. Measured on
// 100 000 entries, that was about 80 MiB of peak RSS over an empty range, for about 10 MiB of index.
//
// `--optimize-for-size` makes V8 favour memory for the rest of the process: a smaller young
// generation, and full collections (that also shrink the heap) as soon as the old generation
// grows by a little. The flag is read at every collection, so it works when set at run time
// (checked on Node 20 and 24: the month then peaks at about +28 MiB). Set once, before the first page.
import { setFlagsFromString } from 'node:v8'

let set = false

/** From now on, V8 collects early and keeps the heap small (this process only). */
export function preferSmallHeap(): void {
  if (set) return
  setFlagsFromString('--optimize-for-size')
  set = true
}
