// The commands of oclif.manifest.json (written by `npm run build`) and the examples of their
// help as argv, for tests that walk every command (dry-run-all, production-guard-all).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'

const ROOT = resolve(__dirname, '../..')

export interface ManifestCommand {
  id: string
  flags: Record<string, unknown>
  examples?: Array<string | { command: string }>
}

export function manifestCommands(): ManifestCommand[] {
  const file = resolve(ROOT, 'oclif.manifest.json')
  if (!existsSync(file)) throw new Error('oclif.manifest.json is missing: run `npm run build` first')
  return Object.values((JSON.parse(readFileSync(file, 'utf8')) as { commands: Record<string, ManifestCommand> }).commands)
}

/** A command that calls the service: it has the global API flags (--profile, --debug). */
export function isApiCommand(c: ManifestCommand): boolean {
  return 'profile' in c.flags && 'debug' in c.flags
}

/** The examples of a command as written in its help. */
export function examplesOf(c: ManifestCommand): string[] {
  return (c.examples ?? []).map((e) => (typeof e === 'string' ? e : e.command))
}

/**
 * Shell words of an example, or undefined when it needs a file, stdin, a pipe, a redirection or
 * a variable. A local file it names (`./licence.pdf`) is made in `files` so the example can run.
 */
export function exampleArgv(example: string, files: string): string[] | undefined {
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
  return words.map((w) => (w.startsWith('./') ? localFile(files, w) : w))
}

function localFile(files: string, word: string): string {
  const file = join(files, basename(word))
  if (!existsSync(file)) writeFileSync(file, word.endsWith('.pdf') ? '%PDF-1.4\n%%EOF\n' : 'example file\n')
  return file
}
