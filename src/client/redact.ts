// Removing secrets from what the client shows: debug lines, and anything else built from a
// request. Pure functions; the transport applies them to every debug line.
//
// What counts as secret: the Authorization header; every JSON key that names a token, secret,
// password, credential or API key (payment token ids included: a payment token pays an order);
// the `token` query parameter; the password of a URL (`https://user:pw@host`); card numbers
// (the last four digits kept) and security codes (CVC, CVV); and bank account identifiers
// (`Bban.value` and account numbers keep a hint of their last three digits; `Alias.value` and
// BSBs are hidden whole). In free text (error messages, non-JSON bodies), anything that looks
// like a card number (13 to 19 digits passing the Luhn check) is masked as well.

export const REDACTED = '[REDACTED]'

const SECRET_KEY = /token|secret|password|passwd|credential|api[_-]?key|customtoken|authori[sz]ation|cookie|private[_-]?key/i
const BANK_KEY = /^(?:accountNumber|accountNo|bsb|bban|iban|accountIdentifier|bankAccountNumber)$/i
/** Bank account numbers, shown as a hint of their last three digits (`***678`), as the service does. */
const ACCOUNT_KEY = /^(?:accountNumber|accountNo|bban|iban|accountIdentifier|bankAccountNumber)$/i
const CARD_NUMBER_KEY = /^(?:cardNumber|card_number|pan|primaryAccountNumber)$/i
const CARD_CODE_KEY = /^(?:cvc|cvv|cvc2|cvv2|cvn|csc|securityCode|cardSecurityCode|cardVerificationCode)$/i
/** Keys holding a value the service already masked, such as `accountIdentifierHint`. */
const ALREADY_MASKED = /Hint$/
/** Parents whose `value` is a bank account or alias (PayTo `customerAccIdentifier`). */
const IDENTIFIER_PARENTS = new Set(['Bban', 'Alias'])

/** Whether a JSON key, under `parent`, holds something that must not be shown. */
export function isSensitiveKey(key: string, parent?: string): boolean {
  if (ALREADY_MASKED.test(key)) return false
  if (parent !== undefined && IDENTIFIER_PARENTS.has(parent) && key === 'value') return true
  return SECRET_KEY.test(key) || BANK_KEY.test(key) || CARD_NUMBER_KEY.test(key) || CARD_CODE_KEY.test(key)
}

/** A card number reduced to its last four digits: `****1111`. */
export function maskCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '')
  return digits.length >= 12 ? `****${digits.slice(-4)}` : REDACTED
}

/** An account number reduced to a hint of its last three digits: `***678`. */
export function maskAccountNumber(value: string): string {
  const digits = value.replace(/\D/g, '')
  return digits.length >= 6 ? `***${digits.slice(-3)}` : REDACTED
}

/** The shown form of a sensitive scalar: a hint for card and account numbers, nothing else. */
function maskScalar(key: string, parent: string | undefined, value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return REDACTED
  const text = String(value)
  if (CARD_NUMBER_KEY.test(key)) return maskCardNumber(text)
  if (ACCOUNT_KEY.test(key) || (parent === 'Bban' && key === 'value')) return maskAccountNumber(text)
  return REDACTED
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
  if (typeof inner !== 'object') return maskScalar(key, parent, inner)
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

/** A URL with its password (`user:pw@`) and the values of sensitive query parameters (`token`, …) hidden. */
export function redactUrl(input: string): string {
  const url = redactUrlPasswords(input)
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
  let out = redactText(text)
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue
    out = out.split(secret).join(REDACTED)
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret) out = out.split(encoded).join(REDACTED)
  }
  return out
}

/** `scheme://user:password@` → `scheme://user:[REDACTED]@`, anywhere in a text. */
export function redactUrlPasswords(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi, `$1:${REDACTED}@`)
}

/** True when a run of digits passes the Luhn check (card numbers do). */
export function passesLuhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/**
 * Free text made safe to show: URL passwords hidden, and every run of 13 to 19 digits (spaces
 * or dashes between groups allowed) that passes the Luhn check masked to its last four digits.
 */
export function redactText(text: string): string {
  return redactUrlPasswords(text).replace(/(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])/g, (run) => {
    const digits = run.replace(/\D/g, '')
    return passesLuhn(digits) ? maskCardNumber(digits) : run
  })
}
