// The payto topic against the emulator (rendered as JSON and as a table), what it sends, and its
// input rules (exit 2, nothing sent).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { type EmulatorEnv, startEmulatorEnv } from '../helpers/emulator-env.js'
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js'
import { runCommand } from '../helpers/run-command.js'

let ctx: EmulatorEnv
const payfac = (...argv: string[]) => runCommand(argv, { env: ctx.env })
const json = async (...argv: string[]) => {
  const result = await payfac(...argv, '--json')
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout)
}

beforeAll(async () => {
  ctx = await startEmulatorEnv()
})
afterAll(async () => ctx.close())

describe('payto against the emulator', () => {
  it('sends a one-off agreement by BBAN, then shows it Active once the customer approves', async () => {
    const sent = await json(
      'payto',
      'agree',
      '--name',
      'Jo Citizen',
      '--bban',
      '062-000 12345678',
      '--amount',
      '12.50',
      '--currency',
      'AUD',
      '--purpose',
      'Order inv-1001',
    )
    expect(sent).toMatchObject({ token: expect.any(String), status: 'Pending' })

    const table = await payfac('payto', 'status', sent.token)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(new RegExp(`Token\\s+${sent.token}`))
    expect(table.stdout).toMatch(/Status\s+Pending/)
    expect(table.stdout).toContain('12.50 AUD')

    expect((await payfac('simulate', 'AdvanceClock', '--seconds', '5')).code).toBe(0)
    const status = await json('payto', 'status', sent.token)
    expect(status).toMatchObject({ token: sent.token, status: 'Active' })
  })

  it('sends an open agreement to a phone alias and prints the token as a table', async () => {
    const result = await payfac('payto', 'agree', '--name', 'Jo Citizen', '--phone', '+61 412 345 678', '--open', '--purpose', 'Subscription')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/Token\s+\S+/)
    expect(result.stdout).toMatch(/Status\s+Pending/)
  })

  it.each([
    ['Phone', '+61412345678'],
    ['Email', 'jo@example.com'],
    ['ABN', '51 824 753 556'],
    ['ACN', '004 085 616'],
    ['ARBN', '010499966'],
    ['ARSN', '004085616'],
    ['OrgId', 'HARBOUR-TRADING'],
  ])('looks up a %s alias', async (type, value) => {
    const found = await json('payto', 'alias', value, '--type', type)
    expect(found.aliasType).toBe(type)
    expect(found.displayName).toEqual(expect.any(String))
    const table = await payfac('payto', 'alias', value, '--type', type)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(found.displayName)
  })

  it('an alias nobody owns is not found (exit 5)', async () => {
    const result = await payfac('payto', 'alias', '+61491570006', '--type', 'Phone')
    expect(result.code).toBe(5)
  })
})

describe('what payto commands send', () => {
  let server: RecordingServer
  let env: Record<string, string | undefined>
  beforeAll(async () => {
    server = await startRecordingServer(() => ({ body: { token: 'tok_1', status: 'Pending' } }))
    env = { ...ctx.env, PAYFAC_BASE_URL: server.url }
  })
  afterAll(async () => server.close())
  beforeEach(() => void server.requests.splice(0))

  it('builds the contract body: Bban and one-off terms in minor units', async () => {
    const result = await runCommand(
      ['payto', 'agree', '--name', ' Jo Citizen ', '--bban', '06200012345678', '--amount', '12.5', '--currency', 'aud', '--purpose', 'Order 1'],
      { env },
    )
    expect(result.code, result.stderr).toBe(0)
    expect(server.requests[0]?.json).toEqual({
      customerName: 'Jo Citizen',
      customerAccIdentifier: { Bban: { value: '062000 12345678' } },
      terms: { AgreementRequestTermsOneOff: { amount: { amount: 1250, currency: 'AUD' } } },
      purpose: 'Order 1',
    })
  })

  it.each([
    ['--abn', '51 824 753 556', 'ABN', '51824753556'],
    ['--acn', '004 085 616', 'ACN', '004085616'],
    ['--arbn', '010499966', 'ARBN', '010499966'],
    ['--arsn', '004085616', 'ARSN', '004085616'],
    ['--email', 'jo@example.com', 'Email', 'jo@example.com'],
    ['--phone', '+61 412-345-678', 'Phone', '+61412345678'],
    ['--org-id', 'HARBOUR', 'OrgId', 'HARBOUR'],
  ])('builds an Alias identifier from %s', async (flag, value, aliasType, sentValue) => {
    const result = await runCommand(['payto', 'agree', '--name', 'Jo', flag, value, '--open'], { env })
    expect(result.code, result.stderr).toBe(0)
    expect(server.requests[0]?.json).toEqual({
      customerName: 'Jo',
      customerAccIdentifier: { Alias: { aliasType, value: sentValue } },
      terms: { AgreementRequestTermsOpen: {} },
    })
  })

  it('looks an alias up by aliasType and value, and the status by token', async () => {
    expect((await runCommand(['payto', 'alias', '51 824 753 556', '--type', 'ABN'], { env })).code).toBe(0)
    expect((await runCommand(['payto', 'status', 'ptagr_Tok1Tok1Tok1Tok1'], { env })).code).toBe(0)
    const [alias, status] = server.requests
    expect(alias?.path).toBe('/payto/alias')
    expect(Object.fromEntries(alias?.query ?? [])).toEqual({ aliasType: 'ABN', value: '51824753556' })
    expect(status?.path).toBe('/payto/agreement')
    expect(status?.query.get('token')).toBe('ptagr_Tok1Tok1Tok1Tok1')
  })

  const agree = ['payto', 'agree', '--name', 'Jo']
  const cases: Array<[string, string[], RegExp]> = [
    ['no account identifier', [...agree, '--open'], /one of --bban/],
    [
      'two account identifiers',
      [...agree, '--bban', '062-000 12345678', '--phone', '+61412345678', '--open'],
      /use either --\S+ or --\S+, not both|exactly one/,
    ],
    ['no terms', [...agree, '--bban', '062-000 12345678'], /--open/],
    [
      'both one-off and open terms',
      [...agree, '--bban', '062-000 12345678', '--amount', '1', '--currency', 'AUD', '--open'],
      /use either --\S+ or --\S+, not both|exactly one/,
    ],
    ['an amount without a currency', [...agree, '--bban', '062-000 12345678', '--amount', '1'], /currency/],
    ['a currency without an amount', [...agree, '--bban', '062-000 12345678', '--currency', 'AUD'], /--amount/],
    ['too many decimal places', [...agree, '--bban', '062-000 12345678', '--amount', '1.005', '--currency', 'AUD'], /decimal/],
    ['a BSB of five digits', [...agree, '--bban', '06-2000 12345678', '--open'], /BSB|--bban/],
    ['an account number of four digits', [...agree, '--bban', '062-000 1234', '--open'], /--bban/],
    ['an ABN whose check sum fails', [...agree, '--abn', '51 824 753 557', '--open'], /not a valid ABN/],
    ['an ACN whose check digit fails', [...agree, '--acn', '004085617', '--open'], /not a valid ACN/],
    ['an ARBN whose check digit fails', [...agree, '--arbn', '004085617', '--open'], /not a valid ARBN/],
    ['an ARSN whose check digit fails', [...agree, '--arsn', '004085617', '--open'], /not a valid ARSN/],
    ['a phone number not in E.164', [...agree, '--phone', '0412 345 678', '--open'], /E\.164/],
    ['an e-mail address without @', [...agree, '--email', 'jo.example.com', '--open'], /e-mail/],
    ['a blank name', ['payto', 'agree', '--name', '  ', '--bban', '062-000 12345678', '--open'], /--name/],
    ['no name', ['payto', 'agree', '--bban', '062-000 12345678', '--open'], /name/],
    ['an alias without --type', ['payto', 'alias', '+61412345678'], /type/],
    ['an unknown alias type', ['payto', 'alias', '+61412345678', '--type', 'Mobile'], /type/],
    ['a phone alias that is not E.164', ['payto', 'alias', '0412345678', '--type', 'Phone'], /E\.164/],
    ['an ABN alias that fails its check sum', ['payto', 'alias', '51824753557', '--type', 'ABN'], /not a valid ABN/],
    ['an ACN alias that fails its check digit', ['payto', 'alias', '123456789', '--type', 'ACN'], /not a valid ACN/],
    ['an e-mail alias that is not one', ['payto', 'alias', 'jo', '--type', 'Email'], /e-mail/],
    ['an organisation id with spaces', ['payto', 'alias', 'Harbour Trading', '--type', 'OrgId'], /no spaces/],
    ['a blank status token', ['payto', 'status', ' '], /token/],
  ]

  it.each(cases)('%s exits 2 and sends nothing', async (_name, argv, message) => {
    const result = await runCommand(argv, { env })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(message)
    expect(server.requests).toHaveLength(0)
  })
})
