// docs/architecture.md, "The rooms and who may import whom": config may import conf, zod, the lock library (proper-lockfile), the OS keychain
// binding (@napi-rs/keyring, only by a dynamic import: keychain.ts), the PostgreSQL client (postgres, only in
// shared-journal.ts, itself loaded only by a dynamic import), node:*, its own files and
// the shared well-known seed, and of the client only its pure fast check (client/fast-check.ts,
// which reads the profile store without loading zod) and key prefix (client/key-prefix.ts); never
// oclif, output or the rest of the client.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../../src/config')
const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm

describe('src/config imports', () => {
  const files = fs.readdirSync(ROOT).filter((name) => name.endsWith('.ts'))

  it.each(files)('%s imports only what config may', (name) => {
    const file = path.join(ROOT, name)
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = (match[3] ?? match[4] ?? match[5]) as string
      if (spec.startsWith('.')) {
        const target = path.resolve(ROOT, spec)
        const allowed =
          target.startsWith(ROOT + path.sep) ||
          target === path.resolve(ROOT, '../well-known.js') ||
          target === path.resolve(ROOT, '../client/fast-check.js') ||
          target === path.resolve(ROOT, '../client/key-prefix.js')
        expect(allowed, `${spec} from ${name}`).toBe(true)
      } else {
        // The PostgreSQL client only in the shared journal, which is itself loaded only by a dynamic import (cli/safety/open-journal.ts).
        const shared = spec === 'postgres' && name === 'shared-journal.ts'
        expect(['conf', 'zod', 'proper-lockfile', '@napi-rs/keyring'].includes(spec) || shared || spec.startsWith('node:'), `${spec} from ${name}`).toBe(true)
      }
    }
  })

  it('keeps conf out of the pure modules', () => {
    for (const name of ['profiles.ts', 'resolve.ts', 'errors.ts']) {
      expect(fs.readFileSync(path.join(ROOT, name), 'utf8')).not.toMatch(/from ['"]conf['"]|from ['"]\.\/store\.js['"]/)
    }
  })

  it('loads conf only where the store is changed (store-write.ts), and conf and the lock library only lazily', () => {
    const staticFrom = /^\s*import\s+(?!type\b)[^'"]*?from\s+['"](conf|proper-lockfile)['"]/m
    const conf = /from ['"]conf['"]|import\(\s*['"]conf['"]\s*\)/
    for (const name of files) {
      const text = fs.readFileSync(path.join(ROOT, name), 'utf8')
      expect(text, name).not.toMatch(staticFrom)
      if (name !== 'store-write.ts') expect(text, name).not.toMatch(conf)
    }
    expect(fs.readFileSync(path.join(ROOT, 'store-write.ts'), 'utf8')).toMatch(/import\(\s*['"]conf['"]\s*\)/)
  })

  it('loads the keychain binding only in keychain.ts, and only lazily', () => {
    for (const name of files) {
      const text = fs.readFileSync(path.join(ROOT, name), 'utf8')
      expect(text, name).not.toMatch(/^\s*import\s+(?!type\b)[^'"]*?from\s+['"]@napi-rs\/keyring['"]/m)
      if (name !== 'keychain.ts') expect(text, name).not.toMatch(/@napi-rs\/keyring/)
    }
    expect(fs.readFileSync(path.join(ROOT, 'keychain.ts'), 'utf8')).toMatch(/import\(\s*['"]@napi-rs\/keyring['"]\s*\)/)
  })
})
