#!/usr/bin/env node
// The `payfac` executable. It checks the Node version, answers `--version` itself, before any module
// of ours or oclif's is loaded, and otherwise starts the bundled command line.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  // What runs below needs Node 22.19 (undici 8, oclif 5); on an older Node it would fail somewhere
  // inside a dependency with a stack trace. One line instead, and the configuration exit code.
  process.stderr.write(
    `Error: payfac needs Node.js 22.19 or newer (22, 24 or 26); this is ${process.version}.\nHint: install a supported Node.js from https://nodejs.org and run payfac again.\n`,
  )
  process.exit(3)
}
const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { readFileSync } = await import('node:fs')
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  // Compiled code is kept between runs (in the system's temporary folder) unless NODE_COMPILE_CACHE
  // or NODE_DISABLE_COMPILE_CACHE says otherwise.
  const { default: module } = await import('node:module')
  module.enableCompileCache()
  const { main } = await import('../dist/bundle/cli/start/main.js')
  await main(argv, import.meta.url)
}
