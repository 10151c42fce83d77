// The digest the test run compares with dist/'s stamp (scripts/build-inputs.mjs): any change to a
// source, a build script or the package settings changes it, so a stale dist/ is always rebuilt.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { buildInputsDigest } from '../../scripts/build-inputs.mjs'

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

function tree(): string {
  root = mkdtempSync(join(tmpdir(), 'payfac-inputs-'))
  mkdirSync(join(root, 'src/cli'), { recursive: true })
  mkdirSync(join(root, 'scripts'))
  writeFileSync(join(root, 'src/cli/refund.ts'), "export const said = 'Nothing remains to refund.'\n")
  writeFileSync(join(root, 'scripts/build.mjs'), '// build\n')
  for (const name of ['package.json', 'package-lock.json', 'tsconfig.json']) writeFileSync(join(root, name), '{}\n')
  return root
}

describe('the build inputs digest', () => {
  it('is the same for the same files, and changes with a message edited in src/', () => {
    const dir = tree()
    const before = buildInputsDigest(dir)
    expect(buildInputsDigest(dir)).toBe(before)
    writeFileSync(join(dir, 'src/cli/refund.ts'), "export const said = 'Nothing is left to refund.'\n")
    expect(buildInputsDigest(dir)).not.toBe(before)
  })

  it('changes when a file is renamed or added, or a build script or package setting changes', () => {
    const dir = tree()
    const seen = new Set([buildInputsDigest(dir)])
    renameSync(join(dir, 'src/cli/refund.ts'), join(dir, 'src/cli/refunds.ts'))
    seen.add(buildInputsDigest(dir))
    writeFileSync(join(dir, 'src/cli/new.ts'), '')
    seen.add(buildInputsDigest(dir))
    writeFileSync(join(dir, 'scripts/build.mjs'), '// build, changed\n')
    seen.add(buildInputsDigest(dir))
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n')
    seen.add(buildInputsDigest(dir))
    expect(seen.size).toBe(5)
  })
})
