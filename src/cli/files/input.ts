// Reading what the user hands us beyond flags: `--data` bodies from text, a file or stdin.
import { readFile } from 'node:fs/promises'

import { UsageError } from '../errors/index.js'

/** Reads all of stdin as text. */
export async function readStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}

/** The text of a `--data` value: itself, the file after `@`, or stdin for `-`. */
export async function readDataText(value: string, flag = '--data'): Promise<string> {
  if (value === '-') {
    if (process.stdin.isTTY) throw new UsageError(`${flag} - reads stdin, but stdin is a terminal`, 'Pipe the JSON in, or use @file')
    return readStdin()
  }
  if (value.startsWith('@')) {
    const path = value.slice(1)
    try {
      return await readFile(path, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      throw new UsageError(`${flag}: cannot read ${path} (${code ?? 'error'})`, 'Check the file path after @')
    }
  }
  return value
}

/** Parses a `--data` value as JSON, refusing anything that is not valid JSON. */
export async function readData(value: string, flag = '--data'): Promise<unknown> {
  const text = await readDataText(value, flag)
  try {
    return JSON.parse(text)
  } catch (error) {
    // V8 quotes the start of the text, which may hold a card number or a secret: left out.
    const reason = error instanceof SyntaxError ? error.message.replace(/, ".*" is not valid JSON$/s, '') : 'invalid JSON'
    throw new UsageError(`${flag} is not valid JSON: ${reason}`, 'Quote the JSON in single quotes, or pass @file')
  }
}

/** Like readData, but the body must be a JSON object. */
export async function readDataObject(value: string, flag = '--data'): Promise<Record<string, unknown>> {
  const data = await readData(value, flag)
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${flag} must be a JSON object`)
  return data as Record<string, unknown>
}
