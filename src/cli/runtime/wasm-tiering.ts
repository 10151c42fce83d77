// undici parses HTTP with llhttp compiled to WebAssembly. V8 starts it on its baseline compiler
// and, by default, recompiles it with the optimising one on a background thread; Node waits for
// that thread before it exits, some 60 ms after a one-request command has printed everything.
// Staying on the baseline compiler costs nothing measurable when walking long lists (parsing
// HTTP is a small part of that work), so the tier-up is switched off before a command runs (and
// so before undici compiles llhttp). A function the baseline compiler cannot handle is still
// compiled by the optimising one.
import { setFlagsFromString } from 'node:v8'

/**
 * Switches off the tier-up. V8 prints an error for a flag it does not know, so only the versions
 * whose V8 has these flags (Node 20 to 24) get them; a later one keeps its default.
 */
export function stayOnBaselineWasm(nodeVersion = process.versions.node): boolean {
  if (Number(nodeVersion.split('.')[0]) > 24) return false
  setFlagsFromString('--no-wasm-dynamic-tiering')
  setFlagsFromString('--no-wasm-tier-up')
  return true
}
