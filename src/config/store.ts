// The profile store: one JSON file, `<dir>/profiles.json`, owned by conf.
//
// - The folder is created with mode 0700 and the file with mode 0600: it may hold credentials in
//   clear text (a profile whose secret is not in the OS keychain nor printed by a command, see
//   secrets.ts), readable by the owner only. A store whose file or folder others can read or
//   write, or that belongs to another user, is refused (exit 3) with the command that fixes it; a
//   folder that exists before the file does is narrowed to 0700 when the file is first written.
// - A read (every API call resolves its settings here) is one non-blocking open, an fstat (a FIFO
//   or device there is refused, never waited on), one read and the store's check
//   (a fast-check plan, zod only for a store that fails it): no lock, no conf. The file is conf's
//   plain JSON, so reading it directly needs nothing of conf.
// - A change (add, use, remove) goes through store-write.ts, loaded only then: under the lock
//   `profiles.json.lock` (proper-lockfile) it reads the file afresh, validates it, applies itself,
//   and conf writes the result atomically. Concurrent changes by several processes all land, and
//   a crash mid-write leaves the old file or the new one, never half of either.
// - Every change reads (and so validates) first and only then writes: a damaged file is
//   reported, named, and never overwritten (conf never sees it).
import fs from 'node:fs'
import path from 'node:path'
import { ConfigError } from './errors.js'
import { resolveConfigDir, type ProfileStoreOptions } from './paths.js'
import { checkPrivate } from './store-lock.js'
import { LOCAL_PROFILE_NAME, describeIssues, parseProfile, soundStore, storeSchema, unknownProfile, type Profile, type StoreData } from './profiles.js'

// As conf names it: configName 'profiles', fileExtension 'json' (store-write.ts).
const STORE_FILE_NAME = 'profiles.json'

export { defaultConfigDir, resolveConfigDir, type ProfileStoreOptions } from './paths.js'

export interface AddProfileOptions {
  /** Make it the active profile. */
  use?: boolean | undefined
  /** Overwrite a profile of the same name instead of refusing. */
  replace?: boolean | undefined
}

function damaged(file: string, detail: string): ConfigError {
  return new ConfigError(`The profile store ${file} is damaged: ${detail}. It has been left as it is.`, {
    reason: 'damaged-store',
    hint: `Move it aside (for example: mv "${file}" "${file}.damaged") and add your profiles again, or correct it by hand.`,
  })
}

/** JSON text → validated store, or a ConfigError. Never quotes the text: it holds credentials. */
function parseStoreText(text: string, file: string): StoreData {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // V8's SyntaxError message quotes part of the input, so it is not passed on.
    throw damaged(file, 'it is not valid JSON')
  }
  // A sound store is taken as it is; only one that is not needs zod, to say what is wrong.
  const sound = soundStore(value)
  if (sound) return sound
  const result = storeSchema.safeParse(value)
  if (!result.success) throw damaged(file, describeIssues(result.error))
  return result.data
}

function fileError(error: unknown, file: string, doing: 'read' | 'write'): ConfigError {
  if (error instanceof ConfigError) return error
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? (error instanceof Error ? error.message : String(error)))
  return new ConfigError(`Cannot ${doing} the profile store ${file}: ${why}.`, {
    hint: 'Check the permissions of the file and its directory, or set PAYFAC_CONFIG_DIR to another directory.',
    cause: error,
  })
}

/**
 * The text of profiles.json, which must be a regular file (a link to one is fine). Opened with
 * O_NONBLOCK and judged by fstat, so that a FIFO or a device there is refused at once: a plain
 * readFileSync of a FIFO blocked every command for ever, Ctrl-C and SIGTERM included (the open
 * held the one thread that runs signal handlers).
 */
function readStoreFile(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0))
  try {
    if (!fs.fstatSync(fd).isFile())
      throw new ConfigError(`The profile store ${file} is not a regular file (a FIFO, a device or a folder).`, {
        hint: 'Move it away; payfac writes a new one.',
      })
    return fs.readFileSync(fd, 'utf8')
  } finally {
    fs.closeSync(fd)
  }
}

/** Stored profiles plus the name of the active one. See the top of this file for the guarantees. */
export class ProfileStore {
  readonly #dir: string
  readonly #file: string

  /**
   * Opens (does not create) `<dir>/profiles.json`. Throws ConfigError when the file exists but
   * is damaged, unreadable, or readable by others.
   */
  constructor(options: ProfileStoreOptions = {}) {
    this.#dir = resolveConfigDir(options)
    this.#file = path.join(this.#dir, STORE_FILE_NAME)
    this.#read()
  }

  /** The absolute path of profiles.json. */
  get path(): string {
    return this.#file
  }

  /** Stored profiles, sorted by name. The built-in `local` profile is never stored, so not listed. */
  list(): Profile[] {
    return Object.values(this.#read().profiles).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  /** A stored profile, or undefined. `local` is never stored: see BUILTIN_LOCAL_PROFILE. */
  get(name: string): Profile | undefined {
    const { profiles } = this.#read()
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined
  }

  /** The active profile's name (possibly `local`, the built-in), if one was chosen. */
  activeName(): string | undefined {
    return this.#read().active
  }

  /**
   * Validates (parseProfile) and stores a profile. Refuses the reserved name `local`, a key of
   * the other environment, and, unless `replace`, a name already taken.
   */
  async add(profile: Profile, options: AddProfileOptions = {}): Promise<Profile> {
    const next = parseProfile({ ...profile })
    if (next.name === LOCAL_PROFILE_NAME) {
      throw new ConfigError(`"${LOCAL_PROFILE_NAME}" is the built-in profile for the local emulator; a stored profile cannot take its name.`, {
        reason: 'invalid',
        hint: 'Choose another name, such as "emulator".',
      })
    }
    await this.#update((data) => {
      if (Object.hasOwn(data.profiles, next.name) && !options.replace) {
        throw new ConfigError(`A profile named "${next.name}" already exists.`, {
          reason: 'duplicate-profile',
          hint: 'Choose another name, or replace the existing profile.',
        })
      }
      return { ...data, profiles: { ...data.profiles, [next.name]: next }, ...(options.use ? { active: next.name } : {}) }
    })
    return next
  }

  /** Removes a stored profile; if it was the active one, no profile is active afterwards. */
  async remove(name: string): Promise<void> {
    if (name === LOCAL_PROFILE_NAME) {
      throw new ConfigError(`"${LOCAL_PROFILE_NAME}" is the built-in profile and cannot be removed.`, { reason: 'invalid' })
    }
    await this.#update((data) => {
      if (!Object.hasOwn(data.profiles, name)) throw unknownProfile(name, Object.keys(data.profiles))
      const { [name]: _removed, ...profiles } = data.profiles
      const { active, ...rest } = data
      return { ...rest, profiles, ...(active !== undefined && active !== name ? { active } : {}) }
    })
  }

  /**
   * Under the lock, replaces each stored profile by what `change` gives for it (checked by
   * parseProfile). `change` runs once per profile; if it throws, nothing is written.
   */
  async rewrite(change: (profile: Profile) => Profile): Promise<void> {
    await this.#update((data) => {
      const profiles: Record<string, Profile> = {}
      for (const [name, profile] of Object.entries(data.profiles)) profiles[name] = parseProfile({ ...change(profile), name })
      return { ...data, profiles }
    })
  }

  /** Makes a stored profile, or the built-in `local`, the active one. */
  async use(name: string): Promise<void> {
    await this.#update((data) => {
      if (name !== LOCAL_PROFILE_NAME && !Object.hasOwn(data.profiles, name)) {
        throw unknownProfile(name, Object.keys(data.profiles))
      }
      return { ...data, active: name }
    })
  }

  #read(): StoreData {
    let text: string
    try {
      text = readStoreFile(this.#file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, profiles: {} }
      throw fileError(error, this.#file, 'read')
    }
    checkPrivate(this.#dir, this.#file)
    return parseStoreText(text, this.#file)
  }

  /** Under the lock: read afresh, change, and conf writes (store-write.ts, loaded only here). */
  async #update(change: (data: StoreData) => StoreData): Promise<void> {
    const { changeStore } = await import('./store-write.js')
    await changeStore({
      dir: this.#dir,
      file: this.#file,
      read: () => this.#read(),
      parse: (text) => parseStoreText(text, this.#file),
      change,
    })
  }
}
