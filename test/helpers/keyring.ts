// A private Secret Service for a test: its own D-Bus session bus (dbus-daemon) and an unlocked
// gnome-keyring on it, in a throw-away home. Payfac is pointed at it by DBUS_SESSION_BUS_ADDRESS;
// nothing of the user's own session is touched. `.ci/run` installs the tools.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon']

/** Why the keyring tests cannot run here (a tool missing), or undefined when they can. */
export function keyringToolsMissing(): string | undefined {
  const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
  return missing.length > 0 ? `not installed: ${missing.join(', ')} (apt-get install gnome-keyring dbus dbus-x11)` : undefined
}

export interface KeyringSession {
  /** The environment for payfac: the private bus, and a home of its own. */
  env: Record<string, string>
  stop(): void
}

export async function startKeyring(): Promise<KeyringSession> {
  const home = mkdtempSync(join(tmpdir(), 'payfac-keyring-'))
  const started = spawnSync('dbus-daemon', ['--session', '--print-address=1', '--print-pid=1', '--fork', '--nopidfile'], { encoding: 'utf8' })
  const [address, pidText] = started.stdout.trim().split('\n')
  if (started.status !== 0 || !address || !pidText) throw new Error(`dbus-daemon did not start: ${started.stderr}`)
  const busPid = Number(pidText)
  const env = { DBUS_SESSION_BUS_ADDRESS: address, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home }
  const keyring: ChildProcess = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'ignore', 'ignore'],
  })
  keyring.stdin?.end('test-keyring-password')
  const stop = () => {
    keyring.kill()
    try {
      process.kill(busPid)
    } catch {
      // already gone
    }
    rmSync(home, { recursive: true, force: true })
  }
  // Ready when the Secret Service's name is on the bus.
  for (let i = 0; i < 100; i += 1) {
    const asked = spawnSync(
      'dbus-send',
      [
        '--session',
        '--dest=org.freedesktop.DBus',
        '--type=method_call',
        '--print-reply',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner',
        'string:org.freedesktop.secrets',
      ],
      { env: { ...process.env, ...env }, encoding: 'utf8' },
    )
    if (asked.stdout.includes('boolean true')) return { env, stop }
    await sleep(50)
  }
  stop()
  throw new Error('gnome-keyring-daemon did not take the Secret Service name on the private bus')
}

/** No bus at this address: the keychain cannot be reached. */
export const NO_BUS = 'unix:path=/nonexistent/payfac-test-bus'

/**
 * The environment of a credential test: its own config folder, no credential, base URL, profile
 * or credential command from the shell, and no keychain unless `extra` names a bus.
 */
export function credentialEnv(configDir: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PAYFAC_CONFIG_DIR: configDir,
    PAYFAC_API_KEY: undefined,
    PAYFAC_BASE_URL: undefined,
    PAYFAC_PROFILE: undefined,
    PAYFAC_CREDENTIAL_COMMAND: undefined,
    PAYFAC_CREDENTIAL_TIMEOUT: undefined,
    DBUS_SESSION_BUS_ADDRESS: NO_BUS,
    ...extra,
  }
}
