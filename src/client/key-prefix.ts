// The environment a key names in its first word: `<env>_<kind>_<secret>` (sandbox_sk_…,
// live_pk_…, sandbox_api_…; field notes, Credentials). No imports: the profile code reads it on
// the start-up path, and the client applies it to the transport (local-transport.ts).

/** `sandbox` or `live`, then `sk`, `pk` or `api`, then the secret part. */
export const PREFIXED_KEY = /^(sandbox|live)_(sk|pk|api)_(.*)$/s

/** The environment a key names. */
export type KeyEnvironment = 'sandbox' | 'live'

/** 'sandbox' or 'live' for a prefixed key; undefined when the key does not say (a JWT, a token). */
export function keyEnvironment(key: string): KeyEnvironment | undefined {
  const match = PREFIXED_KEY.exec(key.trim())
  return match ? (match[1] as KeyEnvironment) : undefined
}
