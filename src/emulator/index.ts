// The local emulator of the Payment Facilitation Service (contract v3.0).
//
//   const emulator = await startEmulator({ port: 0 })
//   // emulator.url, emulator.credentials, emulator.ids
//   await emulator.close()
//
// `createEmulatorApp()` gives the same emulator without a socket, for handler tests.
import { WELL_KNOWN } from '../well-known.js'
import { createEmulatorApp, type EmulatorApp, type EmulatorAppOptions } from './app.js'
import type { Clock } from './clock.js'
import { isExposedAddress } from './edge-guard.js'
import type { IdGenerator } from './ids.js'
import type { EmulatorInstance } from './instance.js'
import type { IntegratorOptions } from './namespaces.js'
import { listen } from './server.js'

export { createEmulatorApp } from './app.js'
export type { AppResponse, EmulatorApp, EmulatorAppOptions } from './app.js'
export { fakeClock, realClock } from './clock.js'
export type { Clock } from './clock.js'
export { randomIds, seededIds } from './ids.js'
export type { IdGenerator } from './ids.js'
export { StateFileError } from './persistence.js'
export { FixtureError, loadFixtures, parseFixtures } from './fixtures.js'
export type { Fixtures } from './fixtures.js'
export type { IntegratorOptions } from './namespaces.js'
export type { EmulatorInstance } from './instance.js'
export { INSTANCE_TOKEN_HEADER, instanceProof } from './instance.js'
export type { SettlementEntry, SettlementEntryType } from './ledger.js'

export interface StartEmulatorOptions {
  /** Default 4010 (LOCAL_PORT); 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Keep the state in this JSON file (see persistence.ts). */
  statePath?: string
  clock?: Clock
  ids?: IdGenerator
  /** Default true: start from the well-known seed. */
  seed?: boolean
  log?: (line: string) => void
  /**
   * Required as the Emulator-Control-Token header on every /__emulator request. Without one, a
   * token is generated when the emulator listens on an address other machines can reach.
   */
  controlToken?: string
  /** Fixtures, fault seed (`--seed`), rate limit, strict https (docs/emulator.md, "For integrators"). */
  integrators?: IntegratorOptions
  /** A background run (`payfac emulator start --detach`): the proof and shutdown routes of instance.ts. */
  instance?: EmulatorInstance
}

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4010 (no trailing slash). */
  url: string
  port: number
  host: string
  credentials: { marketplaceApiKey: string; merchantSecretKey: string; merchantPublicKey: string }
  ids: { marketplaceId: string; merchantId: string; subMerchantId: string }
  /** True when it listens on an address that is not loopback. */
  exposed: boolean
  /** The control token the control plane requires, if any (given, or generated because exposed). */
  controlToken: string | undefined
  app: EmulatorApp
  close(): Promise<void>
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const appOptions: EmulatorAppOptions = {}
  if (options.clock) appOptions.clock = options.clock
  if (options.ids) appOptions.ids = options.ids
  if (options.seed !== undefined) appOptions.seed = options.seed
  if (options.statePath) appOptions.statePath = options.statePath
  if (options.log) appOptions.log = options.log
  const host = options.host ?? '127.0.0.1'
  // Listening beyond this machine, the emulator must not become a way into services that listen
  // on this machine only: webhooks to its loopback then need --allow-private-webhooks.
  const exposed = isExposedAddress(host)
  if (options.integrators || exposed) appOptions.integrators = { ...options.integrators, ...(exposed ? { exposed: true } : {}) }
  const app = createEmulatorApp(appOptions)
  let running: Awaited<ReturnType<typeof listen>>
  try {
    running = await listen(app, {
      port: options.port ?? 4010,
      host,
      controlToken: options.controlToken,
      instance: options.instance,
      ...(options.log ? { log: options.log } : {}),
    })
  } catch (error) {
    app.close()
    throw error
  }
  app.startTicking()
  return {
    url: running.url,
    port: running.port,
    host: running.host,
    credentials: { ...WELL_KNOWN.credentials },
    ids: { marketplaceId: WELL_KNOWN.marketplaceId, merchantId: WELL_KNOWN.merchantId, subMerchantId: WELL_KNOWN.subMerchantId },
    exposed: running.exposed,
    controlToken: running.controlToken,
    app,
    close: async () => {
      app.close()
      await running.close()
    },
  }
}
