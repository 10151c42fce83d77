import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'

import { watchInterrupts } from '../../src/cli/runtime/interrupt.js'
import { addCleanup, installSignalHandling, receivedSignal, resetSignalState, wantsJsonErrors } from '../../src/cli/runtime/signals.js'

function fakeProcess() {
  const exits: number[] = []
  let written = ''
  const target = Object.assign(new EventEmitter(), {
    exit: (code: number) => void exits.push(code),
    stderr: { write: (text: string) => (written += text) },
  })
  return { target: target as unknown as NodeJS.Process & { stderr: { write(t: string): unknown } }, exits, written: () => written }
}

afterEach(() => resetSignalState())

describe('process-wide signal handling', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s runs the clean-ups and exits %i when no command is watching', (signal, code) => {
    const { target, exits, written } = fakeProcess()
    const remove = installSignalHandling(target, () => 1000)
    const removed: string[] = []
    addCleanup(() => removed.push('a.part'))
    const forgotten = addCleanup(() => removed.push('done.part'))
    forgotten()
    target.emit(signal, signal)
    expect(removed).toEqual(['a.part'])
    expect(exits).toEqual([code])
    expect(written()).toContain(`Interrupted (${signal})`)
    expect(receivedSignal()).toBe(signal)
    remove()
  })

  it('leaves the first signal to a watching command, ignores the echo, and ends on a second one', () => {
    const { target, exits } = fakeProcess()
    let now = 1000
    const remove = installSignalHandling(target, () => now)
    const interrupts = watchInterrupts(target, () => now)
    const removed: string[] = []
    addCleanup(() => removed.push('a.part'))
    target.emit('SIGTERM', 'SIGTERM')
    expect(interrupts.signal.aborted).toBe(true)
    expect(exits).toEqual([])
    now += 10
    target.emit('SIGTERM', 'SIGTERM')
    expect(exits).toEqual([])
    now += 2000
    target.emit('SIGINT', 'SIGINT')
    expect(removed).toEqual(['a.part'])
    expect(exits[0]).toBe(130)
    interrupts.dispose()
    remove()
  })

  it('under --json says so as the one error line on stderr', () => {
    const { target, exits, written } = fakeProcess()
    const remove = installSignalHandling(target, () => 1000, { json: true })
    target.emit('SIGTERM', 'SIGTERM')
    expect(exits).toEqual([143])
    expect(written().split('\n')).toHaveLength(2)
    expect(JSON.parse(written())).toEqual({ error: { code: 143, type: 'InterruptedError', message: 'Interrupted (SIGTERM)' } })
    remove()
  })

  it('knows a JSON command line by --json, --jsonl and --query, with or without =', () => {
    expect(wantsJsonErrors(['orders', 'list', '--json'])).toBe(true)
    expect(wantsJsonErrors(['orders', 'get', 'x', '--query=orderId'])).toBe(true)
    expect(wantsJsonErrors(['orders', 'list', '--jsonl'])).toBe(true)
    expect(wantsJsonErrors(['orders', 'list', '--csv', '--jsonish'])).toBe(false)
  })

  it('runs the clean-ups on a plain exit as well', () => {
    const { target } = fakeProcess()
    const remove = installSignalHandling(target)
    const removed: string[] = []
    addCleanup(() => removed.push('a.part'))
    target.emit('exit', 1)
    expect(removed).toEqual(['a.part'])
    remove()
  })
})
