// `payfac doctor` checks and `payfac whoami` settings.
import { defineView } from '../view.js'

export interface CheckRow {
  check: string
  ok: boolean
  detail: string
  /** How to fix it, when it failed. */
  fix?: string | undefined
}

export const checkView = defineView<CheckRow>({
  name: 'check',
  columns: [
    { key: 'ok', header: 'Result', display: (ok) => (ok ? 'ok' : 'FAIL') },
    { key: 'check', header: 'Check' },
    { key: 'detail', header: 'Detail' },
    { key: 'fix', header: 'Fix' },
  ],
})

/** One setting in force and where it came from (the credential already masked). */
export interface SettingRow {
  setting: string
  value: string
  source: string
}

export const settingView = defineView<SettingRow>({
  name: 'setting',
  columns: [
    { key: 'setting', header: 'Setting' },
    { key: 'value', header: 'Value' },
    { key: 'source', header: 'Source' },
  ],
})
