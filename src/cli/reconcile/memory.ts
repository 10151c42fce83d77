// How reconcile asks V8 to spend memory. What reconcile must hold is small (the index of the
// month's entries: under a hundred bytes an entry), but it reads the month through pages that are
// garbage a moment later. Left to its defaults, V8 lets that garbage pile up: the young
// generation grows to 2 × 16 MiB, and every page that waits its turn long enough to live through
// one young collection is moved to the old generation, where it stays until the next full
// collection, which V8 puts off until the old generation has grown by a large factor. Measured on
// 100 000 entries, that was about 80 MiB of peak RSS over an empty range, for about 10 MiB of index.
//
// So when reconcile starts, it changes two of V8's heap rules for the rest of the process; both
// are read at each collection, so they take effect when set at run time (checked on Node 20, 24
// and 26: on 26, 100 000 entries grew the heap by 68 MiB with them, 142 MiB without), and neither
// changes what is computed:
// - `--semi-space-growth-factor=1`: the young generation keeps the size it has when reconcile
//   starts (2 × 2 MiB after payfac's start-up), instead of doubling up to 2 × 16 MiB when much of
//   it lives through a collection;
// - `--heap-growing-percent=10`: after a full collection, the next one comes once the old
//   generation has grown by a tenth, so pages moved there are given back soon.
// Measured at 100 000 entries: the peak over an empty range went from about +80 MiB to under
// +30 MiB, for about a tenth more CPU time (more, smaller collections) and the same wall time.
// `--optimize-for-size` also keeps the heap small, but cost a third more CPU time here.
import { setFlagsFromString } from 'node:v8'
import { knowsHeapFlags } from '../runtime/walk-heap.js'

let set = false

/** From now on, V8 collects early and keeps the heap small (this process only). */
export function preferSmallHeap(): void {
  // A V8 without one of these flags would print an error (the same guard as a walk's, walk-heap.ts).
  if (set || !knowsHeapFlags()) return
  setFlagsFromString('--semi-space-growth-factor=1')
  setFlagsFromString('--heap-growing-percent=10')
  set = true
}
