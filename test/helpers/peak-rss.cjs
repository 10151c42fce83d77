// Preloaded into a spawned payfac (NODE_OPTIONS=--require …/peak-rss.cjs): when it exits, its peak
// resident memory (KiB, from getrusage) goes to the file PAYFAC_TEST_PEAK_RSS_FILE names. A test
// reads the bound it asserts from there, not from a clock.
const file = process.env.PAYFAC_TEST_PEAK_RSS_FILE
if (file) {
  process.on('exit', () => {
    require('node:fs').writeFileSync(file, String(process.resourceUsage().maxRSS))
  })
}
