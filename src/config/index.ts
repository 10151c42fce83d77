// Profiles and credential resolution. No oclif, no output, no client transport.
// Importing this index loads the store (store.ts: node:fs and zod, no conf); the CLI imports it
// inside run() only. Pure helpers can be imported from './profiles.js' and './resolve.js'.
export { ConfigError, type ConfigErrorOptions, type ConfigErrorReason } from './errors.js'
export {
  BUILTIN_LOCAL_PROFILE,
  CREDENTIAL_KINDS,
  ENVIRONMENTS,
  LOCAL_PROFILE_NAME,
  PROFILE_NAME_PATTERN,
  checkKeyMatchesEnvironment,
  describeIssues,
  inferCredentialKind,
  isHttpUrl,
  isLoopbackUrl,
  keyEnvironment,
  maskCredential,
  parseProfile,
  profileSchema,
  storeSchema,
  unknownProfile,
  type CredentialKind,
  type Environment,
  type KeyEnvironment,
  type Profile,
  type StoreData,
} from './profiles.js'
export {
  ProfileStore,
  defaultConfigDir,
  resolveConfigDir,
  type AddProfileOptions,
  type ProfileStoreOptions,
} from './store.js'
export {
  SETTINGS_ENV,
  inferEnvironment,
  resolveSettings,
  type ProfileSource,
  type ResolveInput,
  type ResolvedSettings,
  type SettingsContext,
  type SettingsFlags,
  type SettingsSource,
} from './resolve.js'
export {
  JOURNAL_FORMAT,
  JOURNAL_VERSION,
  changedInputs,
  journalFileName,
  journalPath,
  journalScope,
  newPayToPayRun,
  payToPayInputsSchema,
  payToPayRunSchema,
  readPayToPayRun,
  writePayToPayRun,
  type PayToPayInputs,
  type PayToPayRun,
} from './journal.js'
