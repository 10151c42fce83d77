// An emulator started in the background (`payfac emulator start --detach`) has an instance: a
// public id and a secret that only it and the record payfac keeps of it (a private file in the
// config folder) know. Two control routes exist only then, behind the same edge rules as the rest
// of the control plane (Host check, cross-site refusals, control token):
//
//   GET  /__emulator/instance?challenge=<nonce>   {instance, pid, startedAt, proof}: proof is
//        HMAC-SHA256(secret, "payfac-emulator-instance:" + nonce), so a caller holding the secret
//        can tell this very process (by its pid) from any other program on the port, without
//        the secret ever crossing the wire.
//   POST /__emulator/shutdown                     with the header Emulator-Instance-Token: <secret>:
//        202, then the emulator stops as on SIGTERM (`payfac emulator stop`).
//
// Without an instance both paths are left to the control plane (its 404).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { EmulatorError } from './api-error.js'
import { CONTROL_PREFIX } from './control-plane.js'

/** The header `POST /__emulator/shutdown` needs. */
export const INSTANCE_TOKEN_HEADER = 'Emulator-Instance-Token'

export interface EmulatorInstance {
  /** Public id of this run (also on its command line). */
  id: string
  /** Known only to this process and the record payfac keeps of it. */
  secret: string
  /** Called once the shutdown answer is sent. */
  onShutdown: () => void
}

/** What a caller holding `secret` expects as the proof of `challenge`. */
export function instanceProof(secret: string, challenge: string): string {
  return createHmac('sha256', secret).update(`payfac-emulator-instance:${challenge}`).digest('base64url')
}

const CHALLENGE = /^[A-Za-z0-9_-]{16,128}$/

export interface InstanceAnswer {
  status: number
  body: Record<string, unknown>
  /** Run after the answer is written (the shutdown). */
  after?: () => void
}

/**
 * The answer of an instance route, or undefined when the request is not for one (or there is
 * no instance). Refusals are EmulatorErrors for the caller to send as ApiError bodies.
 */
export function instanceRoute(
  instance: EmulatorInstance | undefined,
  started: { pid: number; at: string },
  method: string,
  url: string,
  headers: Record<string, string | string[] | undefined>,
): InstanceAnswer | undefined {
  if (!instance || !url.startsWith(`${CONTROL_PREFIX}/`)) return undefined
  const parsed = new URL(url, 'http://emulator.invalid')
  const path = parsed.pathname.replace(/\/$/, '')
  const verb = method.toUpperCase()
  if (path === `${CONTROL_PREFIX}/instance`) {
    if (verb !== 'GET') throw new EmulatorError(405, 'method_not_allowed', `${verb} is not allowed on ${path}; allowed: GET`, { headers: { Allow: 'GET' } })
    const challenge = parsed.searchParams.get('challenge') ?? ''
    if (!CHALLENGE.test(challenge)) throw new EmulatorError(400, 'invalid_query', '"challenge" must be 16 to 128 base64url characters')
    return { status: 200, body: { instance: instance.id, pid: started.pid, startedAt: started.at, proof: instanceProof(instance.secret, challenge) } }
  }
  if (path === `${CONTROL_PREFIX}/shutdown`) {
    if (verb !== 'POST') throw new EmulatorError(405, 'method_not_allowed', `${verb} is not allowed on ${path}; allowed: POST`, { headers: { Allow: 'POST' } })
    const given = headers[INSTANCE_TOKEN_HEADER.toLowerCase()]
    const token = Array.isArray(given) ? given[0] : given
    if (!token)
      throw new EmulatorError(
        401,
        'instance_token_required',
        `Stopping this emulator needs the ${INSTANCE_TOKEN_HEADER} header (payfac emulator stop sends it)`,
      )
    if (!sameSecret(token, instance.secret)) throw new EmulatorError(403, 'instance_token_invalid', `The ${INSTANCE_TOKEN_HEADER} is not this emulator's`)
    return { status: 202, body: { instance: instance.id, pid: started.pid, stopping: true }, after: instance.onShutdown }
  }
  return undefined
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(expected))
}
