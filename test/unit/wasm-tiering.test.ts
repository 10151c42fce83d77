import { describe, expect, it } from 'vitest'

import { stayOnBaselineWasm } from '../../src/cli/runtime/wasm-tiering.js'

describe('keeping undici’s WebAssembly on the baseline compiler', () => {
  it('sets the flags on the Node versions whose V8 has them, and leaves a later one alone', () => {
    expect(stayOnBaselineWasm('20.20.2')).toBe(true)
    expect(stayOnBaselineWasm('24.1.0')).toBe(true)
    expect(stayOnBaselineWasm('26.0.0')).toBe(false)
  })
})
