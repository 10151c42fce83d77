// Build: compile TypeScript into dist/, then generate oclif.manifest.json so that
// oclif never has to load every command file to answer --help.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)

function step(label, cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    console.error(`build: ${label} failed`)
    process.exit(result.status ?? 1)
  }
}

rmSync(join(root, 'dist'), { recursive: true, force: true })
rmSync(join(root, 'oclif.manifest.json'), { force: true })
step('tsc', bin('tsc'), ['-p', 'tsconfig.json'])
step('oclif manifest', bin('oclif'), ['manifest'])
