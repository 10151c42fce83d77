// What the emulator refuses before it reads a body, so that a web page in the developer's own
// browser, or another machine, cannot drive it (docs/emulator.md, "Who may talk to it"):
//
// - every request (API and control plane): a `Host` that is not a name of this emulator → 421.
//   Allowed: loopback names (localhost, *.localhost, 127.0.0.0/8, [::1]), the bound address,
//   the `--host` name as given, and, when bound to every interface (0.0.0.0, ::), the addresses
//   of this machine's interfaces. A page on an attacker's domain that rebinds its name to
//   127.0.0.1 sends its own name as the Host, and is refused.
// - the control plane (/__emulator…), when a control token is set: no `Emulator-Control-Token`
//   → 401, a wrong one → 403.
// - a state-changing control request (any method but GET, HEAD, OPTIONS) that a browser could
//   send cross-site without a preflight → 403: an `Origin` that is not the emulator's own, a
//   `Sec-Fetch-Site` of another site, a `text/plain`, form or multipart Content-Type, or a body
//   that is not declared `application/json`. A POST without a body (curl -X POST) and the CLI
//   (JSON bodies) are let through.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'
import { EmulatorError } from './api-error.js'
import { CONTROL_PREFIX } from './control-plane.js'

/** The header that carries the control token. */
export const CONTROL_TOKEN_HEADER = 'Emulator-Control-Token'

export interface EdgePolicy {
  /** Host names and addresses (lower case, without brackets or port) accepted beside loopback names. */
  hosts: Set<string>
  /** When set, every control-plane request must carry it. */
  controlToken?: string | undefined
}

/** A fresh control token: 32 random bytes, base64url. */
export function generateControlToken(): string {
  return randomBytes(32).toString('base64url')
}

/** `127.0.0.0/8`, `::1`, `localhost` and `*.localhost` (brackets and a final dot ignored). */
export function isLoopbackName(host: string): boolean {
  const h = bare(host)
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/** A listening address that other machines can reach: anything but loopback. */
export function isExposedAddress(address: string): boolean {
  return !isLoopbackName(address) && bare(address) !== '::ffff:127.0.0.1'
}

/** The policy of an emulator bound to `address`, started with `--host hostName`. */
export function edgePolicy(address: string, hostName: string | undefined, controlToken: string | undefined): EdgePolicy {
  const hosts = new Set<string>([bare(address)])
  if (hostName) hosts.add(bare(hostName))
  if (bare(address) === '0.0.0.0' || bare(address) === '::') {
    for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) hosts.add(bare(entry.address.split('%')[0] as string))
  }
  return { hosts, controlToken }
}

/** The refusal of a request by its method, path and headers; undefined when it may go on. */
export function screenRequest(
  policy: EdgePolicy,
  method: string,
  url: string,
  headers: Record<string, string | string[] | undefined>,
): EmulatorError | undefined {
  const host = one(headers.host)
  if (host !== undefined && !hostAllowed(policy, host)) {
    return new EmulatorError(421, 'misdirected_request', `This emulator does not answer for the host "${printable(host)}"`, {
      detail:
        'Only loopback names (localhost, *.localhost, 127.0.0.1, [::1]), the address it listens on and its --host name are served; another name may be a DNS rebinding attack',
    })
  }
  if (!isControlPath(url)) return undefined
  if (policy.controlToken !== undefined) {
    const given = one(headers[CONTROL_TOKEN_HEADER.toLowerCase()])
    if (given === undefined || given === '') {
      return new EmulatorError(401, 'control_token_required', `The control plane needs the ${CONTROL_TOKEN_HEADER} header`, {
        detail:
          'This emulator listens where other machines can reach it (or was given --control-token); the token was printed when it started. payfac emulator commands send PAYFAC_EMULATOR_TOKEN',
      })
    }
    if (!sameSecret(given, policy.controlToken))
      return new EmulatorError(403, 'control_token_invalid', `The ${CONTROL_TOKEN_HEADER} is not this emulator's control token`)
  }
  const verb = method.toUpperCase()
  if (verb === 'GET' || verb === 'HEAD' || verb === 'OPTIONS') return undefined
  const origin = one(headers.origin)
  if (origin !== undefined && (host === undefined || origin.toLowerCase() !== `http://${host.toLowerCase()}`)) {
    return crossSite(`it comes from the origin "${printable(origin)}", not from this emulator`)
  }
  const site = one(headers['sec-fetch-site'])?.toLowerCase()
  if (site === 'cross-site' || site === 'same-site') return crossSite(`the browser says it comes from another site (Sec-Fetch-Site: ${site})`)
  const type = one(headers['content-type'])?.split(';')[0]?.trim().toLowerCase()
  if (type === 'text/plain' || type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    return crossSite(`its Content-Type is ${type}, which any web page can send`)
  }
  if (hasBody(headers) && !(type === 'application/json' || type?.endsWith('+json'))) {
    return crossSite(`its body is not declared application/json`)
  }
  return undefined
}

function crossSite(why: string): EmulatorError {
  return new EmulatorError(403, 'cross_site_request', `Control request refused: ${why}`, {
    detail:
      'A request that changes the emulator must send JSON (Content-Type: application/json) or no body, from the emulator itself or a program, not from a web page',
  })
}

/** Host headers already judged, per policy: a client sends the same one on every request. */
const judged = new WeakMap<EdgePolicy, Map<string, boolean>>()
const JUDGED_MAX = 64

function hostAllowed(policy: EdgePolicy, hostHeader: string): boolean {
  let seen = judged.get(policy)
  if (!seen) judged.set(policy, (seen = new Map()))
  const known = seen.get(hostHeader)
  if (known !== undefined) return known
  const allowed = judgeHost(policy, hostHeader)
  // Bounded: a client that sends a new Host header each time gets each one judged afresh.
  if (seen.size >= JUDGED_MAX) seen.clear()
  seen.set(hostHeader, allowed)
  return allowed
}

function judgeHost(policy: EdgePolicy, hostHeader: string): boolean {
  // A host name or address and an optional port, nothing else: `evil.example/.localhost` or
  // `localhost:80@evil.example` name no host of this emulator, whatever their last part says.
  if (!/^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(hostHeader.trim()) && isIP(hostHeader.trim()) !== 6) return false
  const host = bare(stripPort(hostHeader.trim()))
  if (host === '') return false
  return isLoopbackName(host) || policy.hosts.has(host)
}

/** `name:port` → name; `[::1]:4010` → [::1]; a bare IPv6 address stays whole. */
function stripPort(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1)
  if (isIP(host) === 6) return host
  const colon = host.lastIndexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}

function bare(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
}

const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_~!$&'()*+,;=:@/-]*$/

/** Parsed as the front door parses it (front.ts), so `/x/../__emulator/reset` is the control plane here too. */
function isControlPath(url: string): boolean {
  // A plain path (only characters a URL keeps as they are: no dot, escape, backslash, space or
  // control character; not `//`) is its own pathname, without a parse.
  const end = url.search(/[?#]/)
  const plain = end === -1 ? url : url.slice(0, end)
  if (PLAIN_PATH.test(plain)) return plain === CONTROL_PREFIX || plain.startsWith(`${CONTROL_PREFIX}/`)
  let path: string
  try {
    path = new URL(url, 'http://emulator.invalid').pathname
  } catch {
    return false
  }
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = one(headers['content-length'])
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0')
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

/** Compared as digests, in constant time whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(expected))
}

function printable(text: string): string {
  return text.slice(0, 200).replace(/[^\x20-\x7e]/g, '?')
}
