// Shared by the output-* and views-* tests: a stream that collects what is written, options
// for each format, and an async source that yields like a paginated client.
import { PassThrough, Writable } from 'node:stream'
import type { OutputFormat, OutputOptions } from '../../src/output/format.js'

export interface Collector {
  out: NodeJS.WritableStream
  text: () => string
}

export function collector(): Collector {
  const out = new PassThrough()
  const chunks: string[] = []
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')))
  return { out, text: () => chunks.join('') }
}

export function options(format: OutputFormat, extra: Partial<OutputOptions> = {}): OutputOptions & { text: () => string } {
  const sink = collector()
  return { format, out: sink.out, isTTY: false, color: false, ...extra, text: sink.text }
}

/** Yields `count` records made by `make`, awaiting between them like pages arriving. */
export async function* generate<T>(count: number, make: (i: number) => T, pageSize = 50): AsyncGenerator<T> {
  for (let i = 0; i < count; i += 1) {
    if (i % pageSize === 0) await new Promise((resolve) => setImmediate(resolve))
    yield make(i)
  }
}

/** A writable that accepts `highWaterMark` bytes, then drains slowly: exercises backpressure. */
export function slowWritable(highWaterMark = 64): { out: Writable; text: () => string; drains: () => number } {
  const chunks: string[] = []
  let drains = 0
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'))
      setTimeout(done, 1)
    },
  })
  out.on('drain', () => (drains += 1))
  return { out, text: () => chunks.join(''), drains: () => drains }
}

export const ANSI = /\u001b\[/
export const BOX = /[┌┐└┘├┤┬┴┼│─]/
