// stdout write failures: a reader that left is OutputClosedError (exit 0); a device that refuses
// (full disk, I/O error) is a WriteError, said once in one line with exit 1.
import { EventEmitter } from 'node:events'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'

import { describeError } from '../../src/cli/errors/exit-codes.js'
import { noteStdoutFailure, OutputClosedError, resetStdoutFailure, Sink, stdoutWriteError, WriteError } from '../../src/output/sink.js'

const failing = (code: string) =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback(Object.assign(new Error(`${code}: write failed`), { code }))
    },
  })

async function pushTwice(out: Writable): Promise<unknown> {
  const sink = new Sink(out)
  try {
    await sink.push('x'.repeat(20_000))
    await new Promise((resolve) => setImmediate(resolve))
    await sink.push('x'.repeat(20_000))
    return undefined
  } catch (error) {
    return error
  } finally {
    sink.dispose()
  }
}

describe('a Sink whose stream fails', () => {
  it('EIO: a WriteError naming the cause, exit 1 without the "bug" hint', async () => {
    const out = failing('EIO')
    out.on('error', () => undefined)
    const error = await pushTwice(out)
    expect(error).toBeInstanceOf(WriteError)
    const report = describeError(error)
    expect(report).toMatchObject({ code: 1, message: 'Could not write the output: an input/output error on the device (EIO)', hint: undefined })
  })

  it('EPIPE: the reader left, OutputClosedError (exit 0)', async () => {
    const out = failing('EPIPE')
    out.on('error', () => undefined)
    const error = await pushTwice(out)
    expect(error).toBeInstanceOf(OutputClosedError)
    expect(describeError(error).code).toBe(0)
  })
})

describe('a stdout failure outside any Sink', () => {
  afterEach(() => resetStdoutFailure())

  const fakeProcess = () => {
    const lines: string[] = []
    const target = Object.assign(new EventEmitter(), { exitCode: undefined as number | undefined, stderr: { write: (text: string) => lines.push(text) } })
    return { target, lines }
  }

  it('is said once, as the process exits, with exit 1', () => {
    const { target, lines } = fakeProcess()
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    noteStdoutFailure(enospc, target)
    noteStdoutFailure(enospc, target)
    target.emit('exit', 0)
    expect(lines).toEqual(['Error: Could not write to stdout: no space left on the device (ENOSPC)\n'])
    expect(target.exitCode).toBe(1)
  })

  it('is not said again when a command received it and reported it', () => {
    const { target, lines } = fakeProcess()
    const eio = Object.assign(new Error('EIO'), { code: 'EIO' })
    noteStdoutFailure(eio, target)
    expect(stdoutWriteError(eio).message).toBe('Could not write to stdout: an input/output error on the device (EIO)')
    target.emit('exit', 1)
    expect(lines).toEqual([])
  })
})
