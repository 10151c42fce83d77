// The polling loop of `--poll` (cli/terminal/wait.ts) with a fake clock and sleep, and its progress lines.
import { describe, expect, it } from 'vitest'

import { formatElapsed, poll, progress } from '../../src/cli/terminal/wait.js'

/** A clock that moves only when the loop sleeps, and a log of the sleeps. */
function fakeTime() {
  let now = 0
  const sleeps: number[] = []
  return {
    now: () => now,
    sleeps,
    advance: (ms: number) => (now += ms),
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason
      sleeps.push(ms)
      now += ms
    },
  }
}

const classify = (status: string) => ({
  status,
  state: status === 'Active' ? ('done' as const) : status === 'Declined' ? ('failed' as const) : ('pending' as const),
})

describe('poll', () => {
  it('reads at once, then every interval, until the record is done', async () => {
    const time = fakeTime()
    const answers = ['Pending', 'Pending', 'Active']
    const updates: Array<[string, number, boolean]> = []
    const result = await poll({
      read: async () => answers.shift() as string,
      classify,
      intervalMs: 3000,
      timeoutMs: 60_000,
      now: time.now,
      sleep: time.sleep,
      onUpdate: (u) => updates.push([u.status, u.elapsedMs, u.changed]),
    })
    expect(result).toMatchObject({ outcome: 'done', status: 'Active', record: 'Active', elapsedMs: 6000, reads: 3 })
    expect(time.sleeps).toEqual([3000, 3000])
    expect(updates).toEqual([
      ['Pending', 0, true],
      ['Pending', 3000, false],
      ['Active', 6000, true],
    ])
  })

  it('stops at a failed state without waiting more', async () => {
    const time = fakeTime()
    const answers = ['Pending', 'Declined', 'Active']
    const result = await poll({ read: async () => answers.shift() as string, classify, intervalMs: 100, timeoutMs: 10_000, now: time.now, sleep: time.sleep })
    expect(result).toMatchObject({ outcome: 'failed', status: 'Declined', reads: 2 })
  })

  it('times out after a last read at the deadline, never sleeping past it', async () => {
    const time = fakeTime()
    const result = await poll({ read: async () => 'Pending', classify, intervalMs: 3000, timeoutMs: 10_000, now: time.now, sleep: time.sleep })
    expect(result).toMatchObject({ outcome: 'timeout', status: 'Pending', elapsedMs: 10_000, reads: 5 })
    expect(time.sleeps).toEqual([3000, 3000, 3000, 1000])
  })

  it('counts the time a read takes against the timeout', async () => {
    const time = fakeTime()
    const result = await poll({
      read: async () => {
        time.advance(4000)
        return 'Pending'
      },
      classify,
      intervalMs: 1000,
      timeoutMs: 10_000,
      now: time.now,
      sleep: time.sleep,
    })
    expect(result.outcome).toBe('timeout')
    expect(result.elapsedMs).toBeGreaterThanOrEqual(10_000)
    expect(result.reads).toBe(3)
  })

  it('is interrupted by the signal during a sleep, with the last status read', async () => {
    const controller = new AbortController()
    const result = await poll({
      read: async () => 'Pending',
      classify,
      intervalMs: 60_000,
      timeoutMs: 600_000,
      signal: controller.signal,
      onUpdate: () => setTimeout(() => controller.abort('SIGINT'), 5),
    })
    expect(result).toMatchObject({ outcome: 'interrupted', status: 'Pending', record: 'Pending', reads: 1 })
  })

  it('is interrupted by the signal during a read, which it passes to the read', async () => {
    const controller = new AbortController()
    const result = await poll({
      read: (signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('aborted')))
          setTimeout(() => controller.abort('SIGINT'), 5)
        }),
      classify,
      intervalMs: 10,
      timeoutMs: 1000,
      signal: controller.signal,
    })
    expect(result).toMatchObject({ outcome: 'interrupted', status: undefined, record: undefined, reads: 0 })
  })

  it('throws what a read throws when nothing aborted', async () => {
    const time = fakeTime()
    await expect(
      poll({ read: async () => Promise.reject(new Error('404')), classify, intervalMs: 1, timeoutMs: 10, now: time.now, sleep: time.sleep }),
    ).rejects.toThrow('404')
  })
})

describe('formatElapsed', () => {
  it.each([
    [850, '850ms'],
    [12_400, '12s'],
    [185_000, '3m 05s'],
    [3_725_000, '1h 02m'],
  ])('%i ms is %s', (ms, text) => expect(formatElapsed(ms)).toBe(text))
})

describe('progress', () => {
  it('writes one line per change of status when not on a terminal', () => {
    const out: string[] = []
    let now = 0
    const p = progress({ write: (t: string) => out.push(t), isTTY: false }, { label: 'Waiting for agreement ptagr_1', now: () => now })
    p.update('Pending')
    now = 3000
    p.update('Pending')
    now = 6000
    p.update('Active')
    p.stop()
    expect(out).toEqual(['Waiting for agreement ptagr_1: Pending (0ms)\n', 'Waiting for agreement ptagr_1: Active (6s)\n'])
  })

  it('draws a spinner in place on a terminal, with the status and the time, and clears it when stopped', () => {
    const out: string[] = []
    let now = 0
    const p = progress({ write: (t: string) => out.push(t), isTTY: true }, { label: 'Waiting for agreement ptagr_1', now: () => now, interactive: true })
    now = 12_000
    p.update('Pending')
    p.stop()
    p.update('Active')
    expect(out[0]).toMatch(/^\r\u001b\[2K⠋ Waiting for agreement ptagr_1: checking \(0ms\)$/)
    expect(out[1]).toMatch(/^\r\u001b\[2K. Waiting for agreement ptagr_1: Pending \(12s\)$/)
    expect(out.at(-1)).toBe('\r\u001b[2K')
    expect(out).toHaveLength(3)
  })
})

describe('watchInterrupts', () => {
  it('aborts on the first signal, ignores its echo, and exits 130 on a second Ctrl-C', async () => {
    const { EventEmitter } = await import('node:events')
    const { watchInterrupts } = await import('../../src/cli/runtime/interrupt.js')
    const exits: number[] = []
    const target = Object.assign(new EventEmitter(), { exit: (code: number) => void exits.push(code) }) as unknown as NodeJS.Process
    let now = 1000
    const interrupts = watchInterrupts(target, () => now)
    expect(interrupts.signal.aborted).toBe(false)
    target.emit('SIGINT', 'SIGINT')
    expect(interrupts.signal.aborted).toBe(true)
    now += 5
    target.emit('SIGINT', 'SIGINT') // the echo of an exit hook
    expect(exits).toEqual([])
    interrupts.dispose() // stays after a signal, so that a later echo cannot kill the process
    now += 2000
    target.emit('SIGINT', 'SIGINT')
    expect(exits).toEqual([130])
  })

  it('exits 143 when the second signal is a SIGTERM', async () => {
    const { EventEmitter } = await import('node:events')
    const { watchInterrupts } = await import('../../src/cli/runtime/interrupt.js')
    const exits: number[] = []
    const target = Object.assign(new EventEmitter(), { exit: (code: number) => void exits.push(code) }) as unknown as NodeJS.Process
    let now = 1000
    const interrupts = watchInterrupts(target, () => now)
    target.emit('SIGTERM', 'SIGTERM')
    expect(interrupts.signal.reason).toBe('SIGTERM')
    now += 2000
    target.emit('SIGTERM', 'SIGTERM')
    expect(exits).toEqual([143])
  })

  it('removes its handlers when nothing was received', async () => {
    const { watchInterrupts } = await import('../../src/cli/runtime/interrupt.js')
    const before = process.listenerCount('SIGINT')
    const interrupts = watchInterrupts()
    expect(process.listenerCount('SIGINT')).toBe(before + 1)
    interrupts.dispose()
    expect(process.listenerCount('SIGINT')).toBe(before)
  })

  it('quotes arguments of a resume command for a shell', async () => {
    const { commandLine } = await import('../../src/cli/runtime/interrupt.js')
    expect(commandLine('payfac', ['payto', 'pay', '--name', "Jo O'Brien", '--bban', '062-000 12345678', '--amount', '12.50'])).toBe(
      `payfac payto pay --name 'Jo O'\\''Brien' --bban '062-000 12345678' --amount 12.50`,
    )
  })
})
