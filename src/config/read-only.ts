// The profile store read once, for commands that only need to resolve their settings: a plain
// read of profiles.json, validated by the same schema as the store (store.ts), without conf and
// so without ajv, which conf loads to check its own options. Nothing is created or written here;
// changing profiles goes through ProfileStore.
import fs from 'node:fs'
import path from 'node:path'
import { ConfigError } from './errors.js'
import { resolveConfigDir, type ProfileStoreOptions } from './paths.js'
import { describeIssues, storeSchema, type Profile, type StoreData } from './profiles.js'
import { checkPrivate } from './store-lock.js'
import type { ProfileSource } from './resolve.js'

/** The stored profiles as they are now, read-only. Throws ConfigError for a damaged or unreadable store. */
export function readProfiles(options: ProfileStoreOptions = {}): Required<ProfileSource> & { path: string } {
  const file = path.join(resolveConfigDir(options), 'profiles.json')
  const data = readStore(file)
  return {
    path: file,
    get: (name) => (Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined),
    activeName: () => data.active,
    list: (): Profile[] => Object.values(data.profiles).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  }
}

function readStore(file: string): StoreData {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // No file (or no directory) yet: no stored profiles, as conf reports it.
    if (code === 'ENOENT' || code === 'ENOTDIR') return { version: 1, profiles: {} }
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(error))
    throw new ConfigError(`Cannot read the profile store ${file}: ${why}.`, {
      hint: 'Check the permissions of the file and its directory, or set PAYFAC_CONFIG_DIR to another directory.',
      cause: error,
    })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // V8's SyntaxError message quotes part of the input (credentials), so it is not passed on.
    throw damaged(file, 'it is not valid JSON')
  }
  const result = storeSchema.safeParse(value)
  if (!result.success) throw damaged(file, describeIssues(result.error))
  // A store others can reach is refused here too, with the chmod that fixes it (store-lock.ts).
  checkPrivate(path.dirname(file), file)
  return result.data
}

function damaged(file: string, detail: string): ConfigError {
  return new ConfigError(`The profile store ${file} is damaged: ${detail}. It has been left as it is.`, {
    reason: 'damaged-store',
    hint: `Move it aside (for example: mv "${file}" "${file}.damaged") and add your profiles again, or correct it by hand.`,
  })
}
