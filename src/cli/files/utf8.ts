// Whether bytes read from a file are UTF-8 text. Node's decoders turn any other byte into U+FFFD
// without a word, so a value read from a file (a `--from-file` row, a `--data @FILE` body) went
// out changed: `ref\xff` and `ref\xfe` sent as the same reference.
import { isUtf8 } from 'node:buffer'

/** Where a UTF-8 reading stands between chunks: continuation bytes still owed, and the range the next one must fall in. */
export interface Utf8State {
  need: number
  lo: number
  hi: number
}

/**
 * The index in `bytes` of the first byte that is not UTF-8 (an overlong form, a surrogate, a stray
 * continuation byte, a byte never used), or -1; `state` carries a character cut at the chunk's end.
 * The decoders would turn such bytes into U+FFFD without a word: `ref\xff` and `ref\xfe` sent as
 * the same reference.
 */
export function firstNonUtf8(bytes: Uint8Array, state: Utf8State): number {
  if (state.need === 0 && isUtf8(bytes)) return -1
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number
    if (state.need > 0) {
      if (b < state.lo || b > state.hi) return i
      state.need--
      state.lo = 0x80
      state.hi = 0xbf
    } else if (b >= 0x80) {
      if (b >= 0xc2 && b <= 0xdf) state.need = 1
      else if (b >= 0xe0 && b <= 0xef) {
        state.need = 2
        if (b === 0xe0) state.lo = 0xa0
        if (b === 0xed) state.hi = 0x9f
      } else if (b >= 0xf0 && b <= 0xf4) {
        state.need = 3
        if (b === 0xf0) state.lo = 0x90
        if (b === 0xf4) state.hi = 0x8f
      } else return i
    }
  }
  return -1
}

/** A reading that starts at a character's start. */
export function utf8Start(): Utf8State {
  return { need: 0, lo: 0x80, hi: 0xbf }
}
