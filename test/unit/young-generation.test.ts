// The cap on the young generation during a walk, with V8's statistics and flags stood in for.
import { afterEach, describe, expect, it, vi } from 'vitest'

const v8 = vi.hoisted(() => ({ newSpace: 0, flags: [] as string[] }))
vi.mock('node:v8', () => ({
  getHeapSpaceStatistics: () => [{ space_name: 'old_space', space_size: 1 << 30 }, { space_name: 'new_space', space_size: v8.newSpace }],
  setFlagsFromString: (flag: string) => v8.flags.push(flag),
}))

const { YOUNG_GENERATION_CAP_BYTES, capYoungGeneration } = await import('../../src/cli/young-generation.js')

afterEach(() => {
  vi.useRealTimers()
  v8.flags = []
})

describe('capping the young generation during a walk', () => {
  it('stops its growth once it reaches the cap, not before, and puts the default back at the end', () => {
    vi.useFakeTimers()
    v8.newSpace = YOUNG_GENERATION_CAP_BYTES / 4
    const end = capYoungGeneration('20.20.2')
    vi.advanceTimersByTime(100)
    expect(v8.flags).toEqual([])
    v8.newSpace = YOUNG_GENERATION_CAP_BYTES
    vi.advanceTimersByTime(100)
    expect(v8.flags).toEqual(['--semi-space-growth-factor=1'])
    end()
    expect(v8.flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2'])
  })

  it('leaves V8 alone on a Node whose V8 it has not been measured on', () => {
    v8.newSpace = YOUNG_GENERATION_CAP_BYTES * 2
    capYoungGeneration('26.0.0')()
    expect(v8.flags).toEqual([])
  })
})
