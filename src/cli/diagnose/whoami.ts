// `payfac whoami`: the settings in force and which source won each of them.
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
      source: source(settings.profileName === undefined ? `${origin.credential ?? 'PAYFAC_API_KEY'} without a profile` : PROFILE_SOURCE[settings.source], 'profile'),
    },
    { setting: 'environment', value: settings.environment, source: settings.environmentReason ?? (settings.profileName ? `profile ${settings.profileName}` : 'inferred from the key and base URL') },
    { setting: 'baseUrl', value: settings.baseUrl, source: source(origin.baseUrl, 'baseUrl') },
    { setting: 'credentialKind', value: settings.credentialKind, source: origin.credential ?? '-' },
    { setting: 'credential', value: mask(settings.credential), source: source(origin.credential, 'credential') },
    { setting: 'credentialStore', value: settings.credentialStore ?? 'file', source: origin.credential ?? '-' },
  ]
  for (const field of ['marketplaceId', 'merchantId', 'customerId'] as const) {
    const value = settings.context[field]
    if (value) rows.push({ setting: field, value, source: source(origin[field], field) })
  }
  return rows
}
