// What --data and --from-file text may hold: never quoted back, always UTF-8 (the spawned cases
// of the same work: test/e2e/unending-inputs-and-signals.test.ts):
// - a `--data` that is not JSON was refused with V8's message, which quotes the text around the
//   fault ("Unexpected token 'x', ..."11","cvv":x}" is not valid JSON"): a card number or a
//   secret in the body reached stderr; only the shortest form of that quote was left out;
// - bytes that are not UTF-8 in a `--from-file` row or a `--data @FILE` body were decoded as
//   U+FFFD and sent: a reference `ref\xff` went out as `ref\ufffd`, the same as `ref\xfe`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { openSource, readRows } from '../../src/cli/bulk/reader.js'
import { readData } from '../../src/cli/files/input.js'

let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'payfac-unit-hostile-adversary-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

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

describe('bytes that are not UTF-8', () => {
  const file = (name: string, bytes: Buffer) => {
    const path = join(work, name)
    writeFileSync(path, bytes)
    return path
  }
  const rows = async (path: string) => {
    const source = await openSource(path)
    const got: unknown[] = []
    for await (const row of readRows(source).rows) got.push(row.values)
    return got
  }

  it.each([
    ['a CSV row', 'rows.csv', ['amount,reference\n1.00,ok\n', '1.00,ref', '\xff', '1\n'], 3],
    ['a JSON Lines row', 'rows.jsonl', ['{"amount":"1.00","reference":"ok"}\n', '{"amount":"1.00","reference":"ref', '\xc3', '"}\n'], 2],
    ['a character cut short at the end', 'cut.csv', ['amount,reference\n1.00,ok\n', '1.00,r\xe2\x82', '', ''], 3],
    ['a surrogate written as UTF-8', 'surrogate.csv', ['amount,reference\n1.00,ok\n', '1.00,r', '\xed\xa0\x80', '\n'], 3],
  ] as const)('in --from-file (%s): exit 2 naming the line, never sent as U+FFFD', async (_name, name, [head, before, bad, after], line) => {
    const path = file(name, Buffer.concat([Buffer.from(head), Buffer.from(before, 'latin1'), Buffer.from(bad, 'latin1'), Buffer.from(after, 'latin1')]))
    await expect(rows(path)).rejects.toThrow(new RegExp(`^--from-file .*${name.replace('.', '\\.')} line ${line}: bytes that are not UTF-8 text`))
  })

  it('in --from-file: UTF-8 of every length is read, a character split across chunks too', async () => {
    const text = `amount,reference\n${Array.from({ length: 40_000 }, (_, i) => `1.00,r${i}-é€😀`).join('\n')}\n`
    const got = await rows(file('good.csv', Buffer.from(text)))
    expect(got).toHaveLength(40_000)
    expect(got[39_999]).toEqual({ amount: '1.00', reference: 'r39999-é€😀' })
  })

  it('in --data @FILE: exit 2, never sent as U+FFFD', async () => {
    const path = file('body.json', Buffer.concat([Buffer.from('{"reference":"ref'), Buffer.from([0xff]), Buffer.from('1"}')]))
    await expect(readData(`@${path}`)).rejects.toThrow(/^--data: .*body\.json is not UTF-8 text \(byte 17\)/)
    expect(await readData(`@${file('good.json', Buffer.from('{"reference":"café €"}'))}`)).toEqual({ reference: 'café €' })
  })
})
