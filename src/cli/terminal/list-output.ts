// Around the rendering of a list: Ctrl-C stops it at a record boundary (a JSON array is still
// closed, unless its reader stopped reading: then payfac ends at once), and a failure after a
// JSON array was started is reported on stderr only.
import { endWhenOutputStalls } from '../../output/sink.js'
import { InterruptedError } from '../errors/index.js'
import { watchInterrupts } from '../runtime/interrupt.js'
import { endForSignal, type HandledSignal } from '../runtime/signals.js'

interface ListOptions {
  format: 'table' | 'json' | 'csv' | 'jsonl'
  query?: string | undefined
  ids?: boolean | undefined
}

/**
 * Runs `render` with a signal that Ctrl-C (or SIGTERM) aborts. `onJsonStarted` is called when
 * the render fails after writing a JSON array, so that the error object is not added to stdout.
 */
export async function showingList(options: ListOptions, render: (signal: AbortSignal) => Promise<number>, onJsonStarted: () => void): Promise<number> {
  const interrupts = watchInterrupts()
  // Stopped, the list closes what it printed; unless its reader stopped reading, which would keep
  // payfac waiting for it for ever: then it ends as on a second signal (output/sink.ts).
  interrupts.signal.addEventListener('abort', () => endWhenOutputStalls(() => endForSignal(interrupts.signal.reason as HandledSignal)), { once: true })
  try {
    return await render(interrupts.signal)
  } catch (error) {
    if (options.format === 'json' && !options.query && !options.ids) onJsonStarted()
    if ((error as Error | undefined)?.name === 'OutputInterruptedError') {
      throw new InterruptedError('Interrupted; the records printed before are complete')
    }
    throw error
  } finally {
    interrupts.dispose()
  }
}
