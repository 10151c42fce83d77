// payfac as bin/run.js runs it, held at a barrier: the CLI is loaded first, then this process
// says it is ready (a file `<barrier>.ready.<pid>`) and waits until the file PAYFAC_TEST_BARRIER
// exists, so that N copies started one after the other send their requests together.
import { existsSync, writeFileSync } from 'node:fs'

const barrier = process.env.PAYFAC_TEST_BARRIER
if (!barrier) throw new Error('PAYFAC_TEST_BARRIER names the barrier file')
const bin = new URL('../../bin/run.js', import.meta.url)
const { main } = await import(new URL('../../dist/bundle/cli/start/main.js', import.meta.url).href)
writeFileSync(`${barrier}.ready.${process.pid}`, '')
while (!existsSync(barrier)) await new Promise((resolve) => setTimeout(resolve, 2))
await main(process.argv.slice(2), bin.href)
