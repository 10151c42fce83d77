// Every command tells a person what it does and shows how to use it: a summary and at least two
// examples, read from oclif.manifest.json (made by `npm run build`); every topic has a
// description in package.json, and every topic a command sits in is registered there.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')

interface ManifestCommand {
  id: string
  summary?: string
  examples?: Array<string | { command: string }>
  hidden?: boolean
}

function manifest(): Record<string, ManifestCommand> {
  const file = resolve(ROOT, 'oclif.manifest.json')
  if (!existsSync(file)) throw new Error('oclif.manifest.json is missing: run `npm run build` first')
  return (JSON.parse(readFileSync(file, 'utf8')) as { commands: Record<string, ManifestCommand> }).commands
}

const topics: Record<string, { description?: string }> = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).oclif.topics ?? {}

describe('command help', () => {
  const commands = Object.values(manifest()).filter((c) => !c.hidden)

  it('finds the commands', () => {
    expect(commands.length).toBeGreaterThan(0)
  })

  it('gives every command a summary', () => {
    const without = commands.filter((c) => !c.summary?.trim()).map((c) => c.id)
    expect(without, `commands without a summary: ${without.join(', ')}`).toEqual([])
  })

  it('gives every command at least two examples', () => {
    const few = commands.filter((c) => (c.examples?.length ?? 0) < 2).map((c) => `${c.id} (${c.examples?.length ?? 0})`)
    expect(few, `commands with fewer than two examples: ${few.join(', ')}`).toEqual([])
  })

  it('writes examples that run the command itself', () => {
    const wrong = commands.flatMap((c) =>
      (c.examples ?? [])
        .map((e) => (typeof e === 'string' ? e : e.command))
        .filter((text) => !text.includes(`<%= config.bin %> ${c.id.replace(/:/g, ' ')}`))
        .map((text) => `${c.id}: ${text}`),
    )
    expect(wrong, `examples that do not run "<%= config.bin %> <command>":\n${wrong.join('\n')}`).toEqual([])
  })
})

describe('topics', () => {
  it('gives every topic in package.json a description', () => {
    const without = Object.entries(topics)
      .filter(([, topic]) => !topic.description?.trim())
      .map(([name]) => name)
    expect(without).toEqual([])
  })

  it('registers every topic a command sits in', () => {
    const needed = new Set(
      Object.keys(manifest()).flatMap((id) => {
        const parts = id.split(':')
        return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join(':'))
      }),
    )
    const missing = [...needed].filter((name) => !topics[name]).sort()
    expect(missing, `topics used by commands but missing from package.json oclif.topics: ${missing.join(', ')}`).toEqual([])
  })
})
