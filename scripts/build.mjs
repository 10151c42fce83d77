// Build, in four steps, all into a staging folder (.build/, beside dist/) that replaces dist/ and
// oclif.manifest.json only at the end, so that a linked `payfac` keeps working while a build runs
// and after one fails:
// 1. tsc compiles src/ into dist/: the importable library (with its .d.ts) and the commands;
// 2. oclif reads those commands into oclif.manifest.json, so that help and command look-up never
//    load every command file;
// 3. esbuild bundles the command line (the entry point and every command) into dist/bundle/,
//    sharing oclif, the client, zod and the rest in a few chunks, and the manifest is pointed at
//    the bundled commands. Node then reads a handful of files instead of hundreds of modules
//    when a command runs (see `npm run bench`). esbuild takes every file as it is written: no
//    plugin, no rewriting; what is loaded late is loaded late because the source says so (a
//    dynamic import), and every dependency is bundled from its public entry points
//    (test/contract/front-doors.test.ts);
// 4. every help page, rendered by oclif's help with payfac's help class as it is printed without a
//    terminal, into dist/help.json (scripts/help-pages.mjs), so that such help needs no oclif;
// 5. a small command index, dist/bundle/commands.json, lets the CLI find a command's id in its
//    arguments without oclif's help system or its whole manifest (src/cli/start/dispatch.ts).
// Last, the contract as an OpenAPI 3.1 document, dist/openapi.json, made from the compiled client's
// zod schemas (src/client/openapi/document.ts), for `payfac openapi` and the emulator.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)

function step(label, cmd, args, cwd = root, env = process.env, stdio = 'inherit') {
  // The oclif tool's own update check would reach out to the registry; a build has no need of it.
  const result = spawnSync(cmd, args, { cwd, stdio, env: { ...env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true' } })
  if (result.status !== 0) {
    console.error(`build: ${label} failed`)
    process.exit(result.status ?? 1)
  }
}

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : []
  })
}

// The staging folder is a root of its own for oclif (package.json and node_modules as the
// project's), so that `oclif manifest` reads the commands just compiled there.
const { buildInputsDigest } = await import('./build-inputs.mjs')
// Read before anything is built: a file changed while the build runs makes the next test run build again.
const inputs = buildInputsDigest(root)
const stage = join(root, '.build')
rmSync(stage, { recursive: true, force: true })
mkdirSync(stage)
writeFileSync(join(stage, 'package.json'), readFileSync(join(root, 'package.json')))
symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir')
step('tsc', bin('tsc'), ['-p', 'tsconfig.json', '--outDir', join(stage, 'dist')])
step('oclif manifest', bin('oclif'), ['manifest'], stage)

const { build } = await import('esbuild')
const bundled = await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src/cli/start/main.ts'), ...sources(join(root, 'src/commands'))],
  outdir: join(stage, 'dist/bundle'),
  outbase: join(root, 'src'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  keepNames: false,
  chunkNames: 'chunks/[name]-[hash]',
  // oclif can load TypeScript commands in development; the bundle never does. The keychain binding
  // loads a native binary of its platform package: it stays a package, imported when first used.
  external: ['typescript', 'ts-node', 'tsx', '@napi-rs/keyring'],
  metafile: true,
  // Bundled CommonJS dependencies call require(); give ES modules one.
  banner: { js: "import{createRequire as __payfacRequire}from'node:module';const require=__payfacRequire(import.meta.url);" },
  logLevel: 'warning',
})
// Which files each bundled file holds and imports (read by the start-up import guard test; kept
// out of dist/bundle/, which is published), named as they will be once dist/ is swapped in.
const inStage = (path) => path.replace(/^\.build\//, '')
const metafile = {
  inputs: bundled.metafile.inputs,
  outputs: Object.fromEntries(
    Object.entries(bundled.metafile.outputs).map(([file, output]) => [
      inStage(file),
      { ...output, imports: output.imports.map((i) => (i.external ? i : { ...i, path: inStage(i.path) })) },
    ]),
  ),
}
writeFileSync(join(stage, 'dist/bundle-meta.json'), JSON.stringify(metafile))
const manifestPath = join(stage, 'oclif.manifest.json')
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
for (const command of Object.values(manifest.commands)) {
  const compiled = join(root, ...command.relativePath)
  const bundled = join(root, 'dist/bundle', relative(join(root, 'dist'), compiled))
  command.relativePath = relative(root, bundled).split('/')
}
// Compact: oclif reads the whole manifest (some 600 KB for 117 commands) on every command run, and
// the indentation oclif writes made it half as large again to read and parse.
writeFileSync(manifestPath, `${JSON.stringify(manifest)}\n`)

// Every help page, as oclif's help renders it without a terminal (scripts/help-pages.mjs), in a
// process of its own: its stdout is not a terminal and it is asked for no colour.
const { FORCE_COLOR: _colour, ...pageEnv } = process.env
step('help pages', process.execPath, [join(root, 'scripts/help-pages.mjs'), stage], root, { ...pageEnv, NO_COLOR: '1' }, ['ignore', 'pipe', 'inherit'])

const { commandIndex } = await import('./command-index.mjs')
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const index = commandIndex(manifest, pjson, (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')))
writeFileSync(join(stage, 'dist/bundle/commands.json'), `${JSON.stringify(index)}\n`)

// The contract as an OpenAPI 3.1 document, made from the client's zod schemas just compiled
// (src/client/openapi/document.ts): `payfac openapi` prints this file without loading zod.
const { openApiDocument } = await import(pathToFileURL(join(stage, 'dist/client/openapi/document.js')).href)
writeFileSync(join(stage, 'dist/openapi.json'), `${JSON.stringify(openApiDocument(), null, 2)}\n`)

// What this dist/ was built from (scripts/build-inputs.mjs), for the test run's freshness check.
writeFileSync(join(stage, 'dist/build-stamp.json'), `${JSON.stringify({ inputs })}\n`)

// The swap: the old dist/ moves aside and the new one takes its name (two renames on one file
// system, so a running `payfac` finds one or the other), then the manifest that matches it.
const old = join(root, '.build-old')
rmSync(old, { recursive: true, force: true })
try {
  renameSync(join(root, 'dist'), old)
} catch (error) {
  if (error.code !== 'ENOENT') throw error
}
renameSync(join(stage, 'dist'), join(root, 'dist'))
renameSync(manifestPath, join(root, 'oclif.manifest.json'))
rmSync(old, { recursive: true, force: true })
rmSync(stage, { recursive: true, force: true })
