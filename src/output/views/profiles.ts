// Profiles, as `payfac profiles list/show/add` print them.
//
// This view never sees a raw credential: the caller passes rows whose `credential` is already
// masked (config's maskCredential). Output may not import config, so the row type is declared
// here; as a second guard, a credential that does not look masked (no `…`) is shown as
// "(hidden)" in tables and CSV. JSON output prints the row as given, so masking before calling
// render is the caller's duty.
import { defineView, type Column } from '../view.js'

export interface ProfileRow {
  name: string
  active: boolean
  /** 'stored' in the profile file, or the 'built-in' local profile. */
  source?: string | undefined
  environment: string
  baseUrl: string
  credentialKind: string
  /** Already masked, e.g. `sandbox_sk_…a1b2`, or a note in parentheses: `(printed by a command)`. */
  credential: string
  /** Where the secret is kept: `file`, `keychain`, `command: op read …`, `built-in`. */
  credentialStore?: string | undefined
  merchantId?: string | undefined
  marketplaceId?: string | undefined
  customerId?: string | undefined
}

const looksMasked = (text: string) => text.includes('…') || /^\([a-z ]+\)$/.test(text)

const p = {
  active: { key: 'active', header: 'Active', display: (value) => (value ? '*' : '') },
  name: { key: 'name', header: 'Name' },
  environment: { key: 'environment', header: 'Environment' },
  baseUrl: { key: 'baseUrl', header: 'Base URL', whole: true },
  credentialKind: { key: 'credentialKind', header: 'Credential kind' },
  credential: {
    key: 'credential',
    header: 'Credential',
    get: (r) => (looksMasked(r.credential) ? r.credential : '(hidden)'),
  },
} satisfies Record<string, Column<ProfileRow>>

export const profileView = defineView<ProfileRow>({
  name: 'profile',
  columns: [p.active, p.name, p.environment, p.baseUrl, p.credentialKind, p.credential],
  detail: [
    p.name,
    p.active,
    { key: 'source', header: 'Source' },
    p.environment,
    p.baseUrl,
    p.credentialKind,
    p.credential,
    { key: 'credentialStore', header: 'Stored in' },
    { key: 'marketplaceId', header: 'Marketplace' },
    { key: 'merchantId', header: 'Merchant' },
    { key: 'customerId', header: 'Customer' },
  ],
})
