// `GET /__emulator/openapi.json`: the document `payfac openapi` prints, with this emulator as its
// one server. It is the file the build wrote (dist/openapi.json of this package, found by walking
// up from this module, wherever the build put it); from the sources, before any build, the same
// builder (src/client/openapi/document.ts) makes it. Read or made once, on the first request.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { openApiDocument } from '../client/openapi/document.js'

let document: Record<string, unknown> | undefined

export function emulatorOpenApi(baseUrl: string): Record<string, unknown> {
  document ??= builtDocument() ?? openApiDocument()
  return { ...document, servers: [{ url: baseUrl, description: 'This payfac emulator' }] }
}

/** dist/openapi.json of the payfac package this module belongs to, if the build wrote one. */
function builtDocument(): Record<string, unknown> | undefined {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let up = 0; up < 6; up++) {
    const file = join(dir, 'dist', 'openapi.json')
    if (existsSync(join(dir, 'package.json')) && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    dir = dirname(dir)
  }
  return undefined
}
