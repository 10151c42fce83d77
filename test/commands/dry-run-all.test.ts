// --dry-run sends nothing that changes anything, for every command: the table is the manifest
// itself (every command with the API flags, every example of its help that runs without a file,
// stdin or a shell redirection), so a new command cannot skip it. Each example runs with
// --dry-run against a recording server that answers every read 404.
//
// For every run: no POST, PATCH, PUT or DELETE reached the server. And for every command, one
// of its examples either printed the request it would send (a command that changes something)
// or reached the server with reads only (a command that only reads): a command whose examples
// do neither proves nothing and fails here, naming it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { useRecordingServer } from '../helpers/command-harness.js'
import { exampleArgv, examplesOf, isApiCommand, manifestCommands } from '../helpers/manifest-examples.js'

const FILES = mkdtempSync(join(tmpdir(), 'payfac-dry-run-'))
afterAll(() => rmSync(FILES, { recursive: true, force: true }))

/** API commands that only read the local settings (they have --profile, but send no request; emulator open prints the inspector's URL). */
// The journal commands read the operation journal only (exit 5 for a record that is not there, 2
// for `journal init` without a shared journal): what they prove is that nothing reached the server.
const NEVER_SENDS = new Set(['whoami', 'emulator:open', 'journal:list', 'journal:show', 'journal:init'])

/**
 * `mcp` serves on stdin until its client goes away, and refuses --dry-run (exit 2) before it
 * serves: its previews are dry runs of the commands walked here (test/commands/mcp.test.ts).
 */
const NOT_WALKED = new Set(['mcp'])

const commands = manifestCommands()
  .filter((c) => isApiCommand(c) && !NOT_WALKED.has(c.id))
  .map((c) => {
    const runnable = examplesOf(c)
      .map((example) => exampleArgv(example, FILES))
      .filter((argv): argv is string[] => argv !== undefined)
    return { id: c.id, runnable, hasDryRun: 'dry-run' in c.flags }
  })
  .sort((a, b) => a.id.localeCompare(b.id))

const { server, cli } = useRecordingServer(() => ({ status: 404, body: { statusCode: 404, errorCode: 'not_found', message: 'Not here' } }))

describe('--dry-run, on every command of the manifest', () => {
  it('finds the API commands, each with --dry-run', () => {
    expect(commands.length).toBeGreaterThan(80)
    expect(commands.filter((c) => !c.hasDryRun).map((c) => c.id)).toEqual([])
  })

  it.each(commands.map((c) => [c.id, c.runnable] as const))('%s sends nothing that changes anything', async (id, runnable) => {
    expect(runnable.length, `${id} has no example that runs without a file, stdin or a redirection`).toBeGreaterThan(0)
    let proved = false
    const outcomes: string[] = []
    for (const argv of runnable) {
      server.requests.length = 0
      const result = await cli(...argv, '--dry-run')
      const changing = server.requests.filter((r) => r.method !== 'GET')
      expect(
        changing.map((r) => `${r.method} ${r.path}`),
        `${argv.join(' ')} --dry-run sent a change`,
      ).toEqual([])
      const printed = result.code === 0 && result.stdout.trim().startsWith('{') && JSON.parse(result.stdout).dryRun === true
      const readOnly = server.requests.length > 0
      if (printed) {
        const { request } = JSON.parse(result.stdout)
        expect(request.method).not.toBe('GET')
        expect(request.url).toMatch(/^https?:\/\//)
        expect(JSON.stringify(request.headers)).not.toContain('sandbox_sk_cmdTestKey')
      }
      // whoami only shows the settings in force: it never sends anything, and that is its proof.
      const sendsNothing = NEVER_SENDS.has(id) && [0, 2, 5].includes(result.code) && server.requests.length === 0
      proved ||= printed || readOnly || sendsNothing
      outcomes.push(`${argv.join(' ')} → exit ${result.code}: ${result.stderr.split('\n')[0]}`)
    }
    expect(proved, `no example of ${id} printed a dry-run request or reached the server:\n${outcomes.join('\n')}`).toBe(true)
  })
})
