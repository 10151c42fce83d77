// One tool per operation of the contract, made from the operation table (src/client/openapi/
// operations.ts), the one source the CLI's client, the OpenAPI document and the emulator share:
// the tool's name is the operationId, its description the operation's summary and notes, its
// arguments the path parameters, the query parameters and the body, each with the table's own
// zod schema. Reads are answered here (reads.ts); changes name the payfac command that sends them
// (write-commands.ts), which the server runs with a preview first.
import { z } from 'zod'

import { operations } from '../client/openapi/operations.js'
import type { Operation } from '../client/openapi/operation-types.js'
import { ACTIONS, AnyObject } from '../client/schemas/index.js'
import { readOperation } from './reads.js'
import { DEFAULT_MAX_RECORDS, MOST_RECORDS, type Tool, idArgument } from './tools.js'
import { WITHHELD, WRITE_COMMANDS, WRITE_FACTS } from './write-commands.js'

/** The CLI topic of an operation, from the client method that sends it (`transactions.payouts.list` → payouts). */
export function groupOf(op: Operation): string {
  const [first, second] = (op.client[0] ?? '').split('.')
  if (first === 'transactions' && second && ['payouts', 'invoices', 'settlement', 'refunds', 'disputes'].includes(second)) return second
  if (first === 'simulation') return 'simulate'
  return first ?? 'api'
}

function pathNames(op: Operation): string[] {
  return [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string)
}

/** The body's schema: a single-key envelope (one variant per action), a plain JSON body, or a file upload's fields. */
function bodySchema(op: Operation): z.ZodType | undefined {
  const body = op.body
  if (!body) return undefined
  if ('json' in body) return body.json
  if ('multipart' in body) return undefined
  const kinds = ACTIONS[body.envelope]
  if (kinds === '*') {
    return z
      .record(z.string().regex(/^[A-Z]\w*$/), AnyObject)
      .refine((value) => Object.keys(value).length === 1, { error: 'exactly one key: the action' })
      .describe('A single-key envelope: the action name (not shown by the contract) holding its fields.')
  }
  const variants = Object.entries(kinds).map(([kind, schema]) => z.strictObject({ [kind]: schema as z.ZodType }))
  return z.union(variants as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]).describe('A single-key envelope: the key names the action or variant.')
}

/** The arguments of an operation's tool. */
export function inputOf(op: Operation): z.ZodObject {
  const shape: Record<string, z.ZodType> = {}
  for (const name of pathNames(op)) shape[name] = idArgument(`${name} (path)`)
  for (const [name, param] of Object.entries(op.query ?? {})) {
    if (op.list && (name === 'limit' || name === 'page')) continue
    const schema = param.description ? param.schema.describe(param.description) : param.schema
    shape[name] = param.required ? schema : schema.optional()
  }
  if (op.list) {
    shape.maxRecords = z
      .number()
      .int()
      .min(1)
      .max(MOST_RECORDS)
      .optional()
      .describe(`Walk pages until this many records (default ${DEFAULT_MAX_RECORDS}, at most ${MOST_RECORDS}); the answer says when there are more.`)
  }
  if (op.body && 'multipart' in op.body) {
    shape.path = z.string().min(1).describe('The local file to upload: a JPEG, PNG or PDF of at most 10 MB.')
    shape.purpose = z.string().optional().describe('What the document is (the form field `purpose`).')
    shape.field = z.array(z.string()).optional().describe('Further form fields as name=value.')
  }
  const body = bodySchema(op)
  if (body) shape.body = body
  return z.strictObject(shape)
}

function describe(op: Operation, write: boolean): string {
  const parts = [`${op.summary}.`, op.notes, op.maturity ? `Maturity: ${op.maturity}.` : undefined, `Sends ${op.method} ${op.path}.`]
  if (op.list) parts.push(`Walks the pages for you, up to maxRecords (default ${DEFAULT_MAX_RECORDS}).`)
  if (write) {
    parts.push(
      'Changes something: call it first without confirmationToken for a preview (nothing is sent; you get a confirmation token), show the preview to the person, ' +
        'then call it again with the same arguments and that token. It runs the payfac command with every guard payfac keeps (journal, repeat checks, production guard).',
    )
  }
  return parts.filter(Boolean).join(' ')
}

/** The tools of every operation of the table, but those WITHHELD. */
export function operationTools(): Tool[] {
  const tools: Tool[] = []
  for (const op of operations()) {
    if (WITHHELD[op.operationId]) continue
    const base = {
      name: op.operationId,
      group: groupOf(op),
      title: `${groupOf(op)}: ${op.summary}`,
      operations: [op.operationId],
      input: inputOf(op),
    }
    if (op.method === 'GET') {
      tools.push({ ...base, kind: 'read', description: describe(op, false), read: (args, ctx) => readOperation(op, args, ctx.client) })
      continue
    }
    const command = WRITE_COMMANDS[op.operationId]
    if (!command) throw new Error(`No payfac command is known for ${op.operationId}`)
    const facts = WRITE_FACTS[op.operationId]
    tools.push({ ...base, kind: 'write', description: describe(op, true), command: async (args, ctx) => command(args, ctx), ...(facts ? { facts } : {}) })
  }
  return tools
}
