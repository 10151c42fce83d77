// Builders for the "emulator for integrators" tests: an emulator on port 0 with a fake clock, a
// small fetch wrapper, and a wait that polls instead of sleeping a fixed time.
import { fakeClock } from '../../src/emulator/clock.js'
import { seededIds } from '../../src/emulator/ids.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import type { IntegratorOptions } from '../../src/emulator/namespaces.js'
import { KEYS } from './helpers.js'

export const START = '2025-03-01T10:00:00.000Z'

export function startTestEmulator(integrators: IntegratorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, clock: fakeClock(START), ids: seededIds(`integrators-${Math.random()}`), integrators })
}

export interface Answer {
  status: number
  headers: Headers
  body: any
}

export interface CallOptions {
  body?: unknown
  credential?: string | null
  headers?: Record<string, string>
}

/** One request to the emulator; the merchant secret key unless told otherwise. */
export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  const credential = options.credential === undefined ? KEYS.merchantSecretKey : options.credential
  if (credential !== null) headers.authorization = `Bearer ${credential}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  })
  const text = await response.text()
  let body: unknown = text
  if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text) body = JSON.parse(text)
  return { status: response.status, headers: response.headers, body }
}

/**
 * Polls `check` every 10 ms until it returns something truthy. Only the test's own time limit ends
 * the wait (a slow, busy machine just waits longer); after 100 s it fails naming `what`.
 */
export async function waitFor<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + 100_000
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after 100 s`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })

export function oneOffAgreement(amount: number, account = '12345678') {
  return {
    customerName: 'Jane Citizen',
    customerAccIdentifier: { Bban: { value: `062-000 ${account}` } },
    terms: { AgreementRequestTermsOneOff: { amount: { amount, currency: 'AUD' } } },
    purpose: 'Goods',
  }
}
