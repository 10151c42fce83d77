// payfac as bin/run.js runs it, held at a barrier: the CLI is loaded first (its entry and the
// command's own bundled file, with the oclif they import), then this
// process says it is ready (a file `<barrier>.ready.<pid>`) and waits until the file
// PAYFAC_TEST_BARRIER exists, so that N copies started one after the other send their requests
// together rather than as fast as each loads its modules.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

const barrier = process.env.PAYFAC_TEST_BARRIER
if (!barrier) throw new Error('PAYFAC_TEST_BARRIER names the barrier file')
const bin = new URL('../../bin/run.js', import.meta.url)
const { main } = await import(new URL('../../dist/bundle/cli/start/main.js', import.meta.url).href)
const index = JSON.parse(readFileSync(new URL('../../dist/bundle/commands.json', import.meta.url), 'utf8'))
const argv = process.argv.slice(2)
for (let n = argv.length; n > 0; n--) {
  const entry = index.commands[argv.slice(0, n).join(':')]
  if (entry) {
    await import(new URL(`../../dist/bundle/${entry.file}`, import.meta.url).href)
    break
  }
}
writeFileSync(`${barrier}.ready.${process.pid}`, '')
while (!existsSync(barrier)) await new Promise((resolve) => setTimeout(resolve, 2))
await main(argv, bin.href)
