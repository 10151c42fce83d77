import { describe, expect, it } from 'vitest'

import { inertText } from '../../src/cli/files/download.js'

async function collect(chunks: Array<Buffer | string>): Promise<string> {
  let text = ''
  for await (const piece of inertText(
    (async function* () {
      yield* chunks
    })(),
  ))
    text += piece
  return text
}

describe('a streamed report shown on a terminal', () => {
  it('shows CRLF as line breaks, also when a chunk ends between CR and LF', async () => {
    expect(await collect([Buffer.from('a,b\r'), Buffer.from('\n1,2\r\n')])).toBe('a,b\n1,2\n')
  })

  it('makes escape sequences and bidi controls visible, and keeps a letter split across chunks whole', async () => {
    const euro = Buffer.from('€')
    const text = await collect([Buffer.from('x,\u001b]52;c;aGk=\u0007,'), euro.subarray(0, 1), Buffer.concat([euro.subarray(1), Buffer.from('\u202e\n')])])
    expect(text).toBe('x,\\u001b]52;c;aGk=\\u0007,€\\u202e\n')
  })

  it('shows a lone CR that is not part of a line end', async () => {
    expect(await collect(['ok\rFAKE\n', 'end\r'])).toBe('ok\\rFAKE\nend\\r')
  })
})
