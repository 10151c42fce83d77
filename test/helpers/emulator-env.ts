// An emulator on port 0 and the environment that points payfac at it, for command tests.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js'

export interface EmulatorEnv {
  emulator: RunningEmulator
  /** Environment for runCommand/spawnCli: base URL, the merchant secret key, a temporary config dir. */
  env: Record<string, string | undefined>
  /** The same with another credential (e.g. the marketplace API key). */
  envWith(credential: string): Record<string, string | undefined>
  close(): Promise<void>
}

/**
 * The environment that points payfac at `baseUrl` with `credential` and a config dir of its own,
 * with no profile, context, colour or CI setting taken from the shell that runs the tests (CI
 * changes what the production guard says; the tests that are about CI set it themselves), and
 * no keychain: a session bus of the developer's desktop would otherwise receive the secrets of
 * `profiles add` (test/helpers/keyring.ts starts a private one for the keychain tests).
 */
export function commandEnv(configDir: string, baseUrl: string, credential: string): Record<string, string | undefined> {
  return {
    PAYFAC_CONFIG_DIR: configDir,
    PAYFAC_BASE_URL: baseUrl,
    PAYFAC_API_KEY: credential,
    PAYFAC_PROFILE: undefined,
    PAYFAC_MERCHANT_ID: undefined,
    PAYFAC_MARKETPLACE_ID: undefined,
    PAYFAC_CUSTOMER_ID: undefined,
    PAYFAC_REPEAT_WINDOW: undefined,
    PAYFAC_CREDENTIAL_COMMAND: undefined,
    CI: undefined,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/payfac-tests-have-no-session-bus',
    NO_COLOR: '1',
  }
}

export async function startEmulatorEnv(): Promise<EmulatorEnv> {
  const emulator = await startEmulator({ port: 0 })
  const configDir = mkdtempSync(join(tmpdir(), 'payfac-cmd-'))
  const envWith = (credential: string) => commandEnv(configDir, emulator.url, credential)
  return {
    emulator,
    env: envWith(emulator.credentials.merchantSecretKey),
    envWith,
    close: async () => {
      await emulator.close()
      rmSync(configDir, { recursive: true, force: true })
    },
  }
}
