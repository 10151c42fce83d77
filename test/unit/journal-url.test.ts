// Which journal a command uses (issue 34): PAYFAC_JOURNAL_URL or a profile's journalUrl, checked
// before anything is sent and never shown with its password.
import { describe, expect, it } from 'vitest'

import { ConfigError } from '../../src/config/errors.js'
import { checkJournalUrl, journalUrlProblem, redactJournalUrl } from '../../src/config/journal-url.js'
import { type Profile, parseProfile } from '../../src/config/profiles.js'
import { type ProfileSource, resolveSettings } from '../../src/config/resolve.js'

const DEV: Profile = {
  name: 'dev',
  environment: 'sandbox',
  baseUrl: 'https://sandbox.example.com',
  credentialKind: 'merchant-secret-key',
  credential: 'sandbox_sk_devkey1234',
  journalUrl: 'postgres://payfac@db.internal:5432/payfac',
}

const store = (profiles: Profile[]): ProfileSource => ({
  get: (name) => profiles.find((p) => p.name === name),
  activeName: () => undefined,
  list: () => profiles,
})

describe('the shared journal setting', () => {
  it('comes from the profile, and PAYFAC_JOURNAL_URL wins over it; none means the local journal', () => {
    const fromProfile = resolveSettings({ flags: { profile: 'dev' }, env: {}, store: store([DEV]) })
    expect(fromProfile.journal).toEqual({ url: 'postgres://payfac@db.internal:5432/payfac', origin: 'profile dev' })
    const fromEnv = resolveSettings({ flags: {}, env: { PAYFAC_PROFILE: 'dev', PAYFAC_JOURNAL_URL: 'postgres://ci@other:5432/j' }, store: store([DEV]) })
    expect(fromEnv.journal).toEqual({ url: 'postgres://ci@other:5432/j', origin: 'PAYFAC_JOURNAL_URL' })
    const none = resolveSettings({ flags: { profile: 'dev' }, env: {}, store: store([{ ...DEV, journalUrl: undefined }]) })
    expect(none.journal).toBeUndefined()
  })

  it('is refused (exit 3) when it is not a postgres:// URL with a host and a database', () => {
    for (const bad of ['mysql://u@h/db', 'postgres://u@h:5432/', 'not a url']) {
      expect(journalUrlProblem(bad), bad).toBeDefined()
      expect(() => checkJournalUrl(bad, 'PAYFAC_JOURNAL_URL')).toThrow(ConfigError)
    }
    expect(journalUrlProblem('postgresql://u@h:5432/db')).toBeUndefined()
  })

  it('is never shown with its password, and a profile may not keep one', () => {
    expect(redactJournalUrl('postgres://u:s3cret@h:5432/db?password=x')).not.toMatch(/s3cret|=x/)
    expect(() => parseProfile({ ...DEV, journalUrl: 'postgres://u:s3cret@h:5432/db' })).toThrow(/password/)
  })
})
