// Around the rendering of a list: Ctrl-C stops it at a record boundary (a JSON array is still
// closed), and a failure after a JSON array was started is reported on stderr only.
import { InterruptedError } from '../errors/index.js'
import { watchInterrupts } from '../runtime/interrupt.js'

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
