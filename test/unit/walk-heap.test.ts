// The heap's shape during a walk, with V8's statistics and flags stood in for.
import { afterEach, describe, expect, it, vi } from 'vitest'

const v8 = vi.hoisted(() => ({ newSpace: 0, flags: [] as string[] }))
vi.mock('node:v8', () => ({
  getHeapSpaceStatistics: () => [
    { space_name: 'old_space', space_size: 1 << 30 },
    { space_name: 'new_space', space_size: v8.newSpace },
  ],
  setFlagsFromString: (flag: string) => v8.flags.push(flag),
}))

const { OLD_GENERATION_GROWTH_PERCENT, YOUNG_GENERATION_CAP_BYTES, shapeHeapForWalk } = await import('../../src/cli/runtime/walk-heap.js')

afterEach(() => {
  vi.useRealTimers()
  v8.flags = []
})

describe('the heap during a walk', () => {
  it('limits the old generation at once, stops the young one growing once it reaches the cap, and puts the defaults back at the end', () => {
    vi.useFakeTimers()
    const growth = `--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`
    v8.newSpace = YOUNG_GENERATION_CAP_BYTES / 4
    const end = shapeHeapForWalk('20.20.2')
    vi.advanceTimersByTime(100)
    expect(v8.flags).toEqual([growth])
    v8.newSpace = YOUNG_GENERATION_CAP_BYTES
    vi.advanceTimersByTime(100)
    expect(v8.flags).toEqual([growth, '--semi-space-growth-factor=1'])
    end()
    expect(v8.flags).toEqual([growth, '--semi-space-growth-factor=1', '--semi-space-growth-factor=2', '--heap-growing-percent=0'])
  })

  it('leaves V8 alone on a Node whose V8 it has not been measured on', () => {
    v8.newSpace = YOUNG_GENERATION_CAP_BYTES * 2
    shapeHeapForWalk('28.0.0')()
    expect(v8.flags).toEqual([])
  })
})
