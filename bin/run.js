#!/usr/bin/env node
// `--version` is answered here, before any module of ours or oclif's is loaded.
const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { readFileSync } = await import('node:fs')
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  // Node 22.1 and later keep compiled code between runs; Node 20 has no such cache.
  const { default: module } = await import('node:module')
  module.enableCompileCache?.()
  const { main } = await import('../dist/bundle/cli/start/main.js')
  await main(argv, import.meta.url)
}
