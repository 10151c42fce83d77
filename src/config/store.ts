// The profile store: one JSON file, `<dir>/profiles.json`, read and written through conf.
//
// - The directory is created with mode 0700 and the file written with mode 0600: it holds
//   credentials in clear text, readable by the owner only.
// - conf writes atomically (a temporary file in the same directory, fsync, chmod, rename), so a
//   crash mid-write leaves the old file or the new one, never half of either.
// - Every read goes through conf's `store` getter, which reads the file afresh; the
//   `deserialize` hook parses and validates it with zod, so conf never holds an unvalidated
//   store. `clearInvalidConfig: false` makes conf throw instead of replacing a bad file with an
//   empty one. Every method that changes the store reads (and so validates) first and only then
//   writes: a damaged file is reported, named, and never overwritten.
import fs from 'node:fs'
import path from 'node:path'
import Conf from 'conf'
import { ConfigError } from './errors.js'
import { resolveConfigDir, type ProfileStoreOptions } from './paths.js'
import {
  LOCAL_PROFILE_NAME,
  describeIssues,
  parseProfile,
  storeSchema,
  unknownProfile,
  type Profile,
  type StoreData,
} from './profiles.js'

const STORE_FILE_NAME = 'profiles'

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
  const result = storeSchema.safeParse(value)
  if (!result.success) throw damaged(file, describeIssues(result.error))
  return result.data
}

function fileError(error: unknown, file: string, doing: 'read' | 'write'): ConfigError {
  if (error instanceof ConfigError) return error
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'permission denied'
      : (code ?? (error instanceof Error ? error.message : String(error)))
  return new ConfigError(`Cannot ${doing} the profile store ${file}: ${why}.`, {
    hint: 'Check the permissions of the file and its directory, or set PAYFAC_CONFIG_DIR to another directory.',
    cause: error,
  })
}

/** Stored profiles plus the name of the active one. See the top of this file for the guarantees. */
export class ProfileStore {
  readonly #conf: Conf<Record<string, unknown>>

  /**
   * Opens (does not create) `<dir>/profiles.json`; the directory is created (0700) if missing.
   * Throws ConfigError when the file exists but is damaged or unreadable.
   */
  constructor(options: ProfileStoreOptions = {}) {
    const dir = resolveConfigDir(options)
    const file = path.join(dir, `${STORE_FILE_NAME}.json`)
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
      this.#conf = new Conf<Record<string, unknown>>({
        projectName: 'payfac',
        cwd: dir,
        configName: STORE_FILE_NAME,
        fileExtension: 'json',
        configFileMode: 0o600,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
        watch: false,
        deserialize: (text: string) => parseStoreText(text, file) as unknown as Record<string, unknown>,
        serialize: (value: Record<string, unknown>) => `${JSON.stringify(value, null, 2)}\n`,
      })
    } catch (error) {
      throw fileError(error, file, 'read')
    }
  }

  /** The absolute path of profiles.json. */
  get path(): string {
    return this.#conf.path
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
  add(profile: Profile, options: AddProfileOptions = {}): Profile {
    const next = parseProfile({ ...profile })
    if (next.name === LOCAL_PROFILE_NAME) {
      throw new ConfigError(`"${LOCAL_PROFILE_NAME}" is the built-in profile for the local emulator; a stored profile cannot take its name.`, {
        reason: 'invalid',
        hint: 'Choose another name, such as "emulator".',
      })
    }
    const data = this.#read()
    if (Object.hasOwn(data.profiles, next.name) && !options.replace) {
      throw new ConfigError(`A profile named "${next.name}" already exists.`, {
        reason: 'duplicate-profile',
        hint: 'Choose another name, or replace the existing profile.',
      })
    }
    this.#write({
      ...data,
      profiles: { ...data.profiles, [next.name]: next },
      ...(options.use ? { active: next.name } : {}),
    })
    return next
  }

  /** Removes a stored profile; if it was the active one, no profile is active afterwards. */
  remove(name: string): void {
    if (name === LOCAL_PROFILE_NAME) {
      throw new ConfigError(`"${LOCAL_PROFILE_NAME}" is the built-in profile and cannot be removed.`, { reason: 'invalid' })
    }
    const data = this.#read()
    if (!Object.hasOwn(data.profiles, name)) throw unknownProfile(name, Object.keys(data.profiles))
    const { [name]: _removed, ...profiles } = data.profiles
    const { active, ...rest } = data
    this.#write({ ...rest, profiles, ...(active !== undefined && active !== name ? { active } : {}) })
  }

  /** Makes a stored profile, or the built-in `local`, the active one. */
  use(name: string): void {
    const data = this.#read()
    if (name !== LOCAL_PROFILE_NAME && !Object.hasOwn(data.profiles, name)) {
      throw unknownProfile(name, Object.keys(data.profiles))
    }
    this.#write({ ...data, active: name })
  }

  #read(): StoreData {
    let raw: Record<string, unknown>
    try {
      raw = this.#conf.store
    } catch (error) {
      throw fileError(error, this.#conf.path, 'read')
    }
    // conf answers a missing file with an empty object; anything read from a file went through
    // parseStoreText and so has its version.
    if (raw.version === undefined) return { version: 1, profiles: {} }
    return raw as StoreData
  }

  #write(data: StoreData): void {
    try {
      this.#conf.store = data as Record<string, unknown>
    } catch (error) {
      throw fileError(error, this.#conf.path, 'write')
    }
  }
}
