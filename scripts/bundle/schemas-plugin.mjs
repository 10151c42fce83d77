// The esbuild plugin that builds the client's zod schemas on first use in the CLI bundle.
// Every schema of the contract is a module-level constant of src/client/schemas/*.ts, and
// building all of them (some 120) costs a command that uses one or two about 10 ms at start-up.
// Here each top-level `const X = <zod expression>` of those files (and of the client's resources
// and the config room, which keep a few schemas of their own) becomes
// `const X = lazySchema(() => <zod expression>)` (scripts/bundle/lazy-schema.mjs); the sources
// and the importable library are unchanged. A zod expression is a call chain starting from `z`
// or from another schema constant (`Money.optional()`, `TransactionDetails.partial()`) or from `idOf(…)`, or a
// plain reference to one (`export const Payout = AnyObject`); an object of fields that builds
// schemas (`const fields = { note: z.string() }`) is deferred the same way, since building it
// would load zod. Anything else (regular expressions, lists, helper functions) is left as it is.
//
// The contract's schemas also get their fast-check plan (src/client/fast-check.ts), computed here
// from the compiled schema (client/schemas/ of what tsc wrote before the bundle is made) and
// registered beside the lazy constant: a command checks an answer that conforms without building
// the schema or loading zod (which the bundle loads on first use, see zod-lazy.mjs).
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

const LAZY_FILES = /[\\/]src[\\/](client[\\/](schemas|resources)[\\/][\w-]+|client[\\/]client|config[\\/][\w-]+)\.ts$/
const SCHEMA_FILES = /[\\/]src[\\/]client[\\/]schemas[\\/][\w-]+\.ts$/
// Files whose schema constants get a registered plan.
const PLAN_FILES = /[\\/]src[\\/](client[\\/]schemas[\\/][\w-]+|config[\\/]profiles)\.ts$/

export function lazySchemas(root, compiledDir = join(root, 'dist')) {
  const helper = join(root, 'scripts/bundle/lazy-schema.mjs')
  const fastCheck = join(root, 'src/client/fast-check.ts')
  return {
    name: 'lazy-schemas',
    setup(on) {
      on.onLoad({ filter: LAZY_FILES }, async (args) => {
        const { default: ts } = await import('typescript')
        const names = []
        const out = lazify(ts, readFileSync(args.path, 'utf8'), args.path, names)
        if (names.length === 0) return undefined
        const header = `import { lazySchema as __lazySchema } from ${JSON.stringify(helper)}\n`
        if (!PLAN_FILES.test(args.path)) return { contents: header + out, loader: 'ts' }
        const plans = await planRegistrations(compiledDir, relative(join(root, 'src'), args.path).replace(/\.ts$/, '.js'), names)
        return { contents: `${header}import { registerPlan as __registerPlan } from ${JSON.stringify(fastCheck)}\n${out}\n${plans}`, loader: 'ts' }
      })
    },
  }
}

/**
 * `__registerPlan(X, () => (<plan>))` for each schema constant the file declares, from the
 * compiled schema; a plan is JSON and only evaluated when the schema is first used.
 */
async function planRegistrations(compiledDir, file, names) {
  const compiled = await import(pathToFileURL(join(compiledDir, file)).href)
  const { planOf } = await import(pathToFileURL(join(compiledDir, 'client/fast-check.js')).href)
  const lines = []
  for (const name of names) {
    const schema = compiled[name]
    if (!schema || typeof schema !== 'object' || !('_zod' in schema)) continue
    lines.push(`__registerPlan(${name}, () => (${JSON.stringify(planOf(schema) ?? null)}))`)
  }
  return lines.join('\n')
}

/** The module's text with each schema constant's initializer wrapped in `__lazySchema(() => …)`. */
export function lazify(ts, text, fileName = 'schemas.ts', wrapped = []) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const schemaNames = new Set()
  // Capitalised names imported from the schema files are schemas (from a schema file, so are
  // those of its neighbours).
  const inSchemas = fileName === 'schemas.ts' || SCHEMA_FILES.test(fileName)
  const fromSchemas = (spec) => /^(\.\.\/)*schemas\/[\w-]+\.js$|^\.\/schemas\/[\w-]+\.js$/.test(spec) || (inSchemas && /^\.\/[\w-]+\.js$/.test(spec))
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && fromSchemas(statement.moduleSpecifier.text)) {
      const named = statement.importClause?.namedBindings
      if (named && ts.isNamedImports(named)) for (const e of named.elements) if (/^[A-Z]/.test(e.name.text)) schemaNames.add(e.name.text)
    }
  }
  const edits = []
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer
      if (!init || !ts.isIdentifier(declaration.name)) continue
      if (isZodExpression(ts, init, schemaNames)) {
        schemaNames.add(declaration.name.text)
        wrapped.push(declaration.name.text)
      } else if (!(ts.isObjectLiteralExpression(init) && callsZod(ts, init))) continue
      edits.push({ start: init.getStart(source), end: init.getEnd() })
    }
  }
  let out = text
  for (const { start, end } of edits.reverse()) out = `${out.slice(0, start)}__lazySchema(() => (${out.slice(start, end)}))${out.slice(end)}`
  return out
}

/** An object of fields built with `z.…(…)` (its fields are deferred with it). */
function callsZod(ts, node) {
  let found = false
  const visit = (child) => {
    if (found || ts.isFunctionLike(child)) return
    if (ts.isCallExpression(child) && isZodExpression(ts, child, new Set())) found = true
    else ts.forEachChild(child, visit)
  }
  ts.forEachChild(node, visit)
  return found
}

/** `z.…(…)…`, `Known.…(…)`, or `Known` itself. */
function isZodExpression(ts, node, schemaNames) {
  let root = node
  let calls = 0
  while (ts.isCallExpression(root) || ts.isPropertyAccessExpression(root)) {
    if (ts.isCallExpression(root)) calls++
    root = root.expression
  }
  if (!ts.isIdentifier(root)) return false
  if (root.text === 'z' || root.text === 'idOf') return calls > 0
  return schemaNames.has(root.text)
}
