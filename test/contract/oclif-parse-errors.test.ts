// oclif's parse errors, made by oclif's own parser (`parse` of @oclif/core/parser, with flags and
// arguments defined as payfac's commands define them), come out in payfac's words with exit 2.
// src/cli/errors/usage-wording.ts tells these errors apart by oclif's English wording (oclif
// exports none of their classes) and reads the fields some of them carry: this is the canary that
// fails when an oclif upgrade words one of them differently or drops one of those fields.
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import { parse } from '@oclif/core/parser'
import { describe, expect, it } from 'vitest'

import { describeError } from '../../src/cli/errors/exit-codes.js'
import { rewordParseError } from '../../src/cli/errors/usage-wording.js'

type Input = Parameters<typeof parse>[1]

/** The error oclif's parser throws for `argv` against `input`; fails the test when it throws none. */
async function oclifError(argv: string[], input: Input): Promise<Error> {
  try {
    await parse(argv, input)
  } catch (error) {
    return error as Error
  }
  throw new Error(`oclif parsed ${JSON.stringify(argv)} without an error`)
}

const output = {
  json: Flags.boolean({ exclusive: ['csv'] }),
  csv: Flags.boolean({ exclusive: ['json'] }),
}
const money = {
  amount: Flags.string({ dependsOn: ['currency'] }),
  currency: Flags.string(),
}

const CASES: Array<[string, string[], Input, string]> = [
  ['two flags that exclude each other', ['--json', '--csv'], { flags: output }, 'use either --json or --csv, not both'],
  ['a required flag left out', [], { flags: { amount: Flags.string({ required: true }) } }, '--amount is required'],
  ['a flag without the flag it depends on', ['--amount', '1.00'], { flags: money }, '--amount needs --currency too'],
  [
    'none of flags of which exactly one is needed',
    [],
    { flags: { data: Flags.string({ exactlyOne: ['data', 'payto'] }), payto: Flags.boolean({ exactlyOne: ['data', 'payto'] }) } },
    'give exactly one of --data, --payto',
  ],
  [
    'two of flags of which exactly one is allowed',
    ['--data', '{}', '--payto'],
    { flags: { data: Flags.string({ exactlyOne: ['data', 'payto'] }), payto: Flags.boolean({ exactlyOne: ['data', 'payto'] }) } },
    'use either --payto or --data, not both',
  ],
  [
    'none of flags of which one at least is needed',
    [],
    { flags: { from: Flags.string({ atLeastOne: ['from', 'to'] }), to: Flags.string({ atLeastOne: ['from', 'to'] }) } },
    'give at least one of --from, --to',
  ],
  ['an argument too many', ['ordr_1', 'extra words'], { args: { id: Args.string() } }, 'unexpected argument extra words'],
  ['two arguments too many', ['a', 'b'], {}, 'unexpected argument a, b'],
  ['a required argument left out', [], { args: { id: Args.string({ required: true }) } }, 'the argument id is missing'],
  [
    'a flag value that is not one of its options',
    ['--status', 'bogus'],
    { flags: { status: Flags.string({ options: ['paid', 'failed'] }) } },
    '--status must be one of paid, failed (got "bogus")',
  ],
  ['an argument that is not one of its options', ['PUT'], { args: { method: Args.string({ options: ['GET', 'POST'] }) } }, '"PUT" must be one of GET, POST'],
  ['a whole number that is not one', ['--limit', 'x'], { flags: { limit: Flags.integer() } }, '--limit must be a whole number (got "x")'],
  ['an unknown flag near a known one', ['--ammount=5'], { flags: money }, 'unknown flag --ammount=5. Did you mean --amount?'],
  [
    'unknown flags, one near a known one',
    ['--jq', '.id', '--xyzzy'],
    { flags: { query: Flags.string() } },
    'unknown flag --jq, --xyzzy. Did you mean --query for --jq?',
  ],
]

describe("oclif's parse errors, made by oclif, in payfac's words", () => {
  it.each(CASES)('%s', async (_label, argv, input, said) => {
    const error = await oclifError(argv, input)
    expect(rewordParseError(error), `oclif now says: ${JSON.stringify(error.message)}`).toBe(said)
    const report = describeError(error)
    expect(report.code).toBe(2)
    expect(report.message).toBe(said)
    expect(report.json.type).toBe('UsageError')
  })

  it('takes what was typed from the fields oclif gives, not from its message', async () => {
    // An argument holding a line break: the message would end at it; the field holds it whole.
    const error = await oclifError(['ordr_1', 'one\ntwo'], { args: { id: Args.string() } })
    expect(rewordParseError(error)).toBe('unexpected argument one\ntwo')
    expect(describeError(error).message).toBe('unexpected argument one\ntwo')
    const missing = await oclifError([], { args: { 'order-id': Args.string({ required: true }) } })
    expect(rewordParseError(missing)).toBe('the argument order-id is missing')
  })
})
