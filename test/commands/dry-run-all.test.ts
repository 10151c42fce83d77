// --dry-run sends nothing that changes anything, for every command: the table is the manifest
// itself (every command with the API flags, every example of its help that runs without a file,
// stdin or a shell redirection), so a new command cannot skip it. Each example runs with
// --dry-run against a recording server that answers every read 404.
//
// For every run: no POST, PATCH, PUT or DELETE reached the server. And for every command, one
// of its examples either printed the request it would send (a command that changes something)
// or reached the server with reads only (a command that only reads): a command whose examples
// do neither proves nothing and fails here, naming it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { useRecordingServer } from '../helpers/command-harness.js'

const ROOT = resolve(__dirname, '../..')

interface ManifestCommand {
  id: string
  flags: Record<string, unknown>
  examples?: Array<string | { command: string }>
}

function manifest(): ManifestCommand[] {
  const file = resolve(ROOT, 'oclif.manifest.json')
  if (!existsSync(file)) throw new Error('oclif.manifest.json is missing: run `npm run build` first')
  return Object.values((JSON.parse(readFileSync(file, 'utf8')) as { commands: Record<string, ManifestCommand> }).commands)
}

/** A command that calls the service: it has the global API flags (--profile, --debug). */
function isApiCommand(c: ManifestCommand): boolean {
  return 'profile' in c.flags && 'debug' in c.flags
}

/** A local file an example names (`./licence.pdf`), made in a temporary folder so the example can run. */
function localFile(word: string): string {
  const file = join(FILES, basename(word))
  if (!existsSync(file)) writeFileSync(file, word.endsWith('.pdf') ? '%PDF-1.4\n%%EOF\n' : 'example file\n')
  return file
}

const FILES = mkdtempSync(join(tmpdir(), 'payfac-dry-run-'))
afterAll(() => rmSync(FILES, { recursive: true, force: true }))

/** Shell words of an example, or undefined when it needs a file, stdin, a pipe, a redirection or a variable. */
function exampleArgv(example: string): string[] | undefined {
  const text = example.trim()
  if (!text.startsWith('<%= config.bin %> ')) return undefined
  const words: string[] = []
  let word = ''
  let quote: string | undefined
  let started = false
  for (const c of text.slice('<%= config.bin %> '.length)) {
    if (quote) {
      if (c === quote) quote = undefined
      else if (quote === '"' && c === '$') return undefined
      else word += c
    } else if (c === '"' || c === "'") {
      quote = c
      started = true
    } else if (/\s/.test(c)) {
      if (started) words.push(word)
      word = ''
      started = false
    } else {
      if ('|<>$;&`'.includes(c)) return undefined
      word += c
      started = true
    }
  }
  if (started) words.push(word)
  if (words.some((w) => w === '-' || w.startsWith('@'))) return undefined
  return words.map((w) => (w.startsWith('./') ? localFile(w) : w))
}

const commands = manifest()
  .filter((c) => isApiCommand(c))
  .map((c) => {
    const examples = (c.examples ?? []).map((e) => (typeof e === 'string' ? e : e.command))
    const runnable = examples.map(exampleArgv).filter((argv): argv is string[] => argv !== undefined)
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
      expect(changing.map((r) => `${r.method} ${r.path}`), `${argv.join(' ')} --dry-run sent a change`).toEqual([])
      const printed = result.code === 0 && result.stdout.trim().startsWith('{') && JSON.parse(result.stdout).dryRun === true
      const readOnly = server.requests.length > 0
      if (printed) {
        const { request } = JSON.parse(result.stdout)
        expect(request.method).not.toBe('GET')
        expect(request.url).toMatch(/^https?:\/\//)
        expect(JSON.stringify(request.headers)).not.toContain('sandbox_sk_cmdTestKey')
      }
      proved ||= printed || readOnly
      outcomes.push(`${argv.join(' ')} → exit ${result.code}: ${result.stderr.split('\n')[0]}`)
    }
    expect(proved, `no example of ${id} printed a dry-run request or reached the server:\n${outcomes.join('\n')}`).toBe(true)
  })
})
