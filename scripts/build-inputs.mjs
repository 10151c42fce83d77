// What the build reads, as one digest: every file under src/ and scripts/, and the package and
// compiler settings. The build writes it into dist/build-stamp.json; the test run compares it with
// the tree (test/setup/fresh-build.ts) and rebuilds when they differ, so that no test runs a
// bundle made from other sources than the ones in the tree.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const TREES = ['src', 'scripts']
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json']

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : []
  })
}

/** The digest of the build's inputs under `root` (hex SHA-256 of each file's name and bytes, in order). */
export function buildInputsDigest(root) {
  const files = [...TREES.flatMap((tree) => walk(join(root, tree))), ...FILES.map((name) => join(root, name))]
    .map((path) => relative(root, path).split('\\').join('/'))
    .sort()
  const hash = createHash('sha256')
  for (const name of files) {
    hash.update(`${name}\0`)
    hash.update(readFileSync(join(root, name)))
    hash.update('\0')
  }
  return hash.digest('hex')
}

export const STAMP = 'dist/build-stamp.json'
