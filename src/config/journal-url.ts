// The address of a shared journal: `postgres://user[:password]@host[:port]/database[?sslmode=…]`
// (also `postgresql://`). Checked before anything is sent, and never shown with its password.
// Pure: no I/O.
import { ConfigError } from './errors.js'

export const JOURNAL_URL_ENV = 'PAYFAC_JOURNAL_URL'

/** Why `text` is not a journal URL, or undefined when it is one. */
export function journalUrlProblem(text: string): string | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'is not a URL (expected postgres://user@host:5432/database)'
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return `is a ${url.protocol.replace(/:$/, '')}:// URL, not postgres://`
  if (url.hostname === '' && !url.searchParams.get('host')) return 'names no host'
  if (url.pathname.replace(/^\//, '') === '') return 'names no database (postgres://user@host:5432/database)'
  return undefined
}

/** The URL without its password: `postgres://payfac:***@db:5432/payfac`. */
export function redactJournalUrl(text: string): string {
  try {
    const url = new URL(text)
    if (url.password) url.password = '***'
    for (const key of [...url.searchParams.keys()]) if (/pass|secret|key/i.test(key)) url.searchParams.set(key, '***')
    return url.toString()
  } catch {
    return '(not a URL)'
  }
}

/** The URL as given, or a ConfigError (exit 3) naming where it came from. */
export function checkJournalUrl(text: string, origin: string): string {
  const problem = journalUrlProblem(text)
  if (problem) {
    throw new ConfigError(`The shared journal's address from ${origin} ${problem}: nothing was sent.`, {
      reason: 'invalid',
      hint: `Set ${JOURNAL_URL_ENV}=postgres://user@host:5432/database (the password in PGPASSWORD, or in the URL), or unset it to use the local journal.`,
    })
  }
  return text
}
