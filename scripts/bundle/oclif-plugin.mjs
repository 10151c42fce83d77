// The esbuild plugin behind scripts/bundle/oclif-lite.cjs:
// - `@oclif/core` imported by our sources resolves to oclif-lite.cjs, and `@oclif/core/index`
//   (used by oclif-lite.cjs alone) to oclif's real index;
// - a few requires inside oclif's modules that a running command never uses are deferred until
//   first use: the configuration loader (only Command.run uses it, and the fast start does not
//   call it), the help system (the `--help` flag and the error handler), the terminal toolkit (a
//   command prints through process.stdout), ejs (help templates), and Node's readline and
//   perf_hooks (a flag read from stdin, OCLIF_PERFORMANCE). Each deferred module is loaded,
//   unchanged, by the first property read. The build stops if oclif's code no longer has the
//   expected line, rather than bundle something untested;
// - oclif's own dependencies that only its configuration loader and help use stay out of the
//   bundle (FROM_OCLIF below).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const DEFER = {
  'lib/command.js': ['const config_1 = require("./config");', 'const ux_1 = require("./ux");', 'const util_1 = require("./help/util");'],
  'lib/flags.js': ['const help_1 = require("./help");'],
  'lib/errors/index.js': ['var handle_1 = require("./handle");'],
  'lib/parser/help.js': ['const ux_1 = require("../ux");'],
  'lib/help/util.js': ['const ejs_1 = __importDefault(require("ejs"));'],
  // Node's readline (for a flag read from standard input) and perf_hooks (OCLIF_PERFORMANCE).
  'lib/parser/parse.js': ['const node_readline_1 = require("node:readline");'],
  'lib/performance.js': ['const node_perf_hooks_1 = require("node:perf_hooks");'],
}

// oclif's own dependencies that only its configuration loader, its help and its spinner use
// (globbing, semver ranges, config-file search, templates, spinner frames): about half of oclif's
// part of the bundle, which Node would otherwise parse on every start. They stay out of the
// bundle and are required from oclif's installation when first used, exactly where oclif
// requires them, so a command that never loads oclif's configuration never reads them.
const FROM_OCLIF = ['cli-spinners', 'semver', 'minimatch', 'ejs', 'tinyglobby', 'lilconfig', 'get-package-type']

const LAZY = 'function __payfacLazy(load){let m;return new Proxy({},{get:(_,k)=>(m??=load())[k],has:(_,k)=>k in(m??=load())})}\n'

function defer(line) {
  const m = /^(const|var) (\w+) = (__importDefault\()?(require\("[^"]+"\))\)?;$/.exec(line)
  if (!m) throw new Error(`oclif-plugin: cannot defer ${line}`)
  const [, kind, name, wrapped, call] = m
  return wrapped ? `${kind} ${name} = { get default() { return ${call} } };` : `${kind} ${name} = __payfacLazy(() => ${call});`
}

export function oclifLite(root) {
  const lite = join(root, 'scripts/bundle/oclif-lite.cjs')
  const core = dirname(createRequire(join(root, 'package.json')).resolve('@oclif/core/package.json'))
  return {
    name: 'oclif-lite',
    setup(on) {
      on.onResolve({ filter: /^@oclif\/core$/ }, () => ({ path: lite }))
      on.onResolve({ filter: /^@oclif\/core\/index$/ }, () => ({ path: join(core, 'lib/index.js') }))
      const fromOclif = new RegExp(`^(${FROM_OCLIF.join('|')})(/.*)?$`)
      on.onResolve({ filter: fromOclif }, (args) =>
        args.importer.startsWith(core) ? { path: args.path, namespace: 'from-oclif' } : undefined,
      )
      // Resolved from @oclif/core's own folder (where npm put what it depends on), when required.
      on.onLoad({ filter: /.*/, namespace: 'from-oclif' }, (args) => ({
        contents: `module.exports = require('node:module').createRequire(require.resolve('@oclif/core/package.json'))(${JSON.stringify(args.path)})`,
        loader: 'js',
        resolveDir: root,
      }))
      on.onLoad({ filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/].*\.js$/ }, (args) => {
        const file = args.path.slice(core.length + 1).split('\\').join('/')
        const lines = DEFER[file]
        if (!lines) return undefined
        let text = readFileSync(args.path, 'utf8')
        for (const line of lines) {
          if (text.split(line).length !== 2) throw new Error(`oclif-plugin: ${file} no longer has: ${line}`)
          text = text.replace(line, defer(line))
        }
        return { contents: LAZY + text, loader: 'js' }
      })
    },
  }
}
