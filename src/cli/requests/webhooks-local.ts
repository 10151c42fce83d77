// Checks of `webhooks listen` flags. Pure: no I/O.
import { UsageError } from '../errors/index.js'

/** `--forward-to`: an absolute http or https URL (a local handler is usually plain http). */
export function checkForwardUrl(input: string, flag = '--forward-to'): string {
  const value = input.trim()
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`${flag} must be an absolute URL (got "${input}")`, 'For example --forward-to http://127.0.0.1:3000/webhooks')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http:// or https:// URL (got "${input}")`, 'For example --forward-to http://127.0.0.1:3000/webhooks')
  }
  return value
}
