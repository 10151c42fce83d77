// The esbuild plugin that builds the client's zod schemas on first use in the CLI bundle.
// Every schema of the contract is a module-level constant of src/client/schemas/*.ts, and
// building all of them (some 120) costs a command that uses one or two about 10 ms at start-up.
// Here each top-level `const X = <zod expression>` of those files becomes
// `const X = lazySchema(() => <zod expression>)` (scripts/bundle/lazy-schema.mjs); the sources
// and the importable library are unchanged. A zod expression is a call chain starting from `z`
// or from another schema constant (`Money.optional()`, `TransactionDetails.partial()`) or from `idOf(…)`, or a
// plain reference to one (`export const Payout = AnyObject`). Anything else (regular
// expressions, lists, objects of fields, helper functions) is left as it is.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export function lazySchemas(root) {
  const helper = join(root, 'scripts/bundle/lazy-schema.mjs')
  return {
    name: 'lazy-schemas',
    setup(on) {
      on.onLoad({ filter: /[\\/]src[\\/]client[\\/]schemas[\\/][\w-]+\.ts$/ }, async (args) => {
        const { default: ts } = await import('typescript')
        const out = lazify(ts, readFileSync(args.path, 'utf8'), args.path)
        return { contents: `import { lazySchema as __lazySchema } from ${JSON.stringify(helper)}\n${out}`, loader: 'ts' }
      })
    },
  }
}

/** The module's text with each schema constant's initializer wrapped in `__lazySchema(() => …)`. */
export function lazify(ts, text, fileName = 'schemas.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const schemaNames = new Set()
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && /^\.\/[\w-]+\.js$/.test(statement.moduleSpecifier.text)) {
      const named = statement.importClause?.namedBindings
      if (named && ts.isNamedImports(named)) for (const e of named.elements) if (/^[A-Z]/.test(e.name.text)) schemaNames.add(e.name.text)
    }
  }
  const edits = []
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer
      if (!init || !ts.isIdentifier(declaration.name) || !isZodExpression(ts, init, schemaNames)) continue
      schemaNames.add(declaration.name.text)
      edits.push({ start: init.getStart(source), end: init.getEnd() })
    }
  }
  let out = text
  for (const { start, end } of edits.reverse()) out = `${out.slice(0, start)}__lazySchema(() => (${out.slice(start, end)}))${out.slice(end)}`
  return out
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
