// `npm run bench`: prints the figures behind the start-up and streaming goals. Figures, not
// assertions: the tests never time anything.
import { startupBench } from './startup.mjs'
import { streamingBench } from './streaming.mjs'

console.log(`payfac benchmarks on node ${process.version}, ${process.platform}-${process.arch}\n`)
console.log('Start-up (median of runs; goals: --version within 10 ms of bare node, --help within 50 ms, a real API call within 100 ms)')
console.table(await startupBench())
console.log('\nStreaming lists (peak memory should stay flat as records grow)')
console.table(await streamingBench())
