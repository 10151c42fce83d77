// `npm run watch`: rebuilds dist/ whenever a source changes, so that a linked `payfac` and the
// tests always run what is in src/. (A test run rebuilds by itself when dist/ is stale, see
// test/setup/fresh-build.ts; this keeps the CLI you try by hand current too.) One build at a time:
// changes made while a build runs start the next one when it ends.
import { spawn } from 'node:child_process'
import { watch } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
let running = false
let again = false
let timer

function build() {
  if (running) {
    again = true
    return
  }
  running = true
  const started = Date.now()
  const child = spawn(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })
  child.on('exit', (code) => {
    running = false
    process.stderr.write(code === 0 ? `watch: built in ${Date.now() - started} ms\n` : `watch: the build failed (exit ${code}); waiting for the next change\n`)
    if (again) {
      again = false
      build()
    }
  })
}

for (const dir of ['src', 'scripts']) {
  watch(join(root, dir), { recursive: true }, () => {
    clearTimeout(timer)
    timer = setTimeout(build, 150)
  })
}
process.stderr.write('watch: building now, then after every change under src/ and scripts/ (Ctrl-C to stop)\n')
build()
