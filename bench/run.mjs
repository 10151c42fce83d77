// `npm run bench`: runs every bench/*.bench.mjs module and prints one table of figures, each
// with its goal, what was measured, the baseline measured in the same run, their ratio, and
// whether the goal is met. Figures, not assertions: `npm test` never times anything.
//
//   npm run bench                   everything (under 10 minutes on a 2-core machine)
//   npm run bench -- --quick        a smaller run of each module, to check that they work
//   npm run bench -- --only startup modules whose file name contains "startup"
//   npm run bench -- --write        also put the table into BENCHMARKS.md
//   npm run bench -- --only startup --write
//                                   put this part's table into its own section of BENCHMARKS.md,
//                                   one per Node major (so the start-up figures of Node 20 and
//                                   24 stand side by side; run it again under the other Node)
//
// A module: `export default async function bench(ctx)` returning rows
// `{ figure, goal, measured, baseline, ratio: number|null, pass: boolean|null }`, with
// `ctx = { quick, log }`. It runs what it measures itself (from dist/, built by `npm run
// build`), cleans up after itself, and writes nothing to stdout: progress goes through ctx.log
// (stderr). A module that throws is reported as a row that misses, and the others still run.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const write = args.includes('--write')
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined

const dir = fileURLToPath(new URL('.', import.meta.url))
const modules = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.mjs') && (!only || name.includes(only)))
  .sort()

const started = Date.now()
const log = (line) => process.stderr.write(`${line}\n`)
const rows = []
for (const name of modules) {
  const t0 = Date.now()
  log(`bench: ${name}${quick ? ' (quick)' : ''}`)
  try {
    const { default: bench } = await import(new URL(name, import.meta.url).href)
    const produced = await bench({ quick, log })
    for (const row of produced) rows.push({ module: name, ...row })
  } catch (error) {
    rows.push({ module: name, figure: `${name} failed: ${firstLine(error)}`, goal: '-', measured: '-', baseline: '-', ratio: null, pass: false })
  }
  log(`bench: ${name} took ${((Date.now() - t0) / 1000).toFixed(1)} s`)
}

const table = render(rows)
process.stdout.write(`${table}\n`)
if (write) {
  const path = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url))
  const text = readFileSync(path, 'utf8')
  // The whole run on Node 22 (the oldest supported line) is the main table; a part (--only), or the
  // whole run on another line, has a section of its own per Node major.
  const major = process.versions.node.split('.')[0]
  const section = only ? `${only}-node${major}` : major === '22' ? '' : `all-node${major}`
  const open = `<!-- bench:${section ? `${section}:` : ''}start -->`
  const close = `<!-- bench:${section ? `${section}:` : ''}end -->`
  const start = text.indexOf(open)
  const end = text.indexOf(close)
  if (start !== -1 && end !== -1) writeFileSync(path, `${text.slice(0, start)}${open}\n${table}\n${text.slice(end)}`)
  else if (section)
    writeFileSync(path, `${text.trimEnd()}\n\n## Latest run of ${only ? `"${only}"` : 'every module'} on Node ${major}\n\n${open}\n${table}\n${close}\n`)
  else throw new Error(`BENCHMARKS.md has no ${open} … ${close} markers`)
  log(`bench: table written to BENCHMARKS.md${section ? ` (section ${section})` : ''}`)
}
log(`bench: ${modules.length} modules in ${((Date.now() - started) / 1000).toFixed(0)} s`)

function render(all) {
  const cpus = os.cpus()
  const lines = [
    `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()} ${os.arch()}`,
    `Node ${process.version}; ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}${quick ? '; quick run (smaller samples: not for the record)' : ''}`,
    `Result: ${all.filter((r) => r.pass === true).length} pass, ${all.filter((r) => r.pass === false).length} miss, ${all.filter((r) => r.pass == null).length} without a goal`,
    '',
    '| figure | goal | measured | baseline (same run) | ratio | result |',
    '| --- | --- | --- | --- | --- | --- |',
  ]
  for (const r of all) {
    const ratio = typeof r.ratio === 'number' && Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : '-'
    const result = r.pass === true ? 'pass' : r.pass === false ? 'MISS' : '-'
    lines.push(`| ${cell(r.figure)} | ${cell(r.goal)} | ${cell(r.measured)} | ${cell(r.baseline)} | ${ratio} | ${result} |`)
  }
  return lines.join('\n')
}

function cell(value) {
  return String(value ?? '-')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ')
}

function firstLine(error) {
  return String(error instanceof Error ? error.message : error).split('\n')[0]
}
