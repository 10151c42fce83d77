// One command's safety: built by ApiCommand before its client, it decides what may be sent.
//   - a one-line banner on stderr when the target is production;
//   - `emulator …` control commands refuse an address that is not this machine (exit 2) unless
//     --base-url names it, and a target that is not an emulator (exit 3);
//   - on production, every request but a read (GET, HEAD, OPTIONS) needs confirmation: asked once
//     per command run, before the first such request, on a terminal when nobody said CI or
//     --no-input; --yes otherwise; exit 3 and nothing sent without it. A command that declares
//     --again (policy.ts) is refused before any request when it cannot be confirmed;
//   - `--dry-run` stops the first changing request and prints it (dry-run.ts);
//   - the client's abort signal, which an interruption during a money operation fires.
import type { OutgoingRequest } from '../../client/transport.js'
import { ConfigError } from '../../config/errors.js'
import type { JournalStore } from '../../config/journal-store.js'
import { isLoopbackUrl, keyEnvironment } from '../../config/profiles.js'
import type { ResolvedSettings } from '../../config/resolve.js'
import { UsageError } from '../errors/index.js'
import { onTerminal, whyNoPrompt } from '../terminal/prompts.js'
import { DryRunStop, changes } from './dry-run.js'
import { confirmOnProduction, noTerminal, productionBanner } from './guard.js'
import { isEmulatorControl, isEmulatorTarget, isProductionTarget } from './policy.js'

export interface SafetyInput {
  commandId: string | undefined
  settings: ResolvedSettings
  dryRun: boolean
  yes: boolean
  again: boolean
  /** `payfac`: the name check commands are written with. */
  bin: string
  /** `--no-input`: never ask. */
  noInput?: boolean | undefined
  /** The command declares that it writes (policy.ts declaresWrites): refused early when it cannot be confirmed. */
  writes?: boolean | undefined
  /** stdin and stderr are terminals; by default as the process has them. */
  terminal?: boolean | undefined
}

/**
 * Journals the operations of one row of a bulk run (cli/bulk/journal.ts) in place of the
 * operation journal's own record; journal-ops.ts gives it the operation (its OperationJournal).
 */
export interface RowJournal {
  run(spec: never): Promise<unknown>
}

export class SafetySession {
  readonly commandId: string | undefined
  readonly settings: ResolvedSettings
  readonly dryRun: boolean
  readonly yes: boolean
  readonly again: boolean
  readonly bin: string
  /** Why nobody can be asked, or undefined when a person at a terminal can be. */
  readonly noPrompt: string | undefined
  readonly writes: boolean
  readonly production: boolean
  /** Aborts the client's requests (an interruption while money is in flight). */
  readonly controller = new AbortController()
  /** What the command is doing, in words, for the confirmation (set by a money operation). */
  action: string | undefined
  /** Set on the session of one row of a bulk run (`forRow`). */
  readonly rowJournal: RowJournal | undefined
  /** The one confirmation of this run, shared by every changing request (concurrent ones wait for it). */
  private confirmation: Promise<void> | undefined
  /** The operation journal, opened on first use; one object, shared by the sessions of a bulk run's rows. */
  private readonly journalHolder: { open?: Promise<JournalStore> | undefined } = {}
  /** What a dry run found about its repeat checks: the real run would be refused, in words. */
  readonly dryRunNotes: string[] = []
  /** When the command began (for "written meanwhile": config/local-journal.ts runStart). */
  readonly startedAt = Date.now()
  /**
   * Asked right before each changing request leaves, after its confirmation: throws when this run
   * may no longer send (set by a money operation while it holds its lock: journal-ops.ts).
   */
  beforeSend: (() => void) | undefined

  constructor(input: SafetyInput) {
    this.commandId = input.commandId
    this.settings = input.settings
    this.dryRun = input.dryRun
    this.yes = input.yes
    this.again = input.again
    this.bin = input.bin
    this.noPrompt = whyNoPrompt(input.noInput, process.env, input.terminal ?? onTerminal())
    this.writes = input.writes ?? false
    this.production = isProductionTarget(input.settings)
  }

  /** Checks made before any request: the banner, the emulator check, the guard without a terminal. */
  admit(): void {
    const s = this.settings
    if (this.production) {
      process.stderr.write(`${productionBanner(s.profileName, s.environment, s.baseUrl, keyEnvironment(s.credential) === 'live', s.environmentReason)}\n`)
    }
    if (isEmulatorControl(this.commandId)) this.admitEmulatorControl()
    if (this.production && this.writes && !this.dryRun && !this.yes && this.noPrompt !== undefined) {
      throw noTerminal(this.commandLabel(), this.noPrompt)
    }
  }

  /** The client's intercept hook: dry run, then the production confirmation of anything but a read. */
  readonly intercept = async (request: OutgoingRequest): Promise<void> => {
    if (!changes(request.method)) return
    if (this.dryRun) throw new DryRunStop(request, this.dryRunNotes)
    if (this.production) {
      this.confirmation ??= confirmOnProduction({
        what: this.action ?? this.commandLabel(),
        details: this.details(request),
        yes: this.yes,
        noPrompt: this.noPrompt,
      })
      await this.confirmation
    }
    // After the confirmation: a run suspended at the prompt (Ctrl-Z) may have lost its lock meanwhile.
    this.beforeSend?.()
  }

  /**
   * The operation journal (local, or shared when PAYFAC_JOURNAL_URL or the profile names one),
   * opened once: a shared journal that cannot be reached, or whose schema or permissions are
   * wrong, is exit 3 here, before anything is sent; never a silent fall-back to the local one.
   */
  journal(): Promise<JournalStore> {
    this.journalHolder.open ??= import('./open-journal.js').then(({ openJournal }) => openJournal(this.settings, this.startedAt))
    return this.journalHolder.open
  }

  /** Closes the journal if it was opened (the shared journal's connections). */
  async closeJournal(): Promise<void> {
    const open = this.journalHolder.open
    this.journalHolder.open = undefined
    const journal = await open?.catch(() => undefined)
    await journal?.close()
  }

  /** This session for one row of a bulk run: the same rules and confirmation, the row's own journal. */
  forRow(journal: RowJournal): SafetySession {
    return Object.create(this, { rowJournal: { value: journal }, action: { value: undefined, writable: true } }) as SafetySession
  }

  /**
   * Asks the production confirmation now, with `details` (a bulk run shows its rows and totals),
   * once for every later write of this run; nothing to ask off production.
   */
  async confirmNow(what: string, details: Array<[string, string]>): Promise<void> {
    if (!this.production || this.dryRun) return
    this.confirmation ??= confirmOnProduction({ what, details: [...this.details(undefined), ...details], yes: this.yes, noPrompt: this.noPrompt })
    await this.confirmation
  }

  /**
   * `emulator …` control commands: an address that is not this machine only when --base-url
   * names it on the command line (exit 2 otherwise); then an emulator target, or a named address
   * whose environment is not production (exit 3 otherwise).
   */
  private admitEmulatorControl(): void {
    const s = this.settings
    const named = s.origins?.baseUrl === '--base-url'
    if (!isLoopbackUrl(s.baseUrl) && !named) {
      throw new UsageError(
        `${this.commandLabel()} acts on a payfac emulator, and ${s.baseUrl} (from ${s.origins?.baseUrl ?? 'the settings'}) is not on this machine: nothing was sent`,
        'Name a remote emulator on the command line with --base-url, or point at a local one (--profile local)',
      )
    }
    if (isEmulatorTarget(s) || (named && !this.production)) return
    throw new ConfigError(
      `${this.commandLabel()} acts on a payfac emulator only, and the target is not one (environment ${s.environment}${s.profileName ? `, profile "${s.profileName}"` : ''}, ${s.baseUrl}): nothing was sent.`,
      {
        reason: 'production-guard',
        hint: 'Point it at the emulator: a local profile (`--profile local`) or, without a profile, PAYFAC_BASE_URL on this machine (127.0.0.1, localhost).',
      },
    )
  }

  private details(request: OutgoingRequest | undefined): Array<[string, string]> {
    const s = this.settings
    const rows: Array<[string, string]> = [['environment', `${s.environment}${s.profileName ? ` (profile ${s.profileName})` : ''}`]]
    if (s.context.marketplaceId) rows.push(['marketplace', s.context.marketplaceId])
    if (s.context.merchantId) rows.push(['merchant', s.context.merchantId])
    if (!request) return rows
    rows.push(['target', `${request.method} ${request.url}`])
    const body = request.body === undefined ? '' : typeof request.body === 'string' ? request.body : JSON.stringify(request.body)
    if (body) rows.push(['body', body.length > 300 ? `${body.slice(0, 300)}…` : body])
    return rows
  }

  private commandLabel(): string {
    return `${this.bin} ${(this.commandId ?? 'command').replace(/:/g, ' ')}`
  }
}
