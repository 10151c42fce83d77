// Opening a URL in the user's default browser (`payfac emulator open`), only where there is one:
// a terminal on macOS or Windows, or a desktop session (DISPLAY, WAYLAND_DISPLAY) or $BROWSER on
// other systems. Otherwise, or when the opener cannot start or fails, the caller prints the URL alone.
//
// The opener runs in a process group of its own, with payfac's environment less every PAYFAC_
// variable (a key, a webhook secret, the emulator's token: nothing a browser needs), and no stdio
// of payfac's. payfac waits up to OPENER_WAIT_MS for it to hand the URL over and exit (xdg-open,
// open and start do), and says whether it succeeded. If payfac is stopped while it waits, the
// opener's group is ended with it (config/child-group.ts). One still running after the wait is
// the browser itself ($BROWSER naming a browser that stays in the foreground): it is left running,
// as the person asked for a browser, with none of payfac's secrets.
import { spawn } from 'node:child_process'

import { trackChild } from '../../config/child-group.js'

/** How long payfac waits for the opener to exit. */
export const OPENER_WAIT_MS = 5000

/** The opener's environment: `env` without any PAYFAC_ variable. */
export function openerEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !/^PAYFAC_/i.test(name)) out[name] = value
  return out
}

/** The program (and its leading arguments) that opens a URL here; undefined when there is none. */
export function browserOpener(platform: NodeJS.Platform, env: Record<string, string | undefined>): [string, string[]] | undefined {
  const chosen = env.BROWSER?.trim()
  if (chosen) return [chosen, []]
  if (platform === 'darwin') return ['open', []]
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""']]
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return ['xdg-open', []]
  return undefined
}

/** The inspector's URL on an emulator's base URL, in a namespace. */
export function inspectorUrl(baseUrl: string, namespace: string | undefined): string {
  const url = new URL('/__emulator/ui', baseUrl)
  if (namespace && namespace !== 'default') url.searchParams.set('namespace', namespace)
  return url.toString()
}

/** Starts the opener and waits for it (see above); true once it handed the URL over (or still runs as the browser), false when there is none or it failed. */
export function openUrl(
  url: string,
  interactive: boolean,
  platform = process.platform,
  env: Record<string, string | undefined> = process.env,
): Promise<boolean> {
  const opener = interactive ? browserOpener(platform, env) : undefined
  if (!opener) return Promise.resolve(false)
  return new Promise((resolve) => {
    const child = spawn(opener[0], [...opener[1], url], { detached: true, stdio: 'ignore', env: openerEnv(env), windowsHide: true })
    const tracked = trackChild(child, platform !== 'win32')
    let timer: NodeJS.Timeout | undefined
    const done = (opened: boolean) => {
      clearTimeout(timer)
      tracked.settle()
      child.unref()
      resolve(opened)
    }
    child.once('error', () => done(false))
    child.once('exit', (code) => done(code === 0))
    child.once('spawn', () => {
      timer = setTimeout(() => done(true), OPENER_WAIT_MS)
    })
  })
}
