#!/usr/bin/env node
// `--version` is answered here, before any module of ours or oclif's is loaded.
const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { readFileSync } = await import('node:fs')
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 starts it on its baseline compiler
  // and, by default, recompiles it with the optimising one on a background thread; Node waits for
  // that thread before it exits, some 60 ms after a one-request command has printed everything.
  // Staying on the baseline compiler costs nothing measurable when walking long lists (parsing
  // HTTP is a small part of that work), so the tier-up is switched off before undici is loaded.
  // A function the baseline compiler cannot handle is still compiled by the optimising one.
  // V8 prints an error for a flag it does not know, so only the versions whose V8 has these
  // flags (Node 20 to 24) get them; a later one just keeps its default.
  if (Number(process.versions.node.split('.')[0]) <= 24) {
    const { setFlagsFromString } = await import('node:v8')
    setFlagsFromString('--no-wasm-dynamic-tiering')
    setFlagsFromString('--no-wasm-tier-up')
  }
  // Node 22.1 and later keep compiled code between runs; Node 20 has no such cache.
  const { default: module } = await import('node:module')
  module.enableCompileCache?.()
  const { main } = await import('../dist/bundle/cli/main.js')
  await main(argv, import.meta.url)
}
