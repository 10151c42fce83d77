// The base of every API command: global flags, the client built from the resolved profile,
// rendering, and the one error path (exit code + message) for everything a command throws.
// Heavy modules (client, zod, conf, output) are imported inside methods, only when a command
// needs them, so that `--help` and `--version` never pay for them.
import type { Interfaces } from '@oclif/core'
import { Command } from '@oclif/core/command'

import type { CallOptions, Page, PayfacClient, RetryEvent } from '../client/index.js'
import type { ResolvedSettings } from '../config/index.js'
import type { View } from '../output/index.js'
import { redactText } from '../client/redact.js'
import { sanitizeLine, sanitizeText } from '../output/sanitize.js'
import { colourAllowed, terminalWidth, unicodeAllowed, wrapWords } from '../output/terminal.js'
import type { MerchantRun } from './fan-out/run.js'
import { reportError } from './errors/output.js'
import { wantsJsonErrors } from './runtime/signals.js'
import type { SafetySession } from './safety/session.js'
import { apiFlags, outputFlags } from './flags/index.js'
import { describeRetry } from './flags/lists.js'
import { requestTimeoutMs } from './validate/durations.js'
import { applyOutputFormat } from './flags/output-format.js'
import { checkQueryRanges, withMonth } from './validate/dates.js'
import { checkArgv } from './validate/inputs.js'

/** A command's own flag wins over a global one of the same name (a waiting command's `--timeout`). */
export type FlagsOf<T extends typeof Command> = Interfaces.InferredFlags<Omit<typeof apiFlags, keyof T['flags']> & T['flags']>
export type ArgsOf<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

/** What a list command can walk: one page, or every record lazily. */
export interface Listable<T, Q> {
  list(query: Q): Promise<Page<T>>
  iterate(query: Q, options?: WalkOptions): AsyncIterable<T>
}

/** What `--all` passes to a walk (the client's IterateCallOptions). */
export interface WalkOptions {
  max?: number | undefined
  concurrency?: number | undefined
  allowPartial?: boolean | undefined
  onWarning?: ((message: string) => void) | undefined
  call?: CallOptions | undefined
  /** Told of each page as it arrives: for progress. */
  onPage?: ((page: Page<unknown>) => void) | undefined
}

/** A command as a run from a file sees it (cli/bulk: `fromFile(this.bulkHost())`). */
export interface BulkHost {
  /** `transactions:refund` */
  id: string
  bin: string
  flags: Record<string, unknown>
  args: Record<string, unknown>
  argv: string[]
  definitions: { flags: Record<string, unknown>; args: Record<string, unknown> }
  settings(): Promise<ResolvedSettings>
  safety(): Promise<SafetySession>
  client(onRetry?: (event: RetryEvent) => void): Promise<PayfacClient>
}

/** One merchant's part of a fan-out (`fanOutFlags()`): its records, or one record. */
export type { MerchantRun } from './fan-out/run.js'

/** What a fan-out does with its rows (merchantId first, merchant by merchant): print them, by default. */
export type ShowRows<R> = (view: View<R>, rows: AsyncIterable<R>) => Promise<number>

type Globals = Interfaces.InferredFlags<typeof apiFlags>

/** The base of every command: parsing, output and the one error path. */
export abstract class PayfacCommand<T extends typeof Command> extends Command {
  static override baseFlags: Interfaces.FlagInput = outputFlags

  protected flags!: FlagsOf<T>
  protected args!: ArgsOf<T>

  override async init(): Promise<void> {
    await super.init()
    const ctor = this.ctor as typeof PayfacCommand & T
    // Control characters and overlong values are refused before any flag's own check shows them.
    checkArgv(this.argv)
    const { args, flags } = await this.parse({
      flags: ctor.flags,
      baseFlags: ctor.baseFlags,
      args: ctor.args,
      strict: ctor.strict,
    })
    this.flags = flags as FlagsOf<T>
    this.args = args as ArgsOf<T>
    applyOutputFormat(this.flags as Record<string, unknown>)
  }

  /** Table unless --json, --csv or --jsonl; a command whose answer is raw JSON passes `json` as its default. */
  private async outputOptions(fallback: 'table' | 'json' = 'table') {
    const f = this.flags as Globals
    const isTTY = Boolean(process.stdout.isTTY)
    return {
      format: f.json || f.query ? ('json' as const) : f.csv ? ('csv' as const) : f.jsonl ? ('jsonl' as const) : fallback,
      columns: f.columns
        ? f.columns
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean)
        : undefined,
      out: process.stdout,
      isTTY,
      color: isTTY && colourAllowed(process.env),
      ascii: !unicodeAllowed(process.env),
      width: terminalWidth(process.stdout.columns),
      wide: f.wide,
      query: f.query,
      ids: f.ids,
      // On a terminal a note is wrapped between words to its width, like the table it is about.
      notice: (line: string) => {
        const text = `Note: ${sanitizeLine(line)}`
        process.stderr.write(`${process.stderr.isTTY ? wrapWords(text, terminalWidth(process.stderr.columns)) : text}\n`)
      },
    }
  }

  /** Prints one record by its view. */
  protected async show<R>(view: View<R>, record: R, fallback: 'table' | 'json' = 'table'): Promise<R> {
    const { renderRecord } = await import('../output/index.js')
    await renderRecord(view, record, await this.outputOptions(fallback))
    return record
  }

  /** Prints records (an array or a stream of them) by their view; an empty list says so on stderr. */
  protected async showAll<R>(
    view: View<R>,
    records: Iterable<R> | AsyncIterable<R>,
    fallback: 'table' | 'json' = 'table',
    empty: () => string = () => 'No records.',
  ): Promise<number> {
    const { renderList } = await import('../output/index.js')
    const { showingList } = await import('./terminal/list-output.js')
    const options = await this.outputOptions(fallback)
    const count = await showingList(
      options,
      (signal) => renderList(view, records, { ...options, signal }),
      () => undefined,
    )
    if (count === 0 && options.format === 'table' && !options.ids) process.stderr.write(`${empty()}\n`)
    return count
  }

  /**
   * Runs a list command: one page (with a footer on stderr saying how to see more), or with
   * `--all`/`--max` every record, streamed in order as pages arrive: 500 a page unless `--limit`
   * says otherwise (fewer when `--max` asks for fewer), `--concurrency` pages in flight, and a
   * list that comes back incomplete is an error unless `--allow-partial` (then a warning).
   */
  protected async showList<R, Q extends Record<string, unknown>>(view: View<R>, source: Listable<R, Q>, given: Q): Promise<number> {
    const f = this.flags as unknown as {
      limit?: number
      page?: number
      sort?: string
      all?: boolean
      max?: number
      concurrency?: number
      'allow-partial'?: boolean
    }
    // --month/--last-month (monthFlags) fill the query's creation range.
    const query = withMonth(given, this.flags, new Date())
    checkQueryRanges(query)
    const paging = { ...query, limit: f.limit, page: f.page, sort: f.sort }
    const limit = f.limit ?? Math.min(500, f.max ?? 500)
    const onWarning = (message: string) => process.stderr.write(`Warning: ${sanitizeLine(message)} (--allow-partial: the list may be incomplete).\n`)
    const walk: WalkOptions = { max: f.max, concurrency: f.concurrency, allowPartial: f['allow-partial'], onWarning }
    // A fan-out walks each merchant's list whole; there --concurrency counts merchants, and each
    // walk keeps the default look-ahead.
    const fanned = await this.fanOut(view, (_merchantId, call) =>
      source.iterate({ ...paging, limit, page: undefined }, { ...walk, concurrency: undefined, call }),
    )
    if (fanned !== undefined) return fanned
    if (f.all || f.max !== undefined) {
      const { listProgress, wantsProgress } = await import('./runtime/progress.js')
      const { shapeHeapForWalk } = await import('./runtime/walk-heap.js')
      const progress = wantsProgress((await this.outputOptions()).format) ? listProgress() : undefined
      const unshape = shapeHeapForWalk()
      try {
        return await this.showAll(view, source.iterate({ ...paging, limit, page: undefined }, { ...walk, onPage: progress?.onPage }))
      } finally {
        unshape()
        progress?.end()
      }
    }
    const page = await source.list(paging)
    const count = await this.showAll(view, page.items)
    if (page.pageCount > page.page) {
      process.stderr.write(
        `Page ${page.page} of ${page.pageCount} (${page.totalRecordCount} records). Next: --page ${page.page + 1}, or --all for every record.\n`,
      )
    }
    return count
  }

  /** Marketplace fan-out; only commands that call the service have it (ApiCommand). */
  protected async fanOut<R>(_view: View<R>, _run: MerchantRun<R>, _show?: ShowRows<R>): Promise<number | undefined> {
    return undefined
  }

  /**
   * Records rendered as showAll would render them (--csv, --jsonl, else JSON) into FILE, written
   * atomically as they come: nothing is left under FILE unless the whole list was written. Says
   * "Saved N bytes to FILE" on stderr.
   */
  protected async saveAll<R>(view: View<R>, records: Iterable<R> | AsyncIterable<R>, path: string): Promise<number> {
    const [{ renderList }, { showingList }, { saveRendered }] = await Promise.all([
      import('../output/index.js'),
      import('./terminal/list-output.js'),
      import('./files/out-rendered.js'),
    ])
    const options = { ...(await this.outputOptions('json')), isTTY: false, color: false }
    const { count, bytes } = await saveRendered(path, (out) =>
      showingList(
        options,
        (signal) => renderList(view, records, { ...options, out, signal }),
        () => undefined,
      ),
    )
    process.stderr.write(`Saved ${bytes} bytes to ${path}\n`)
    return count
  }

  /** Every failure ends here: one exit code, and one line (plus a hint), or a JSON line, on stderr. */
  override async catch(error: Interfaces.CommandError): Promise<void> {
    // A flag that failed to parse is already reported here; oclif need not add its own warning.
    this.parsed = true
    const { isDryRunStop, dryRunReport } = await import('./safety/dry-run.js')
    if (isDryRunStop(error)) {
      const text = JSON.stringify(dryRunReport(error), null, 2)
      process.stdout.write(`${process.stdout.isTTY ? sanitizeText(text) : text}\n`)
      process.stderr.write('Dry run: nothing was sent.\n')
      return
    }
    const flags = this.flags as { json?: boolean; jsonl?: boolean; query?: string; debug?: boolean } | undefined
    const json = flags ? Boolean(flags.json || flags.jsonl || flags.query) : wantsJsonErrors(this.argv)
    // stdout never carries an error: with --json the error object is the one line on stderr.
    const code = reportError(error, { json, debug: flags?.debug })
    if (code !== 0) process.exitCode = code
  }
}

/** The base of every command that calls the service: profile, context and the client. */
export abstract class ApiCommand<T extends typeof Command> extends PayfacCommand<T> {
  static override baseFlags: Interfaces.FlagInput = apiFlags

  private resolved: ResolvedSettings | undefined
  private safetySession: SafetySession | undefined

  /** The shared journal's connections are closed whatever happened (the local journal has none). */
  override async finally(error: Error | undefined): Promise<unknown> {
    await this.safetySession?.closeJournal()
    return super.finally(error)
  }

  /** The profile, base URL, credential and context in force, after flags, environment and profiles. */
  protected async settings(): Promise<ResolvedSettings> {
    if (this.resolved) return this.resolved
    // The store reads profiles.json with one readFileSync and a zod parse: no conf, no ajv.
    const [{ ProfileStore }, { pendingSecret, resolveSettings }] = await Promise.all([import('../config/store.js'), import('../config/resolve.js')])
    const f = this.flags as Globals
    const input = {
      flags: { profile: f.profile, baseUrl: f['base-url'], merchantId: f['merchant-id'], marketplaceId: f['marketplace-id'], customerId: f['customer-id'] },
      env: process.env,
      store: new ProfileStore(),
    }
    // A credential in the OS keychain or printed by a command is fetched only when it is the one used.
    const pending = pendingSecret(input)
    const revealed = pending ? await (await import('../config/secrets.js')).revealSecret(pending) : undefined
    this.resolved = resolveSettings({ ...input, revealed })
    // Which source won is news to a person at a terminal (or with --debug), not to a CI script
    // that set it on purpose; `payfac whoami` always shows it.
    const notices = process.stderr.isTTY || f.debug ? this.resolved.notices : []
    for (const notice of notices) process.stderr.write(`${sanitizeLine(redactText(notice))}\n`)
    return this.resolved
  }

  /** The command's safety rules (production guard, --dry-run, interruptions); checked once, before any request. */
  protected async safety(): Promise<SafetySession> {
    if (this.safetySession) return this.safetySession
    const [{ SafetySession }, { declaresWrites }] = await Promise.all([import('./safety/session.js'), import('./safety/policy.js')])
    const f = this.flags as Globals & { again?: boolean }
    const session = new SafetySession({
      commandId: this.id,
      settings: await this.settings(),
      dryRun: f['dry-run'],
      yes: f.yes,
      again: f.again ?? false,
      bin: this.config.bin,
      noInput: f['no-input'],
      writes: declaresWrites((this.ctor as typeof Command).flags),
    })
    session.admit()
    this.safetySession = session
    return session
  }

  /**
   * With `--each-merchant` or `--merchants` (`fanOutFlags()`): runs `run` once per merchant of the
   * marketplace with its Merchant-Id, prints the rows with a merchantId column in merchant order,
   * lists failed merchants on stderr (exit 6) and returns the count; undefined without the flags.
   */
  protected override async fanOut<R>(view: View<R>, run: MerchantRun<R>, show?: ShowRows<R>): Promise<number | undefined> {
    const f = this.flags as { 'each-merchant'?: boolean; merchants?: string; concurrency?: number }
    if (!f['each-merchant'] && f.merchants === undefined) return undefined
    const { runFanOut } = await import('./fan-out/run.js')
    const settings = await this.settings()
    return runFanOut({ ...f, credentialKind: settings.credentialKind, client: await this.client() }, view, run, show ?? ((v, rows) => this.showAll(v, rows)))
  }

  /**
   * A client for the resolved settings; `--debug` sends its redacted log lines to stderr, and on
   * a terminal each retry is announced there. `--timeout` (or PAYFAC_TIMEOUT) bounds a request.
   */
  protected async client(onRetry?: (event: RetryEvent) => void): Promise<PayfacClient> {
    const settings = await this.settings()
    const safety = await this.safety()
    const { createClient } = await import('../client/index.js')
    const debug = (this.flags as Globals).debug
    return createClient({
      baseUrl: settings.baseUrl,
      credential: settings.credential,
      context: settings.context,
      userAgent: `payfac/${this.config.version}`,
      timeoutMs: this.requestTimeoutMs(),
      ...(onRetry
        ? { onRetry }
        : process.stderr.isTTY
          ? { onRetry: (event: RetryEvent) => process.stderr.write(`${sanitizeLine(describeRetry(event))}\n`) }
          : {}),
      intercept: safety.intercept,
      signal: safety.controller.signal,
      ...(debug ? { debug: (line: string) => process.stderr.write(`${sanitizeLine(line)}\n`) } : {}),
    })
  }

  /** What a run from a file (`--from-file`, cli/bulk) needs of the command: its flags, definitions, settings and client. */
  protected bulkHost(): BulkHost {
    const ctor = this.ctor as typeof Command
    return {
      id: this.id ?? '',
      bin: this.config.bin,
      flags: this.flags as Record<string, unknown>,
      args: this.args as Record<string, unknown>,
      argv: this.argv,
      definitions: { flags: ctor.flags ?? {}, args: ctor.args ?? {} },
      settings: () => this.settings(),
      safety: () => this.safety(),
      client: (onRetry) => this.client(onRetry),
    }
  }

  /** `--timeout`, else PAYFAC_TIMEOUT; a command whose own `--timeout` bounds a wait reads only the variable. */
  private requestTimeoutMs(): number | undefined {
    const ownTimeout = Boolean((this.ctor as typeof Command).flags?.timeout)
    const flag = ownTimeout ? undefined : (this.flags as Globals).timeout
    if (flag !== undefined) return requestTimeoutMs(flag, '--timeout')
    const env = process.env.PAYFAC_TIMEOUT
    return env === undefined || env.trim() === '' ? undefined : requestTimeoutMs(env, 'PAYFAC_TIMEOUT')
  }
}
