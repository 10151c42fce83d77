// `payfac whoami`: the settings in force and which source won each of them.
import { redactJournalUrl } from '../../config/journal-url.js'
import type { ResolvedSettings } from '../../config/index.js'
import type { SettingRow } from '../../output/views/diagnostics.js'

const PROFILE_SOURCE: Record<ResolvedSettings['source'], string> = {
  flag: '--profile',
  env: 'PAYFAC_PROFILE',
  active: 'the active profile (profiles use)',
  builtin: 'built-in (no profile chosen)',
}

/**
 * Rows for the table; `mask` hides the credential (config's maskCredential). Each source names
 * what it won over (`PAYFAC_BASE_URL=… over the base URL … of profile dev`): the precedence
 * notices a command prints only on a terminal, shown here always.
 */
export function whoamiRows(settings: ResolvedSettings, mask: (key: string) => string): SettingRow[] {
  const origin = settings.origins ?? {}
  const over = settings.overridden ?? {}
  const source = (from: string | undefined, key: keyof typeof over) => {
    const lost = over[key]
    return lost && lost.length > 0 ? `${from ?? '-'} (over ${lost.join(', ')})` : (from ?? '-')
  }
  const rows: SettingRow[] = [
    {
      setting: 'profile',
      value: settings.profileName ?? '(none)',
      source: source(
        settings.profileName === undefined ? `${origin.credential ?? 'PAYFAC_API_KEY'} without a profile` : PROFILE_SOURCE[settings.source],
        'profile',
      ),
    },
    {
      setting: 'environment',
      value: settings.environment,
      source: settings.environmentReason ?? (settings.profileName ? `profile ${settings.profileName}` : 'inferred from the key and base URL'),
    },
    { setting: 'baseUrl', value: settings.baseUrl, source: source(origin.baseUrl, 'baseUrl') },
    { setting: 'credentialKind', value: settings.credentialKind, source: origin.credential ?? '-' },
    { setting: 'credential', value: mask(settings.credential), source: source(origin.credential, 'credential') },
    { setting: 'credentialStore', value: settings.credentialStore ?? 'file', source: origin.credential ?? '-' },
  ]
  for (const field of ['marketplaceId', 'merchantId', 'customerId'] as const) {
    const value = settings.context[field]
    if (value) rows.push({ setting: field, value, source: source(origin[field], field) })
  }
  // The journal's address is shown without its password; the local journal is the default, not shown.
  if (settings.journal) rows.push({ setting: 'journal', value: redactJournalUrl(settings.journal.url), source: settings.journal.origin })
  return rows
}

/** What `whoami --check` learnt from the service: a row for the table, and the refusal to end with. */
export interface CredentialCheck {
  row: SettingRow
  /** The service refused the credential (401): thrown after the table, so the exit is 4. */
  refusal?: unknown
}

/**
 * Asks the service whether the credential works, with one cheap read (`GET /merchants?limit=1`,
 * which every credential kind may send). 2xx: accepted. 403: the credential is known but may not
 * list merchants (still a working credential). 401: refused. Anything else (unreachable, 5xx) is
 * thrown as it is.
 */
export async function checkCredential(client: { merchants: { list(query: { limit: number }): Promise<unknown> } }, baseUrl: string): Promise<CredentialCheck> {
  const { ApiError } = await import('../../client/errors.js')
  const source = `GET ${baseUrl.replace(/\/+$/, '')}/merchants?limit=1`
  try {
    await client.merchants.list({ limit: 1 })
    return { row: { setting: 'check', value: 'accepted by the service', source } }
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      return { row: { setting: 'check', value: 'accepted by the service (403: it may not list merchants)', source } }
    }
    if (error instanceof ApiError && error.status === 401) {
      return { row: { setting: 'check', value: 'REFUSED by the service (401)', source }, refusal: error }
    }
    throw error
  }
}
