// `payfac openapi`: the OpenAPI document the build wrote (dist/openapi.json, made from the client's
// zod schemas by src/client/openapi/document.ts), printed as it is: no zod, no schema built here.
// YAML loads the yaml library, only for --yaml.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

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

/** Writes text to stdout and waits until it is handed over (a pipe closed early ends quietly elsewhere). */
export function writeOut(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()))
  })
}
