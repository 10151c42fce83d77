// `payfac mcp` spawned as an MCP client spawns it (bin/run.js over stdio), with the SDK's own client
// connected to it: the real transport, so that what a command prints while a tool runs is shown
// never to reach the protocol's stream.
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

import { BIN } from './spawn-cli.js'

export interface McpSession {
  client: Client
  /** What the server wrote on stderr so far. */
  stderr(): string
  close(): Promise<void>
}

/**
 * `era`: the protocol revision the client opens with: the 2025 `initialize` handshake (the SDK
 * client's default, as most hosts still open), or 2026-07-28, which only the SDK's serveStdio
 * entry answers on stdio.
 */
export async function startMcp(args: string[], env: Record<string, string | undefined>, era: 'legacy' | 'modern' = 'legacy'): Promise<McpSession> {
  const clean: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined) clean[key] = value
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: clean, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const client = new Client({ name: 'payfac-tests', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined)
  await client.connect(transport)
  return { client, stderr: () => stderr, close: () => client.close() }
}

export interface ToolAnswer {
  text: string
  isError: boolean
}

/** A tool's answer as one text, and whether it is an error. */
export async function call(session: McpSession, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = (await session.client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean }
  return { text: result.content.map((c) => c.text ?? `[${c.type}]`).join('\n'), isError: result.isError === true }
}

/** The confirmation token a preview answered, or undefined. */
export function tokenOf(answer: ToolAnswer): string | undefined {
  return /confirmationToken "([^"]+)"/.exec(answer.text)?.[1]
}

/** The data between the markers of an answer, parsed. */
export function dataOf(answer: ToolAnswer): any {
  const match = /<service-data id="([0-9a-f]+)">\n([\s\S]*)\n<\/service-data id="\1">/.exec(answer.text)
  if (!match) throw new Error(`no data block in: ${answer.text.slice(0, 300)}`)
  return JSON.parse(match[2] as string)
}

/**
 * A repeat of a change already made: refused with exit 6, by the preview (a dry run that checks
 * the journal) or, when the preview gives a token, by the call with it. The refusal's answer.
 */
export async function repeatRefused(session: McpSession, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const preview = await call(session, name, args)
  const token = tokenOf(preview)
  const refused = token ? await call(session, name, { ...args, confirmationToken: token }) : preview
  if (!refused.isError || !/failed with exit 6/.test(refused.text))
    throw new Error(`${name}: the repeat was not refused with exit 6: ${refused.text.slice(0, 500)}`)
  return refused
}
