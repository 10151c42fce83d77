// Build, in three steps:
// 1. tsc compiles src/ into dist/: the importable library (with its .d.ts) and the commands;
// 2. oclif reads those commands into oclif.manifest.json, so that help and command look-up never
//    load every command file;
// 3. esbuild bundles the command line (the entry point and every command) into dist/bundle/,
//    sharing oclif, the client, zod and the rest in a few chunks, and the manifest is pointed at
//    the bundled commands. Node then reads a handful of files instead of hundreds of modules
//    when a command runs (see `npm run bench`); zod is bundled apart, as dist/bundle/zod.cjs,
//    and loaded only when a schema is first built;
// 4. a small command index, dist/bundle/commands.json, lets bin/run.js start a command without
//    loading oclif's configuration or parsing the whole manifest (src/cli/start/dispatch.ts).
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)

function step(label, cmd, args) {
  // The oclif tool's own update check would reach out to the registry; a build has no need of it.
  const env = { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true' }
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env })
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

rmSync(join(root, 'dist'), { recursive: true, force: true })
rmSync(join(root, 'oclif.manifest.json'), { force: true })
step('tsc', bin('tsc'), ['-p', 'tsconfig.json'])
step('oclif manifest', bin('oclif'), ['manifest'])

const { build } = await import('esbuild')
const ZOD_LAZY = join(root, 'scripts/bundle/zod-lazy.mjs')
// zod for the CLI bundle, as one CommonJS file that zod-lazy.mjs requires when a schema is first
// built, with only zod's English messages (see scripts/bundle/zod-locales.mjs).
await build({
  absWorkingDir: root,
  stdin: { contents: "export { z } from 'zod'", resolveDir: root, loader: 'js' },
  outfile: join(root, 'dist/bundle/zod.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  plugins: [
    {
      name: 'zod-locales',
      setup(on) {
        on.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
          /node_modules\/zod\/v4\/(classic|core)$/.test(args.resolveDir) ? { path: join(root, 'scripts/bundle/zod-locales.mjs') } : undefined,
        )
      },
    },
  ],
  logLevel: 'warning',
})
const { oclifLite } = await import('./bundle/oclif-plugin.mjs')
const { lazySchemas } = await import('./bundle/schemas-plugin.mjs')
const { undiciLite } = await import('./bundle/undici-plugin.mjs')
const bundled = await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src/cli/start/main.ts'), ...sources(join(root, 'src/commands'))],
  outdir: join(root, 'dist/bundle'),
  outbase: join(root, 'src'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: false,
  chunkNames: 'chunks/[name]-[hash]',
  // oclif can load TypeScript commands in development; the bundle never does.
  external: ['typescript', 'ts-node', 'tsx'],
  // Only the parts of undici the client uses (see scripts/bundle/undici-lite.cjs).
  plugins: [
    undiciLite(root),
    // oclif's Command, Flags and Args without the rest of oclif (see scripts/bundle/oclif-lite.cjs).
    oclifLite(root),
    // The client's zod schemas built on first use (see scripts/bundle/schemas-plugin.mjs).
    lazySchemas(root),
    {
      // zod loaded on first use, from dist/bundle/zod.cjs (see scripts/bundle/zod-lazy.mjs).
      name: 'zod-lazy',
      setup(on) {
        on.onResolve({ filter: /^zod$/ }, () => ({ path: ZOD_LAZY }))
      },
    },
  ],
  metafile: true,
  // Bundled CommonJS dependencies call require(); give ES modules one.
  banner: { js: "import{createRequire as __payfacRequire}from'node:module';const require=__payfacRequire(import.meta.url);" },
  logLevel: 'warning',
})
// Which files each bundled file holds and imports (read by the start-up import guard test; kept
// out of dist/bundle/, which is published).
writeFileSync(join(root, 'dist/bundle-meta.json'), JSON.stringify(bundled.metafile))
// zod-lazy.mjs finds zod.cjs one folder up from the chunk that holds it.
const zodLazyIn = Object.entries(bundled.metafile.outputs).filter(([, o]) => Object.hasOwn(o.inputs, relative(root, ZOD_LAZY)))
if (zodLazyIn.length !== 1 || !/^dist\/bundle\/chunks\/[^/]+\.js$/.test(zodLazyIn[0][0])) {
  console.error(`build: scripts/bundle/zod-lazy.mjs must be in one chunk of dist/bundle/chunks/, not ${zodLazyIn.map(([f]) => f).join(', ') || 'nowhere'}`)
  process.exit(1)
}

const manifestPath = join(root, 'oclif.manifest.json')
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
for (const command of Object.values(manifest.commands)) {
  const compiled = join(root, ...command.relativePath)
  const bundled = join(root, 'dist/bundle', relative(join(root, 'dist'), compiled))
  command.relativePath = relative(root, bundled).split('/')
}
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)

const { commandIndex } = await import('./command-index.mjs')
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const index = commandIndex(manifest, pjson, (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')))
writeFileSync(join(root, 'dist/bundle/commands.json'), `${JSON.stringify(index)}\n`)
