// docs/architecture.md, "The rooms and who may import whom": output may import jmespath (for --query), cli-table3 (to
// draw tables on a terminal, loaded lazily by table-draw.ts only), csv-stringify (for CSV, only
// from csv.ts, which is loaded when CSV is printed), node:*, its own
// files, the client's pure money module, and other client modules for types only.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../../src/output')
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : []
  })
}

describe('src/output imports', () => {
  const files = sources(ROOT)

  it.each(files.map((f) => [path.relative(ROOT, f), f]))('%s imports only what output may', (_name, file) => {
    const text = fs.readFileSync(file, 'utf8')
    for (const match of text.matchAll(IMPORT)) {
      const typeOnly = Boolean(match[2])
      const spec = (match[3] ?? match[4] ?? match[5]) as string
      const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : spec
      if (!spec.startsWith('.')) {
        expect(
          ['jmespath', 'cli-table3'].includes(spec) ||
            spec.startsWith('node:') ||
            (/^csv-stringify(\/sync)?$/.test(spec) && file.endsWith(`${path.sep}csv.ts`)),
          `${spec}`,
        ).toBe(true)
      } else if (!target.startsWith(ROOT + path.sep)) {
        const inClient = target.startsWith(path.resolve(ROOT, '../client') + path.sep)
        const isMoney = target === path.resolve(ROOT, '../client/money.js')
        expect(inClient && (typeOnly || isMoney), `${spec} from ${path.relative(ROOT, file)}`).toBe(true)
      }
    }
  })
})
