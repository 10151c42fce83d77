// Opening a URL in the user's default browser (`payfac emulator open`), only where there is one:
// a terminal on macOS or Windows, or a desktop session (DISPLAY, WAYLAND_DISPLAY) or $BROWSER on
// other systems. Otherwise, or when the opener cannot start, the caller prints the URL alone.
import { spawn } from 'node:child_process'

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

/** Starts the opener, detached; true once it started, false when there is none or it could not start. */
export function openUrl(
  url: string,
  interactive: boolean,
  platform = process.platform,
  env: Record<string, string | undefined> = process.env,
): Promise<boolean> {
  const opener = interactive ? browserOpener(platform, env) : undefined
  if (!opener) return Promise.resolve(false)
  return new Promise((resolve) => {
    const child = spawn(opener[0], [...opener[1], url], { detached: true, stdio: 'ignore' })
    child.once('error', () => resolve(false))
    child.once('spawn', () => {
      child.unref()
      resolve(true)
    })
  })
}
