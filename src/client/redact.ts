// Removing secrets from what the client shows: debug lines, and anything else built from a
// request. Pure functions; the transport applies them to every debug line.
//
// What counts as secret: the Authorization header; every JSON key that names a token, secret,
// password, credential or API key (payment token ids included: a payment token pays an order);
// the `token` query parameter; and bank account identifiers (`Bban.value`, `Alias.value`,
// account numbers, BSBs).

export const REDACTED = '[REDACTED]'

const SECRET_KEY = /token|secret|password|passwd|credential|api[_-]?key|customtoken|authori[sz]ation|cookie|private[_-]?key/i
const BANK_KEY = /^(?:accountNumber|accountNo|bsb|bban|iban|accountIdentifier|bankAccountNumber)$/i
/** Keys holding a value the service already masked, such as `accountIdentifierHint`. */
const ALREADY_MASKED = /Hint$/
/** Parents whose `value` is a bank account or alias (PayTo `customerAccIdentifier`). */
const IDENTIFIER_PARENTS = new Set(['Bban', 'Alias'])

/** Whether a JSON key, under `parent`, holds something that must not be shown. */
export function isSensitiveKey(key: string, parent?: string): boolean {
  if (ALREADY_MASKED.test(key)) return false
  if (parent !== undefined && IDENTIFIER_PARENTS.has(parent) && key === 'value') return true
  return SECRET_KEY.test(key) || BANK_KEY.test(key)
}

/**
 * A deep copy of a JSON value with sensitive values replaced by `[REDACTED]`.
 * A sensitive key holding a scalar loses the scalar. A sensitive key holding an object is hidden
 * whole, except PascalCase keys: those are envelope discriminators (`PayToToken`,
 * `CreateServiceToken`, `Bban`) whose contents are walked key by key instead.
 */
export function redactJson(value: unknown, parent?: string, depth = 0): unknown {
  if (depth > 64) return REDACTED
  if (Array.isArray(value)) return value.map((item) => redactJson(item, parent, depth + 1))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      out[key] = redactEntry(key, inner, parent, depth)
    }
    return out
  }
  return value
}

function redactEntry(key: string, inner: unknown, parent: string | undefined, depth: number): unknown {
  if (inner === null || inner === undefined || !isSensitiveKey(key, parent)) return redactJson(inner, key, depth + 1)
  if (typeof inner !== 'object') return REDACTED
  if (/^[A-Z]/.test(key) && !Array.isArray(inner)) return redactJson(inner, key, depth + 1)
  return REDACTED
}

/** Header values with the credential and any secret-named header hidden. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue
    const value = Array.isArray(raw) ? raw.join(', ') : raw
    if (/^(?:authorization|proxy-authorization)$/i.test(name)) {
      const scheme = /^(\w+)\s/.exec(value)?.[1]
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED
    } else if (/^(?:cookie|set-cookie)$/i.test(name) || SECRET_KEY.test(name)) {
      out[name] = REDACTED
    } else {
      out[name] = value
    }
  }
  return out
}

/** A URL with the values of sensitive query parameters (`token`, …) hidden. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?')
  if (question < 0) return url
  const hashAt = url.indexOf('#', question)
  const query = url.slice(question + 1, hashAt < 0 ? undefined : hashAt)
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=')
    if (eq < 0) return pair
    let name: string
    try {
      name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '))
    } catch {
      name = pair.slice(0, eq)
    }
    return isSensitiveKey(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair
  })
  return `${url.slice(0, question)}?${parts.join('&')}${hashAt < 0 ? '' : url.slice(hashAt)}`
}

/**
 * A body for display: JSON text is parsed, redacted and printed compactly; other text has known
 * secrets removed and is cut to `max` characters.
 */
export function redactBodyText(text: string, secrets: readonly string[] = [], max = 4000): string {
  let shown: string
  try {
    shown = JSON.stringify(redactJson(JSON.parse(text)))
  } catch {
    shown = text
  }
  shown = redactSecrets(shown, secrets)
  return shown.length > max ? `${shown.slice(0, max)}… (${shown.length - max} more characters)` : shown
}

/** Replaces every occurrence of each known secret (at least 4 characters long) in `text`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue
    out = out.split(secret).join(REDACTED)
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret) out = out.split(encoded).join(REDACTED)
  }
  return out
}
