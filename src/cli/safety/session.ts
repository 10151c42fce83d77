// One command's safety: built by ApiCommand before its client, it decides what may be sent.
//   - a one-line banner on stderr when the target is production;
//   - `emulator …` control commands refuse a target that is not an emulator (exit 3);
//   - on production, a money or destructive command without --yes and without a terminal is
//     refused before any request; with a terminal it asks before the first changing request;
//   - `--dry-run` stops the first changing request and prints it (dry-run.ts);
//   - the client's abort signal, which an interruption during a money operation fires.
import type { OutgoingRequest } from '../../client/transport.js'
import { ConfigError } from '../../config/errors.js'
import { keyEnvironment } from '../../config/profiles.js'
import type { ResolvedSettings } from '../../config/resolve.js'
import { DryRunStop, changes } from './dry-run.js'
import { confirmOnProduction, noTerminal, productionBanner } from './guard.js'
import { isEmulatorControl, isEmulatorTarget, isProductionTarget, safetyClassOf } from './policy.js'

export interface SafetyInput {
  commandId: string | undefined
  settings: ResolvedSettings
  dryRun: boolean
  yes: boolean
  again: boolean
  /** `payfac`: the name check commands are written with. */
  bin: string
  interactive?: boolean | undefined
}

export class SafetySession {
  readonly commandId: string | undefined
  readonly settings: ResolvedSettings
  readonly dryRun: boolean
  readonly yes: boolean
  readonly again: boolean
  readonly bin: string
  readonly interactive: boolean
  readonly production: boolean
  /** Aborts the client's requests (an interruption while money is in flight). */
  readonly controller = new AbortController()
  /** What the command is doing, in words, for the confirmation (set by a money operation). */
  action: string | undefined
  private confirmed = false

  constructor(input: SafetyInput) {
    this.commandId = input.commandId
    this.settings = input.settings
    this.dryRun = input.dryRun
    this.yes = input.yes
    this.again = input.again
    this.bin = input.bin
    this.interactive = input.interactive ?? Boolean(process.stdin.isTTY && process.stderr.isTTY)
    this.production = isProductionTarget(input.settings)
  }

  /** Checks made before any request: the banner, the emulator check, the guard without a terminal. */
  admit(): void {
    const s = this.settings
    if (this.production) {
      process.stderr.write(`${productionBanner(s.profileName, s.environment, s.baseUrl, keyEnvironment(s.credential) === 'live')}\n`)
    }
    if (isEmulatorControl(this.commandId) && !isEmulatorTarget(s)) {
      throw new ConfigError(
        `${this.commandLabel()} acts on a payfac emulator only, and the target is not one (environment ${s.environment}${s.profileName ? `, profile "${s.profileName}"` : ''}, ${s.baseUrl}): nothing was sent.`,
        { reason: 'production-guard', hint: 'Point it at the emulator: a local profile (`--profile local`) or, without a profile, PAYFAC_BASE_URL on this machine (127.0.0.1, localhost).' },
      )
    }
    if (this.production && safetyClassOf(this.commandId) && !this.dryRun && !this.yes && !this.interactive) {
      throw noTerminal(this.commandLabel())
    }
  }

  /** The client's intercept hook: dry run, then the production confirmation. */
  readonly intercept = async (request: OutgoingRequest): Promise<void> => {
    if (!changes(request.method)) return
    if (this.dryRun) throw new DryRunStop(request)
    if (!this.production || this.confirmed || !safetyClassOf(this.commandId, request.method)) return
    await confirmOnProduction({ what: this.action ?? this.commandLabel(), details: this.details(request), yes: this.yes, interactive: this.interactive })
    this.confirmed = true
  }

  private details(request: OutgoingRequest): Array<[string, string]> {
    const s = this.settings
    const rows: Array<[string, string]> = [['environment', `${s.environment}${s.profileName ? ` (profile ${s.profileName})` : ''}`]]
    if (s.context.marketplaceId) rows.push(['marketplace', s.context.marketplaceId])
    if (s.context.merchantId) rows.push(['merchant', s.context.merchantId])
    rows.push(['target', `${request.method} ${request.url}`])
    const body = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : JSON.stringify(request.body)
    if (body) rows.push(['body', body.length > 300 ? `${body.slice(0, 300)}…` : body])
    return rows
  }

  private commandLabel(): string {
    return `${this.bin} ${(this.commandId ?? 'command').replace(/:/g, ' ')}`
  }
}
