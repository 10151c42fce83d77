// The pure parts of what an attack on the hostile-input work (issue 35) found (the spawned ones:
// test/e2e/hostile-inputs-adversary.test.ts):
// - a `--data` that is not JSON was refused with V8's message, which quotes the text around the
//   fault ("Unexpected token 'x', ..."11","cvv":x}" is not valid JSON"): a card number or a
//   secret in the body reached stderr; only the shortest form of that quote was left out.
import { describe, expect, it } from 'vitest'

import { readData } from '../../src/cli/files/input.js'

describe('a --data that is not JSON', () => {
  it.each([
    ['the middle of a long body', '{"number":"4111111111111111","cvv":x}', /Unexpected token 'x'/],
    ['the start of a long body', 'x{"number":"4111111111111111"}', /Unexpected token 'x'/],
    ['a short body', '[x1111]', /Unexpected token 'x'/],
    ['a secret before the fault', '["sandbox_sk_secret000000000001", ~]', /Unexpected token '~'/],
  ])('says why, never quoting the body (%s)', async (_name, body, why) => {
    const error = (await readData(body).catch((e: Error) => e)) as Error
    expect(error.message).toMatch(/^--data is not valid JSON: /)
    expect(error.message).toMatch(why)
    expect(error.message).not.toMatch(/1111|0001|is not valid JSON$|\.\.\./)
  })
})
