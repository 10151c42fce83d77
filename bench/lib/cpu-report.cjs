// Preloaded (`node -r`) into each process a start-up benchmark spawns: at exit, the CPU time the
// process used (all its threads), written to file descriptor 3 for the benchmark to read. CPU
// time moves less than wall time when other work shares the machine.
const { writeSync } = require('node:fs')
process.on('exit', () => {
  const { user, system } = process.cpuUsage()
  try {
    writeSync(3, `${(user + system) / 1000}\n`)
  } catch {
    // Not started by the benchmark.
  }
})
