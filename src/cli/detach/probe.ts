// Talking to a background emulator over HTTP: the proof that the process answering on its port is
// the run a record names (GET /__emulator/instance?challenge=…, answered with an HMAC of the
// challenge under the run's secret, and the run's pid), the shutdown request, and whether any
// emulator answers at a base URL (`emulator wait` without a record). node:http only, bounded in
// time and size: whatever answers on the port may be another program, and is treated as hostile.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import http from 'node:http'

import type { EmulatorRecord } from '../../config/emulator-records.js'
import { recordUrl } from '../../config/emulator-records.js'

/** The header of the control token (the emulator's edge-guard.ts), and of the run's secret (its instance.ts). */
const CONTROL_TOKEN_HEADER = 'Emulator-Control-Token'
const INSTANCE_TOKEN_HEADER = 'Emulator-Instance-Token'
const NAMESPACE_HEADER = 'Emulator-Namespace'
const MAX_ANSWER_BYTES = 64 * 1024

/** The proof the emulator gives for `challenge` (the same HMAC as its instance.ts). */
export function expectedProof(secret: string, challenge: string): string {
  return createHmac('sha256', secret).update(`payfac-emulator-instance:${challenge}`).digest('base64url')
}

interface Answer {
  status: number
  body: unknown
}

/** One request; undefined when nothing answers in time (refused, reset, timed out) or the answer is not JSON. */
export function request(url: string, options: { method?: string; headers?: Record<string, string>; timeoutMs: number }): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    let done = false
    const finish = (answer: Answer | undefined) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(answer)
    }
    const req = http.request(url, { method: options.method ?? 'GET', headers: { Accept: 'application/json', ...options.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_ANSWER_BYTES) {
          req.destroy()
          finish(undefined)
        } else chunks.push(chunk)
      })
      res.on('end', () => {
        try {
          finish({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
        } catch {
          finish(undefined)
        }
      })
      res.on('error', () => finish(undefined))
    })
    const timer = setTimeout(() => {
      req.destroy()
      finish(undefined)
    }, options.timeoutMs)
    req.on('error', () => finish(undefined))
    req.end()
  })
}

function controlHeaders(record: Pick<EmulatorRecord, 'controlToken'>): Record<string, string> {
  return record.controlToken ? { [CONTROL_TOKEN_HEADER]: record.controlToken } : {}
}

/**
 * `proven`: the run of the record answers on its port, with its pid. `other`: something answers
 * there, but not with the run's proof. `silent`: nothing answers (in `timeoutMs`).
 */
export type Proof = 'proven' | 'other' | 'silent'

export async function proveRecord(record: EmulatorRecord, timeoutMs = 3000): Promise<Proof> {
  const challenge = randomBytes(24).toString('base64url')
  const answer = await request(`${recordUrl(record)}/__emulator/instance?challenge=${challenge}`, { headers: controlHeaders(record), timeoutMs })
  if (answer === undefined) return 'silent'
  const body = answer.body as { instance?: unknown; pid?: unknown; proof?: unknown } | null
  if (answer.status !== 200 || !body || body.instance !== record.instance || body.pid !== record.pid || typeof body.proof !== 'string') return 'other'
  const expected = Buffer.from(expectedProof(record.secret, challenge))
  const given = Buffer.from(body.proof)
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'proven' : 'other'
}

/** Asks the run to stop (it answers 202, then closes); true when it said it is stopping. */
export async function askShutdown(record: EmulatorRecord, timeoutMs = 5000): Promise<boolean> {
  const answer = await request(`${recordUrl(record)}/__emulator/shutdown`, {
    method: 'POST',
    headers: { ...controlHeaders(record), [INSTANCE_TOKEN_HEADER]: record.secret },
    timeoutMs,
  })
  return answer?.status === 202 && (answer.body as { stopping?: unknown } | null)?.stopping === true
}

/**
 * Whether an emulator's control plane answers at `baseUrl` (in `namespace`, which it then makes):
 * `ready` (it answers, or it refuses for want of its control token, which only an emulator does),
 * `silent` (nothing answers yet, or a gateway in front says it is not up: 5xx), or the status of
 * something else that answers there.
 */
export async function emulatorAnswers(
  baseUrl: string,
  options: { namespace?: string | null; controlToken?: string | undefined; timeoutMs: number },
): Promise<'ready' | 'silent' | { other: number }> {
  const headers: Record<string, string> = {}
  if (options.namespace) headers[NAMESPACE_HEADER] = options.namespace
  if (options.controlToken) headers[CONTROL_TOKEN_HEADER] = options.controlToken
  const answer = await request(`${baseUrl.replace(/\/+$/, '')}/__emulator`, { headers, timeoutMs: options.timeoutMs })
  if (answer === undefined || answer.status >= 500) return 'silent'
  const body = answer.body as { namespace?: unknown; errorCode?: unknown } | null
  if (answer.status === 200 && typeof body?.namespace === 'string') return 'ready'
  if ((answer.status === 401 || answer.status === 403) && /^control_token_/.test(String(body?.errorCode))) return 'ready'
  return { other: answer.status }
}
