// Where the profile store lives. Apart from store.ts (conf), so that reading settings needs no conf.
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'

/**
 * conf's own default directory for the project name 'payfac' (env-paths with conf's "nodejs"
 * suffix): $XDG_CONFIG_HOME/payfac-nodejs or ~/.config/payfac-nodejs on Linux,
 * ~/Library/Preferences/payfac-nodejs on macOS, %APPDATA%\payfac-nodejs\Config on Windows.
 * Computed here rather than left to conf so that the directory is created with mode 0700
 * before conf touches it.
 */
export function defaultConfigDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  const name = 'payfac-nodejs'
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', name)
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), name, 'Config')
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), name)
}

export interface ProfileStoreOptions {
  /** The directory holding profiles.json. Default: PAYFAC_CONFIG_DIR, then conf's default. */
  dir?: string | undefined
  /** Where PAYFAC_CONFIG_DIR (and the platform default) are read from. Default: process.env. */
  env?: Record<string, string | undefined> | undefined
}

/** options.dir ?? PAYFAC_CONFIG_DIR ?? conf's default for 'payfac', as an absolute path. */
export function resolveConfigDir(options: ProfileStoreOptions = {}): string {
  const env = options.env ?? process.env
  const fromEnv = env.PAYFAC_CONFIG_DIR?.trim()
  return path.resolve(options.dir ?? (fromEnv ? fromEnv : defaultConfigDir(env)))
}
