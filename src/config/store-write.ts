// Changing the profile store: conf owns the file, under the store's lock (store-lock.ts).
//
// Loaded only by the commands that change the store (conf costs ~70 ms to import); reading
// profiles to make an API call never comes here (store.ts reads the JSON file directly).
//
// conf is pointed at the very file users already have: `cwd` is the config folder (resolved by
// paths.ts: PAYFAC_CONFIG_DIR or the system's folder), `configName` 'profiles' with the extension
// 'json', mode 0600, plain JSON written as payfac always wrote it (two-space indent, a final
// newline), no encryption, no schema of conf's own, no watching, and none of conf's version
// migrations (they would add an `__internal__` key to the file): the store's `version` is
// checked by payfac's own schema, and a future migration is a change run here like any other.
//
// conf writes atomically (atomically: a temporary file beside the target, fsync, chmod 0600,
// rename). A profiles.json that is a symbolic link has its target replaced; the link stays.
//
// conf's own read is never trusted with a damaged file: the store is read and validated by payfac
// first, under the lock, and a damaged one is refused before conf is even loaded. conf's
// `deserialize` is that same check, and `clearInvalidConfig: false`, so conf can never replace an
// unreadable file with an empty store.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { FileWriteError, removeStaleTemps } from './atomic-file.js'
import { ConfigError } from './errors.js'
import type { StoreData } from './profiles.js'
import { withStoreLock, type StoreLockWait } from './store-lock.js'

/** The store file's name, as conf spells it: `${configName}.${fileExtension}`. */
export const STORE_CONFIG_NAME = 'profiles'
export const STORE_FILE_EXTENSION = 'json'

/** Errors of the disk itself, said as one line with exit 1 (FileWriteError), as for the journals. */
const DISK_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EFBIG'])

export interface StoreChange {
  /** The config folder. */
  dir: string
  /** `<dir>/profiles.json`. */
  file: string
  /** Reads and validates the store as it is now (a damaged or exposed store throws ConfigError). */
  read: () => StoreData
  /** Parses and validates the store's JSON text, as `read` does (for conf's own reads). */
  parse: (text: string) => StoreData
  /** The store after the change; may throw to refuse it (nothing is written then). */
  change: (data: StoreData) => StoreData
  /** How the lock is waited for (tests). */
  wait?: StoreLockWait | undefined
}

/** Under the lock: read and validate afresh, apply the change, and let conf write the result. */
export async function changeStore(options: StoreChange): Promise<StoreData> {
  const { dir, file } = options
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw writeError(error, file)
  }
  return withStoreLock(
    file,
    async (held) => {
      const exists = fs.existsSync(file)
      // Validated here, before conf is loaded: a damaged store is refused and left as it is.
      const next = options.change(options.read())
      const { default: Conf } = await import('conf')
      if (held.compromised) {
        throw new ConfigError(`The lock of the profile store (${file}.lock) was taken away while this change was being made; nothing was written.`, {
          hint: 'Run the command again.',
        })
      }
      try {
        // A folder made by someone else before the store existed is narrowed before keys go in it.
        if (!exists && process.platform !== 'win32') fs.chmodSync(dir, 0o700)
        const conf = new Conf<StoreData>({
          cwd: dir,
          configName: STORE_CONFIG_NAME,
          fileExtension: STORE_FILE_EXTENSION,
          configFileMode: 0o600,
          clearInvalidConfig: false,
          accessPropertiesByDotNotation: false,
          watch: false,
          serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
          deserialize: options.parse,
        })
        if (path.resolve(conf.path) !== path.resolve(file)) {
          throw new ConfigError(`conf would write ${conf.path}, not the profile store ${file}; nothing was written.`)
        }
        removeLeftTemps(file)
        conf.store = next
      } catch (error) {
        throw writeError(error, file)
      }
      return next
    },
    options.wait,
  )
}

/**
 * Temporary files of a write that never finished (a payfac killed with SIGKILL mid-write) hold
 * credentials: under the lock no other write is under way, so conf's (atomically's
 * `profiles.json.tmp-<time><random>`) are all left-overs and removed, and so are those of payfac's
 * own writer from before conf (`.profiles.json.<pid>.<random>.tmp` of processes gone). conf does
 * not document that name: test/contract/conf-temp-files.test.ts kills a real conf write at its
 * rename and fails when an upgrade names the file otherwise.
 */
function removeLeftTemps(file: string): void {
  let target = file
  try {
    target = fs.realpathSync(file)
  } catch {
    // Not there yet: its folder is the config folder.
  }
  const dir = path.dirname(target)
  const name = path.basename(target)
  removeStaleTemps(dir, name)
  let entries: string[]
  try {
    entries = fs.readdirSync(dir)
  } catch {
    return
  }
  const escaped = name.replace(/[.*+?^$()|[\]{}\\]/g, '\\$&')
  const left = new RegExp(`^${escaped}\\.tmp-\\d{10}[0-9a-f]{6}$`)
  for (const entry of entries) if (left.test(entry)) fs.rmSync(path.join(dir, entry), { force: true })
}

function writeError(error: unknown, file: string): Error {
  if (error instanceof ConfigError) return error
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string' && DISK_FAILURES.has(code)) return new FileWriteError(file, error)
  // Never an error's message: a JSON parser's quotes the file, and the file holds credentials.
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (error instanceof Error ? error.name : 'unknown error'))
  return new ConfigError(`Cannot write the profile store ${file}: ${why}.`, {
    hint: 'Check the permissions of the file and its directory, or set PAYFAC_CONFIG_DIR to another directory.',
    cause: error,
  })
}
