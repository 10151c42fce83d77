// `payfac doctor`: each check passes, or says what is wrong and exactly how to fix it.
// The checks never throw: a failure to resolve settings is itself a failed check.
import { lstatSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

import type { PayfacClient } from '../../client/index.js'
import type { ResolvedSettings } from '../../config/index.js'
import type { CheckRow } from '../../output/views/diagnostics.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { EXIT, type ExitCode } from '../errors/exit-codes.js'

/** The oldest Node this package supports (package.json "engines"). */
const NODE_MIN = [20, 18, 1] as const
/** Farther apart than this, signed timestamps and date filters go wrong. */
const CLOCK_SKEW_MS = 60_000

const pass = (check: string, detail: string): CheckRow => ({ check, ok: true, detail })
const fail = (check: string, detail: string, fix: string): CheckRow => ({ check, ok: false, detail, fix })

/**
 * Ends a doctor run: on failure, one line on stderr and the exit code of `doctorExitCode`. After
 * a table on a terminal (where a narrow Fix column is cut), each failing check's fix follows in
 * full, one line each.
 */
export function concludeChecks(rows: CheckRow[], flags: { json?: boolean; csv?: boolean; query?: string | undefined; ids?: boolean } = {}): void {
  const failed = rows.filter((row) => !row.ok)
  if (failed.length === 0) return
  process.stderr.write(`${failed.length} of ${rows.length} checks failed: ${failed.map((row) => row.check).join(', ')}\n`)
  const tableOnTerminal = Boolean(process.stdout.isTTY) && !flags.json && !flags.csv && !flags.query && !flags.ids
  if (tableOnTerminal) for (const row of failed) if (row.fix) process.stderr.write(`To fix ${row.check}: ${sanitizeLine(row.fix)}\n`)
  process.exitCode = doctorExitCode(rows)
}

/** The exit code of a doctor run: 0 when all passed, else that of the first failure's kind. */
export function doctorExitCode(rows: CheckRow[]): ExitCode {
  const failed = rows.find((row) => !row.ok)
  if (!failed) return EXIT.ok
  if (failed.check === 'service reachable') return EXIT.unavailable
  if (failed.check === 'credential accepted') return EXIT.auth
  return EXIT.config
}

/** The store folder 0700 and profiles.json 0600: nobody else may read live keys. */
export function checkStorePermissions(dir: string): CheckRow {
  const name = 'config store permissions'
  const file = join(dir, 'profiles.json')
  const mode = (path: string) => {
    try {
      return statSync(path).mode & 0o777
    } catch {
      return undefined
    }
  }
  const dirMode = mode(dir)
  const fileMode = mode(file)
  const uid = process.getuid?.()
  const foreign = [dir, file].filter((p) => {
    const owner = ownerOf(p)
    return uid !== undefined && owner !== undefined && owner !== uid
  })
  if (foreign.length > 0) {
    return fail(
      name,
      `${foreign.join(' and ')} ${foreign.length > 1 ? 'belong' : 'belongs'} to another user (not user id ${uid})`,
      `Check who changed it; if it is yours: sudo chown ${uid} ${foreign.map((p) => `'${p}'`).join(' ')}`,
    )
  }
  if (dirMode !== undefined && (dirMode & 0o077) !== 0) {
    return fail(
      name,
      `${dir} is readable by others (mode ${octal(dirMode)})`,
      `chmod 700 '${dir}'${fileMode !== undefined && fileMode & 0o077 ? ` && chmod 600 '${file}'` : ''}`,
    )
  }
  if (fileMode !== undefined && (fileMode & 0o077) !== 0) {
    return fail(name, `${file} is readable by others (mode ${octal(fileMode)})`, `chmod 600 '${file}'`)
  }
  if (fileMode === undefined) return pass(name, `${dir}: no profiles stored yet (the built-in local profile is used)`)
  return pass(name, `${file} is ${octal(fileMode)}, its folder ${octal(dirMode ?? 0)}`)
}

function ownerOf(path: string): number | undefined {
  try {
    return statSync(path).uid
  } catch {
    return undefined
  }
}

/**
 * The journals (operations/, journal/ and what is in them, the key cache and the journal key):
 * folders and files of the user that no one else can write, and no symlink, FIFO or device, which
 * payfac would refuse (exit 3) before a money command.
 */
export function checkJournalPermissions(dir: string): CheckRow {
  const name = 'journal permissions'
  if (process.platform === 'win32') return pass(name, 'not checked on Windows')
  const uid = process.getuid?.()
  const problems: string[] = []
  const fixes = new Set<string>()
  const look = (path: string, depth: number, folder: boolean) => {
    let stat: ReturnType<typeof lstatSync>
    try {
      stat = lstatSync(path)
    } catch {
      return
    }
    if (stat.isSymbolicLink()) {
      problems.push(`${path} is a symbolic link`)
      fixes.add(`check what ${path} points to, then remove it`)
      return
    }
    if (folder ? !stat.isDirectory() : !stat.isFile()) {
      problems.push(`${path} is not a ${folder ? 'folder' : 'regular file'}`)
      return
    }
    if (uid !== undefined && stat.uid !== uid) {
      problems.push(`${path} belongs to user id ${stat.uid}`)
      fixes.add(`sudo chown -R ${uid} '${path}'`)
    }
    if (stat.mode & 0o022) {
      problems.push(`others can write ${path} (mode ${octal(stat.mode & 0o777)})`)
      fixes.add(`chmod ${folder ? '700' : '600'} '${path}'`)
    }
    if (folder && depth < 2) {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        if (entry.name.endsWith('.lock')) continue
        look(join(path, entry.name), depth + 1, entry.isDirectory())
      }
    }
  }
  look(join(dir, 'operations'), 0, true)
  look(join(dir, 'journal'), 0, true)
  look(join(dir, 'key-scopes.json'), 2, false)
  look(join(dir, 'journal-key'), 2, false)
  if (problems.length === 0) return pass(name, `${join(dir, 'operations')} and ${join(dir, 'journal')}: yours, and no one else can write them`)
  const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '')
  return fail(
    name,
    `payfac refuses to send money while ${shown}`,
    [...fixes].slice(0, 3).join(' && ') || 'Check on the service what the operations did, then remove what payfac did not write',
  )
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`
}

/** The settings resolve (profile, base URL, credential). */
export async function checkSettings(resolve: () => Promise<ResolvedSettings>): Promise<{ row: CheckRow; settings?: ResolvedSettings }> {
  try {
    const settings = await resolve()
    const profile = settings.profileName ? `profile ${settings.profileName}` : `no profile (${settings.origins?.credential ?? 'PAYFAC_API_KEY'})`
    return {
      row: pass('settings', `${profile}, ${settings.environment}${settings.environmentReason ? ` (${settings.environmentReason})` : ''}, ${settings.baseUrl}`),
      settings,
    }
  } catch (error) {
    const { message, hint } = error as { message: string; hint?: string }
    return { row: fail('settings', message, hint ?? 'See `payfac whoami` and `payfac profiles list`.') }
  }
}

const KEPT_IN: Record<string, string> = {
  env: 'PAYFAC_API_KEY (not on disk)',
  builtin: "the built-in local profile (the emulator's well-known key)",
  keychain: 'the OS keychain',
  command: 'a credential command, run each time (not on disk)',
  file: 'the profile file',
}

/** The warning for a live key kept on disk in the profile file, or undefined. */
export function liveKeyOnDisk(settings: ResolvedSettings, storeFile: string): string | undefined {
  if ((settings.credentialStore ?? 'file') !== 'file' || !settings.profileName) return undefined
  if (settings.environment !== 'production' && !settings.credential.startsWith('live_')) return undefined
  return `warning: the live credential of profile ${settings.profileName} is kept on disk in ${storeFile}; move it to the OS keychain with \`payfac profiles migrate-secrets\`, or use a --credential-command profile`
}

/**
 * Where the credential comes from. A live key on disk passes (it is the operator's choice, and the
 * file is 0600) but says so, as a warning.
 */
export function checkCredentialStore(settings: ResolvedSettings, storeFile: string): CheckRow {
  const name = 'credential storage'
  const kept = settings.credentialStore ?? 'file'
  const where = kept === 'file' ? `${KEPT_IN.file} ${storeFile} (mode 0600)` : (KEPT_IN[kept] ?? kept)
  const warning = liveKeyOnDisk(settings, storeFile)
  return pass(name, warning ? `${where}; ${warning}` : `${where}${settings.origins?.credential ? ` (${settings.origins.credential})` : ''}`)
}

/** A live key goes with production, a sandbox key with sandbox or local. */
export function checkKeyPrefix(settings: ResolvedSettings): CheckRow {
  const name = 'key against environment'
  const match = /^(live|sandbox)_/.exec(settings.credential)
  if (!match) return pass(name, `a ${settings.credentialKind} names no environment`)
  const keyEnv = match[1]
  const fits = keyEnv === 'live' ? settings.environment === 'production' : settings.environment !== 'production'
  if (fits) return pass(name, `a ${keyEnv} key on a ${settings.environment} profile`)
  return fail(
    name,
    `a ${keyEnv} key on a ${settings.environment} profile`,
    `Use a ${keyEnv === 'live' ? 'sandbox' : 'live'}_… key, or a profile of the ${keyEnv === 'live' ? 'production' : 'sandbox'} environment`,
  )
}

/**
 * One cheap read (`GET /merchants/industries`): is the service there, does it accept the
 * credential, and is our clock near its `Date` header?
 */
export async function checkService(client: PayfacClient, baseUrl: string, now: () => number = Date.now): Promise<CheckRow[]> {
  const sentAt = now()
  try {
    const answer = await client.request({ method: 'GET', path: '/merchants/industries' })
    return [
      pass('service reachable', `${baseUrl} answered ${answer.status}`),
      pass('credential accepted', 'a read with it succeeded'),
      clockRow(answer.headers.date, sentAt, now()),
    ]
  } catch (error) {
    const status = (error as { status?: number }).status
    if (typeof status === 'number') {
      const reachable = pass('service reachable', `${baseUrl} answered ${status}`)
      const headers = (error as { headers?: Record<string, string> }).headers
      if (status === 401 || status === 403) {
        return [
          reachable,
          fail(
            'credential accepted',
            `the service refused it (${status})`,
            'Check the key in your dashboard, then `payfac profiles add NAME --replace` (or set PAYFAC_API_KEY)',
          ),
          clockRow(headers?.date, sentAt, now()),
        ]
      }
      return [
        reachable,
        fail('credential accepted', `the read failed with ${status}`, 'Try again later; run with --debug to see the answer'),
        clockRow(headers?.date, sentAt, now()),
      ]
    }
    const why = error instanceof Error ? error.message : String(error)
    return [fail('service reachable', why, `Check --base-url / PAYFAC_BASE_URL (${baseUrl}); for the emulator run \`payfac emulator start\``)]
  }
}

function clockRow(date: string | undefined, sentAt: number, receivedAt: number): CheckRow {
  const name = 'clock'
  const theirs = date ? Date.parse(date) : Number.NaN
  if (Number.isNaN(theirs)) return pass(name, 'the service sent no Date header to compare with')
  // The Date header has whole seconds: compare with the middle of the round trip, allowing a second.
  const skew = theirs - (sentAt + receivedAt) / 2
  const seconds = Math.round(skew / 1000)
  if (Math.abs(skew) <= CLOCK_SKEW_MS) return pass(name, `within ${Math.max(1, Math.abs(seconds))}s of the service`)
  return fail(
    name,
    `this machine is ${Math.abs(seconds)}s ${skew > 0 ? 'behind' : 'ahead of'} the service`,
    'Turn on time synchronisation (for example: timedatectl set-ntp true)',
  )
}

/** Node 20.18.1 or newer. */
export function checkNode(version: string = process.versions.node): CheckRow {
  const parts = version.split('.').map(Number)
  for (let i = 0; i < 3; i += 1) {
    const have = parts[i] ?? 0
    const need = NODE_MIN[i] as number
    if (have > need) break
    if (have < need) return fail('node', `Node ${version} is older than ${NODE_MIN.join('.')}`, 'Install Node 20.18.1 or newer (20, 22 and 24 are supported)')
  }
  return pass('node', `Node ${version}`)
}

/**
 * The shared journal (PAYFAC_JOURNAL_URL or the profile's journalUrl), when one is set: reachable,
 * its schema of this payfac's version, the user allowed to read and write it. Nothing is created.
 */
export async function checkSharedJournal(settings: ResolvedSettings): Promise<CheckRow[]> {
  if (!settings.journal) return []
  const name = 'shared journal'
  const [{ openSharedJournal }, { redactJournalUrl }] = await Promise.all([import('../../config/shared-journal.js'), import('../../config/journal-url.js')])
  try {
    const journal = await openSharedJournal(settings.journal.url, settings.journal.origin, { create: false })
    await journal.close()
    return [pass(name, `${journal.where} (from ${settings.journal.origin}): reachable, schema of this payfac, reads and writes allowed`)]
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const hint = (error as { hint?: unknown }).hint
    return [fail(name, `${redactJournalUrl(settings.journal.url)}: ${message}`, typeof hint === 'string' ? hint : 'Check PAYFAC_JOURNAL_URL and the database')]
  }
}
