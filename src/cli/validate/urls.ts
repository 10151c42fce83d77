// The service's address as flags and profiles give it.
import { redactUrlPasswords } from '../../client/redact.js'
import { UsageError } from '../errors/index.js'

/** An http(s) URL without credentials in it (they would be shown and logged); the value as given. */
export function checkBaseUrl(input: string, flag: string): string {
  const value = input.trim()
  const url = URL.canParse(value) ? new URL(value) : undefined
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new UsageError(`${flag} must be an http:// or https:// URL (got "${redactUrlPasswords(input)}")`, 'For example https://sandbox.example.com')
  }
  if (url.username || url.password) {
    throw new UsageError(`${flag} must not hold a user name or password`, 'Give the credential with a profile or PAYFAC_API_KEY, never in the URL')
  }
  return value
}
