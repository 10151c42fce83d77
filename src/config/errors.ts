// The one error class of the config module. The CLI maps it to exit code 3 (configuration).
// Messages never contain a credential: where a key has to be mentioned, it is masked first.

/** Why a ConfigError was raised; lets callers and tests tell the cases apart without parsing text. */
export type ConfigErrorReason =
  /** no profile, credential or base URL to work with */
  | 'missing'
  /** the profile store exists but is not valid JSON or not the expected shape */
  | 'damaged-store'
  /** a profile name that is not in the store */
  | 'unknown-profile'
  /** adding a profile whose name is already taken (without replace) */
  | 'duplicate-profile'
  /** a profile or setting that fails validation (bad name, URL, id prefix …) */
  | 'invalid'
  /** a live key on a sandbox/local profile, or a sandbox key on a production profile */
  | 'key-environment-mismatch'
  /** the profile store's file or folder can be read or written by others */
  | 'exposed-store'
  /** an operation refused because it would act on production without confirmation */
  | 'production-guard'

export interface ConfigErrorOptions {
  /** What the user can do about it, shown after the message. */
  hint?: string | undefined
  reason?: ConfigErrorReason | undefined
  cause?: unknown
}

export class ConfigError extends Error {
  override name = 'ConfigError'
  readonly hint: string | undefined
  readonly reason: ConfigErrorReason | undefined

  /** `hint` may be given alone as a string: `new ConfigError('No profile named "x"', 'See profiles list.')`. */
  constructor(message: string, hintOrOptions: string | ConfigErrorOptions = {}) {
    const options = typeof hintOrOptions === 'string' ? { hint: hintOrOptions } : hintOrOptions
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.hint = options.hint
    this.reason = options.reason
  }
}
