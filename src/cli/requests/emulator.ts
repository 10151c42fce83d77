// `payfac emulator deliveries --follow`: long polls of the control plane, one after another,
// each asking for the attempts after the last one seen. Pure of I/O itself: the caller gives the
// fetch, and the abort signal that Ctrl-C trips.

import { watchInterrupts } from '../runtime/interrupt.js'

export interface Sequenced {
  seq: number
}

/** Stops a follow on Ctrl-C or SIGTERM: the signal aborts, and the handlers are removed by `release()`. */
export function abortOnInterrupt(): { signal: AbortSignal; release(): void } {
  const interrupts = watchInterrupts()
  return { signal: interrupts.signal, release: () => interrupts.dispose() }
}

/**
 * Every record after cursor 0, as each long poll brings them, until the signal aborts or `count`
 * records have been given. An error after the abort ends the walk quietly; any other is thrown.
 */
export async function* follow<T extends Sequenced>(
  fetchAfter: (after: number, signal: AbortSignal) => Promise<T[]>,
  options: { signal: AbortSignal; count?: number | undefined },
): AsyncGenerator<T> {
  let after = 0
  let given = 0
  while (!options.signal.aborted && (options.count === undefined || given < options.count)) {
    let records: T[]
    try {
      records = await fetchAfter(after, options.signal)
    } catch (error) {
      if (options.signal.aborted) return
      throw error
    }
    for (const record of records) {
      after = Math.max(after, record.seq)
      if (options.count !== undefined && given >= options.count) return
      yield record
      given++
    }
  }
}
