// `payfac mcp` from its flags: the settings it starts with (the command resolved them as every
// command does), the flags every command it runs gets (the profile it started on, pinned, and the
// context the person gave), and a way to resolve the settings again, so that a change of the
// active profile or of its base URL while it serves refuses every change instead of moving money
// somewhere else.
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

import type { PayfacClient } from '../client/client.js'
import type { ResolvedSettings } from '../config/resolve.js'
import type { Resolved } from './server.js'
import { flag } from './tools.js'

export interface StartFlags {
  profile?: string | undefined
  'base-url'?: string | undefined
  'merchant-id'?: string | undefined
  'marketplace-id'?: string | undefined
  'customer-id'?: string | undefined
  timeout?: string | undefined
  'allow-writes'?: string | undefined
  'read-only'?: boolean | undefined
}

export interface StartInput {
  flags: StartFlags
  settings: ResolvedSettings
  client: PayfacClient
  /** The package root and version (oclif's config). */
  root: string
  version: string
}

/** The global flags of every command the server runs. */
export function globalsFor(flags: StartFlags, settings: ResolvedSettings): string[] {
  // A profile chosen by --profile or as the store's active one is pinned: `profiles use` while
  // the server runs must not move its calls to another profile.
  const pinned = settings.profileName && (settings.source === 'flag' || settings.source === 'active') ? settings.profileName : undefined
  return [
    ...flag('profile', pinned),
    ...flag('base-url', flags['base-url']),
    ...flag('merchant-id', flags['merchant-id']),
    ...flag('marketplace-id', flags['marketplace-id']),
    ...flag('customer-id', flags['customer-id']),
    ...flag('timeout', flags.timeout),
  ]
}

async function resolveInput(flags: StartFlags) {
  const [{ ProfileStore }, { pendingSecret, resolveSettings }] = await Promise.all([import('../config/store.js'), import('../config/resolve.js')])
  const input = {
    flags: {
      profile: flags.profile,
      baseUrl: flags['base-url'],
      merchantId: flags['merchant-id'],
      marketplaceId: flags['marketplace-id'],
      customerId: flags['customer-id'],
    },
    env: process.env,
    store: new ProfileStore(),
  }
  return { input, pending: pendingSecret(input), resolveSettings }
}

function credentialSource(pending: { store: string; command?: string } | undefined, settings: ResolvedSettings): string {
  return pending?.store === 'command' ? `command ${pending.command}` : `key ${settings.credential}`
}

/** The settings as the same flags resolve them now (as ApiCommand does: the store, then the credential's own store). */
export async function resolveNow(flags: StartFlags): Promise<Resolved> {
  const { input, pending, resolveSettings } = await resolveInput(flags)
  const revealed = pending ? await (await import('../config/secrets.js')).revealSecret(pending) : undefined
  const settings = resolveSettings({ ...input, revealed })
  return { settings, credentialSource: credentialSource(pending, settings) }
}

export async function startMcp(input: StartInput): Promise<void> {
  const { serveMcp } = await import('./server.js')
  if (process.stdin.isTTY) {
    process.stderr.write('payfac mcp speaks the Model Context Protocol on stdin and stdout: add it to an MCP client (docs/mcp.md). Ctrl-D ends it.\n')
  }
  const { pending } = await resolveInput(input.flags)
  await serveMcp({
    binUrl: pathToFileURL(join(input.root, 'bin/run.js')).href,
    root: input.root,
    version: input.version,
    settings: input.settings,
    credentialSource: credentialSource(pending, input.settings),
    resolveNow: () => resolveNow(input.flags),
    client: input.client,
    globals: globalsFor(input.flags, input.settings),
    allowProductionWrites: input.flags['allow-writes'] === 'production',
    readOnly: input.flags['read-only'] === true,
  })
}
