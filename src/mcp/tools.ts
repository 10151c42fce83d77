// What a tool of the MCP server is. A read tool answers itself (through the client, or by running
// a read command); a write tool only says which payfac command line sends it, and the server
// (server.ts) runs that line twice: with --dry-run for the preview, then for real with the
// confirmation token. Tools are built from the operation table (operation-tools.ts) and a few
// whole flows (flow-tools.ts).
import { z } from 'zod'

import type { PayfacClient } from '../client/client.js'
import type { CommandRun } from './runner.js'
import type { ToolResult } from './marking.js'

/** The most records a list tool returns unless asked for more, and the most it will ever return. */
export const DEFAULT_MAX_RECORDS = 100
export const MOST_RECORDS = 10_000

export interface ToolContext {
  client: PayfacClient
  /** Runs a payfac command line (without the global flags, which the server adds) and returns what it printed. */
  run(argv: string[]): Promise<CommandRun>
}

interface ToolBase {
  name: string
  /** The CLI topic it belongs to (orders, transactions, payouts …). */
  group: string
  title: string
  description: string
  /** The contract's operations it may send (operationId). */
  operations: readonly string[]
  /** The arguments, strict: an argument the tool does not know is refused. */
  input: z.ZodObject
}

export interface ReadTool extends ToolBase {
  kind: 'read'
  read(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>
}

/** The first change a preview's dry run would send. */
export interface PreviewRequest {
  method?: string
  url?: string
  body?: unknown
}

export interface WriteTool extends ToolBase {
  kind: 'write'
  /** The payfac command line that sends it (without global flags, --json, --dry-run or --yes). */
  command(args: Record<string, unknown>, ctx: ToolContext): Promise<string[]>
  /**
   * For a command that decides at run time what it sends (the whole available balance: how much
   * that is): the command line that sends exactly what the preview's dry run showed, run when it
   * is confirmed; undefined when the request does not say, and then no token is issued.
   */
  pin?(argv: string[], request: PreviewRequest): string[] | undefined
  /**
   * What the change depends on besides its arguments (the file an upload names: its size and
   * digest), taken at the preview and again when it is confirmed: a confirmation whose facts
   * changed is refused.
   */
  facts?(args: Record<string, unknown>): Promise<unknown>
}

export type Tool = ReadTool | WriteTool

/**
 * An id as the service writes them (`ordr_ZqCNoNcm_22WeZ-j`): letters, digits, `_` and `-`, not
 * starting with `-`, so that it can never be read as a flag or leave its place in a path.
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

export function idArgument(what: string): z.ZodString {
  return z
    .string()
    .regex(ID_PATTERN, { error: `${what}: letters, digits, _ and - only, as the service writes ids` })
    .describe(what)
}

/** A value given to a command as `--flag=value`: one word, whatever it holds, never a second flag. */
export function flag(name: string, value: unknown): string[] {
  if (value === undefined || value === null || value === false) return []
  if (value === true) return [`--${name}`]
  if (Array.isArray(value)) return value.flatMap((item) => flag(name, item))
  return [`--${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`]
}

/** A positional argument: refused when it could be read as a flag. */
export function positional(value: unknown, what: string): string {
  const text = String(value)
  if (text === '' || text.startsWith('-')) throw new ToolInputError(`${what} must not be empty or start with "-"`)
  return text
}

/** A request body for `--data`: always a JSON object or array, never `@file` or `-` (stdin). */
export function data(body: unknown): string {
  if (!body || typeof body !== 'object') throw new ToolInputError('The body must be a JSON object')
  return `--data=${JSON.stringify(body)}`
}

/** An argument the tool cannot turn into a command line: the call's fault, said to the assistant. */
export class ToolInputError extends Error {
  override name = 'ToolInputError'
}

/** The single key of an envelope and its value. */
export function envelopeOf(body: unknown): [string, Record<string, unknown>] {
  const entries = Object.entries((body ?? {}) as Record<string, unknown>)
  const [kind, value] = entries[0] ?? []
  if (entries.length !== 1 || !kind || !value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ToolInputError('The body must be an envelope: one key naming the action, holding an object')
  }
  return [kind, value as Record<string, unknown>]
}
