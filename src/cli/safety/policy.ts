// What the safety rules apply to, and how a target is classed. Pure: no I/O.
//
// The production guard goes by rule, not by a list of commands: every request whose method is
// not a read (GET, HEAD, OPTIONS: dry-run.ts `changes`) needs confirmation on production,
// whatever command sends it, so a new command is guarded without being named anywhere. A
// command that declares `--again` (a money command, journaled) is known to write before it
// sends anything, so without a way to confirm it is refused before its first read too.
import { keyEnvironment } from '../../config/profiles.js'

export interface TargetFacts {
  environment: string
  credential: string
}

/** Production: the environment in effect (config/environment.ts) is production, or the key is `live_`. */
export function isProductionTarget(target: TargetFacts): boolean {
  return target.environment === 'production' || keyEnvironment(target.credential) === 'live'
}

/**
 * An emulator: the environment is `local` (a local profile on this machine, or values in effect
 * pointing at a loopback address) and the credential is not a live key.
 */
export function isEmulatorTarget(target: TargetFacts): boolean {
  return target.environment === 'local' && keyEnvironment(target.credential) !== 'live'
}

/** The `payfac emulator …` commands that act on a running emulator (not `emulator start`). */
export function isEmulatorControl(commandId: string | undefined): boolean {
  return (commandId?.startsWith('emulator:') ?? false) && commandId !== 'emulator:start'
}

/** A command known to write before it sends anything: it declares `--again` (the money commands). */
export function declaresWrites(flags: Record<string, unknown> | undefined): boolean {
  return flags !== undefined && Object.hasOwn(flags, 'again')
}
