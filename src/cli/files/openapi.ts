// `payfac openapi`: the OpenAPI document the build wrote (dist/openapi.json, made from the client's
// zod schemas by src/client/openapi/document.ts), printed as it is: no zod, no schema built here.
// YAML loads the yaml library, only for --yaml.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the build puts the document, under the package root. */
export const OPENAPI_FILE = 'dist/openapi.json'

/** The document's text: JSON as the build wrote it, or the same as YAML. */
export async function openApiText(root: string, format: 'json' | 'yaml'): Promise<string> {
  let text: string
  try {
    text = await readFile(join(root, OPENAPI_FILE), 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    throw new Error(`The OpenAPI document ${OPENAPI_FILE} is missing from this installation (${code}); it is written by \`npm run build\``)
  }
  if (format === 'json') return text
  // yaml is CommonJS: bundled, its exports come as the default export.
  const loaded = (await import('yaml')) as { default?: typeof import('yaml') } & Partial<typeof import('yaml')>
  const { stringify } = (loaded.default ?? loaded) as typeof import('yaml')
  return stringify(JSON.parse(text) as unknown, { lineWidth: 0 })
}

/**
 * `payfac openapi` and `payfac openapi --yaml` exactly, answered before oclif loads: true when
 * printed. Anything else (help, other flags, a missing file) is left to the command, which
 * parses and reports as every command does.
 */
export async function openApiQuickly(argv: string[], root: URL): Promise<boolean> {
  if (argv[0] !== 'openapi' || argv.length > 2 || (argv.length === 2 && argv[1] !== '--yaml')) return false
  let text: string
  try {
    text = await openApiText(fileURLToPath(root), argv[1] === '--yaml' ? 'yaml' : 'json')
  } catch {
    return false
  }
  writeOut(text)
  return true
}

/** Writes text to stdout; a pending write keeps the process alive until it is handed over (a closed pipe ends quietly, see runtime/pipes.ts). */
export function writeOut(text: string): void {
  process.stdout.write(text)
}
