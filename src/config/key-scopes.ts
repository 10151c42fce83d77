// What the service told about a key: the merchant it acts for (`merchant:mcht_…`), or that it is a
// marketplace's key (`marketplace:mktp_…`). Asked once per key and service (one read), then kept
// in <config dir>/key-scopes.json (0600, read fail-closed), keyed by the service's canonical
// origin and the key's fingerprint (never the key). Pure fs + zod: no client.
import path from 'node:path'
import { z } from 'zod'

import { writeJsonAtomic } from './atomic-file.js'
import { readPrivateJson } from './fs-check.js'

const FORMAT = 'payfac-key-scopes'

const fileSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  keys: z.record(z.string(), z.object({ party: z.string(), at: z.string() })),
})
type KeyScopes = z.infer<typeof fileSchema>

export function keyScopesPath(configDir: string): string {
  return path.join(configDir, 'key-scopes.json')
}

const entryName = (origin: string, fingerprint: string) => `${origin} ${fingerprint}`

function readAll(file: string): KeyScopes {
  const parsed = fileSchema.safeParse(readPrivateJson(file, { what: 'key-to-merchant cache' }))
  // Not a cache this payfac wrote: asked again, and written over.
  return parsed.success ? parsed.data : { format: FORMAT, version: 1, keys: {} }
}

/** The party the key acts for, as the service told before, or undefined. A damaged (unsafe) file is a ConfigError. */
export function readKeyScope(configDir: string, origin: string, fingerprint: string): string | undefined {
  return readAll(keyScopesPath(configDir)).keys[entryName(origin, fingerprint)]?.party
}

/** Keeps what the service told; a write that fails costs only one read next time. */
export function writeKeyScope(configDir: string, origin: string, fingerprint: string, party: string, now: Date = new Date()): void {
  const file = keyScopesPath(configDir)
  try {
    const all = readAll(file)
    all.keys[entryName(origin, fingerprint)] = { party, at: now.toISOString() }
    writeJsonAtomic(file, all)
  } catch {
    // A cache: nothing depends on it being written.
  }
}
