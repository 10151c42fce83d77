// Vitest's global set-up: the command tests run the built CLI in dist/, so before any test runs
// (and before each rerun in watch mode) dist/ must have been built from the sources in the tree.
// The build stamps dist/ with a digest of its inputs (scripts/build-inputs.mjs); when the tree's
// digest differs, or there is no stamp, the build runs here first, and a failed build fails the run.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'

import { buildInputsDigest, STAMP } from '../../scripts/build-inputs.mjs'

const ROOT = resolve(__dirname, '../..')

function stamped(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(ROOT, STAMP), 'utf8')) as { inputs?: string }).inputs
  } catch {
    return undefined
  }
}

/** Builds dist/ unless it was built from exactly the files in the tree. */
export function ensureFreshBuild(): void {
  const digest = buildInputsDigest(ROOT)
  if (stamped() === digest) return
  process.stderr.write('dist/ was not built from the sources in the tree: building it before the tests run (npm run build)\n')
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal}): no test runs on a stale dist/`)
}

export default function setup(project: TestProject): void {
  ensureFreshBuild()
  project.onTestsRerun(() => ensureFreshBuild())
}
