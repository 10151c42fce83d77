// Walking a range part by part: each part is asked for in order; a part the service refuses as
// too large (a 400, 413 or 422 whose errorCode speaks of the range) is halved and asked again,
// down to a minute. Records are kept only in the part their timestamp falls in, so none is twice.
import { ApiError } from '../../client/errors.js'
import { type DateRange, MAX_PARTS, halve, inPart } from './range.js'

/** Whether the service refused a range as too large or too long for one call. */
export function refusesRange(error: unknown): boolean {
  if (!(error instanceof ApiError) || ![400, 413, 422].includes(error.status)) return false
  return error.status === 413 || /range|too_large|too_long|too_many|period|window|span/i.test(`${error.errorCode ?? ''} ${error.message}`)
}

/**
 * Opens each part in order (`open` sends the request), halving the parts the service refuses;
 * never more than MAX_PARTS parts in all (the refusal then stands).
 */
export async function* openParts<B>(parts: DateRange[], open: (part: DateRange) => Promise<B>): AsyncGenerator<{ part: DateRange; body: B }> {
  const queue = [...parts]
  let planned = parts.length
  while (queue.length > 0) {
    const part = queue.shift() as DateRange
    let body: B
    try {
      body = await open(part)
    } catch (error) {
      const halves = refusesRange(error) && planned < MAX_PARTS ? halve(part) : undefined
      if (!halves) throw error
      planned += 1
      queue.unshift(...halves)
      continue
    }
    yield { part, body }
  }
}

/** Says on stderr, before anything is sent, how many parts a range cut by --split will take. */
export function announceParts(parts: DateRange[], split: string | undefined): void {
  if (parts.length > 1) process.stderr.write(`Sending the range in ${parts.length} parts${split ? ` (--split ${split.trim()})` : ''}, one after another\n`)
}

/** The records of every part, in order, each from the part its `createdAt` falls in. */
export async function* recordsInParts<T>(
  parts: DateRange[],
  walk: (part: DateRange) => AsyncIterable<T>,
  createdAt: (record: T) => unknown,
): AsyncGenerator<T> {
  for await (const { part, body } of openParts(parts, async (p) => {
    const iterator = walk(p)[Symbol.asyncIterator]()
    const first = await iterator.next()
    return { first, iterator }
  })) {
    for (let next = body.first; !next.done; next = await body.iterator.next()) {
      if (inPart(createdAt(next.value), part)) yield next.value
    }
  }
}
