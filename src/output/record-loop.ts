// The record loop under every list rendering: records fed to a writer in order, a page at a time
// when the source can hand pages over, with a write-out whenever the source pauses, and Ctrl-C
// honoured at a record (or page) boundary.
import { OutputClosedError, OutputInterruptedError, type Sink } from './sink.js'

const WAITING = Symbol('waiting')

function isAsyncIterable<T>(value: Iterable<T> | AsyncIterable<T>): value is AsyncIterable<T> {
  return typeof (value as AsyncIterable<T>)[Symbol.asyncIterator] === 'function'
}

/**
 * A source that can also hand over its records in the groups they arrive in (the client's
 * `--all` walks give one array a page): the loop then writes a page at a time, with one await a
 * page instead of one a record.
 */
interface Batched<T> {
  batches(): AsyncIterable<T[]>
}

function batchesOf<T>(records: Iterable<T> | AsyncIterable<T>): AsyncIterable<T[]> | undefined {
  const batches = (records as Partial<Batched<T>>).batches
  return typeof batches === 'function' ? batches.call(records) : undefined
}

/** How a list format writes: records added synchronously, and what to do when a pause comes. */
export interface ListWriter<T> {
  /** Adds one record's text to the sink (no I/O: the sink writes when its buffer is full). */
  add(record: T): void
  /** Adds a page of records; default: each in turn. */
  addBatch?(records: T[]): void
  /** Writes out everything added so far (the source is about to wait, or a page is done). */
  settle(): Promise<void>
}

/**
 * Feeds every record to `writer` in order and returns the count. Stops the source (return())
 * when ended early. A batched source is written a page at a time, settled after each page; an
 * async source of single records is settled whenever it has no record ready.
 */
export async function forEach<T>(records: Iterable<T> | AsyncIterable<T>, writer: ListWriter<T>, sink: Sink, signal?: AbortSignal): Promise<number> {
  let count = 0
  const stopIfAsked = () => {
    if (signal?.aborted) throw new OutputInterruptedError()
  }
  if (!isAsyncIterable(records)) {
    for (const record of records) {
      stopIfAsked()
      count += 1
      writer.add(record)
      if (sink.full) await sink.flush()
    }
    return count
  }
  const batches = batchesOf(records)
  if (batches) return forEachBatch(batches, writer, signal)
  const iterator = records[Symbol.asyncIterator]()
  // One pending setImmediate at most: it fires only once the loop has yielded to the event
  // loop, i.e. when the source is really waiting (for the network, say).
  let tick: Promise<typeof WAITING> | undefined
  const idle = () =>
    (tick ??= new Promise((resolve) =>
      setImmediate(() => {
        tick = undefined
        resolve(WAITING)
      }),
    ))
  let finished = false
  try {
    for (;;) {
      stopIfAsked()
      const pending = iterator.next()
      pending.catch(() => undefined)
      // Only the next record and the idle tick race here: a long-lived promise in this race
      // (one per record) would keep every race's reaction alive, and memory would grow with
      // the list.
      let step = await Promise.race([pending, idle()])
      if (step === WAITING) {
        await writer.settle()
        // Ctrl-C while the next page is on its way stops the wait at once.
        step = await untilAborted(pending, signal)
      }
      if (step.done) {
        finished = true
        break
      }
      count += 1
      writer.add(step.value)
      if (sink.full) await sink.flush()
    }
  } finally {
    // A source stuck on a request is not waited for: it is abandoned, not returned.
    if (!finished && !signal?.aborted) await iterator.return?.()
  }
  return count
}

/**
 * A page at a time: the page is written out as soon as it is rendered, so nothing waits in the
 * buffer while the next page is on its way, and no record outlives its page.
 */
async function forEachBatch<T>(batches: AsyncIterable<T[]>, writer: ListWriter<T>, signal?: AbortSignal): Promise<number> {
  let count = 0
  const iterator = batches[Symbol.asyncIterator]()
  let finished = false
  try {
    for (;;) {
      if (signal?.aborted) throw new OutputInterruptedError()
      // Ctrl-C while the next page is on its way stops the wait at once.
      const step = await untilAborted(iterator.next(), signal)
      if (step.done) {
        finished = true
        break
      }
      const batch = step.value
      if (writer.addBatch) writer.addBatch(batch)
      else for (const record of batch) writer.add(record)
      count += batch.length
      await writer.settle()
    }
  } finally {
    if (!finished && !signal?.aborted) await iterator.return?.()
  }
  return count
}

/** `pending`, or OutputInterruptedError as soon as `signal` aborts; the listener goes with the wait. */
function untilAborted<V>(pending: Promise<V>, signal: AbortSignal | undefined): Promise<V> {
  if (!signal) return pending
  return new Promise<V>((resolve, reject) => {
    const onAbort = () => reject(new OutputInterruptedError())
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    const settle = () => signal.removeEventListener('abort', onAbort)
    pending.then(
      (value) => {
        settle()
        resolve(value)
      },
      (error: unknown) => {
        settle()
        reject(error)
      },
    )
  })
}

/**
 * Runs the loop; if the source (or a write) fails, first writes out what was already
 * rendered, since those records are real, then passes the error on.
 */
export async function streaming<T>(loop: () => Promise<T>, flush: () => Promise<void>): Promise<T> {
  try {
    return await loop()
  } catch (error) {
    if (!(error instanceof OutputClosedError)) await flush().catch(() => undefined)
    throw error
  }
}
