// Which commands the safety rules apply to, and how a target is classed. Pure: no I/O.
//
//   money        moves money or makes what moves it: journaled, guarded on production
//   destructive  destroys or disables something: guarded on production
// Every other command that sends a changing request (POST, PATCH, DELETE) still honours
// --dry-run; `api` with a changing method is guarded on production like a money command.
import { keyEnvironment } from '../../config/profiles.js'

export type SafetyClass = 'money' | 'destructive'

/** By oclif command id. */
export const GUARDED_COMMANDS: Readonly<Record<string, SafetyClass>> = {
  'orders:create': 'money',
  'orders:pay': 'money',
  'transactions:refund': 'money',
  'transactions:capture': 'money',
  'transactions:cancel-authorisation': 'money',
  'transactions:transfer': 'money',
  'transactions:reverse-transfer': 'money',
  'payouts:request': 'money',
  'tokens:create': 'money',
  'payto:pay': 'money',
  'payto:save': 'money',
  'orders:cancel': 'destructive',
  'sources:delete': 'destructive',
  'merchants:owners:delete': 'destructive',
  'customers:delegates:delete': 'destructive',
  'webhooks:disable': 'destructive',
  'auth:tokens:update': 'destructive',
  'profiles:remove': 'destructive',
}

/** The class of a command, or of `api` sending a changing method. */
export function safetyClassOf(commandId: string | undefined, method?: string): SafetyClass | undefined {
  if (!commandId) return undefined
  if (commandId === 'api') return method !== undefined && method.toUpperCase() !== 'GET' ? 'money' : undefined
  return GUARDED_COMMANDS[commandId]
}

export interface TargetFacts {
  environment: string
  credential: string
}

/** Production: a profile (or inferred environment) `production`, or a `live_` credential. */
export function isProductionTarget(target: TargetFacts): boolean {
  return target.environment === 'production' || keyEnvironment(target.credential) === 'live'
}

/**
 * An emulator: the environment is `local` (a local profile, or an env-only setup pointing at a
 * loopback address) and the credential is not a live key.
 */
export function isEmulatorTarget(target: TargetFacts): boolean {
  return target.environment === 'local' && keyEnvironment(target.credential) !== 'live'
}

/** The `payfac emulator …` commands that act on a running emulator (not `emulator start`). */
export function isEmulatorControl(commandId: string | undefined): boolean {
  return commandId !== undefined && commandId.startsWith('emulator:') && commandId !== 'emulator:start'
}
