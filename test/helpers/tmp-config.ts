// A throw-away config directory per test: `const { dir, cleanup } = makeTempConfigDir()`.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface TempConfigDir {
  /** An empty directory under the system temp dir, for PAYFAC_CONFIG_DIR or ProfileStore({ dir }). */
  dir: string
  /** Removes the directory and everything in it. Safe to call twice. */
  cleanup: () => void
}

export function makeTempConfigDir(prefix = 'payfac-config-'): TempConfigDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  return {
    dir,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  }
}
