// The cards topic against the emulator (rendered as JSON and as a table), and its input rules
// (exit 2, nothing sent).
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'

const { payfac, json } = useEmulator()

describe('cards against the emulator', () => {
  it('issues a card on a loan from flags, lists it, and administers it with --data', async () => {
    const [loan] = await json('loans', 'list')
    const card = await json('cards', 'create', '--cardholder-name', 'Sam Nguyen', '--card-limit', '2500', '--currency', 'AUD', '--loan', loan.loanId)
    expect(card).toMatchObject({ cardholderName: 'Sam Nguyen', limit: { minorCurrencyUnits: 250000, currency: 'AUD' }, loanId: loan.loanId, status: 'Active' })
    expect(JSON.stringify(card)).not.toMatch(/\d{12,}/)

    const table = await payfac('cards', 'create', '--cardholder-name', 'Alex Citizen', '--card-limit', '100.50', '--currency', 'AUD')
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('100.50 AUD')
    expect(table.stdout).toContain('Alex Citizen')

    const listed = await json('cards', 'list', '--all')
    expect(listed.map((c: { cardId: string }) => c.cardId)).toContain(card.cardId)
    const listTable = await payfac('cards', 'list')
    expect(listTable.code, listTable.stderr).toBe(0)
    expect(listTable.stdout).toContain(card.cardId)
    expect(listTable.stdout).toContain('2500.00 AUD')

    const suspended = await json('cards', 'create', '--data', JSON.stringify({ SuspendDigitalCard: { cardId: card.cardId } }))
    expect(suspended).toMatchObject({ cardId: card.cardId, status: 'Suspended' })
  })
})

describe('card input', () => {
  const recording = useRecordingServer(() => ({ body: { cardId: 'card_x' } }))
  const { cli, server } = recording

  it('sends IssueDigitalCard with the limit in minor units', async () => {
    const result = await cli('cards', 'create', '--cardholder-name', 'Sam', '--card-limit', '12.34', '--currency', 'aud', '--loan', 'loan_LocalTradeLoan01')
    expect(result.code, result.stderr).toBe(0)
    expect(server.requests[0]?.json).toEqual({
      IssueDigitalCard: { cardholderName: 'Sam', limit: { minorCurrencyUnits: 1234, currency: 'AUD' }, loanId: 'loan_LocalTradeLoan01' },
    })
  })

  it('warns on stderr about previous-generation field names in --data, and sends it as given', async () => {
    const result = await cli('cards', 'create', '--data', '{"IssueDigitalCard":{"firstName":"Sam"}}')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/firstName.*givenName/)
    expect(server.requests[0]?.json).toEqual({ IssueDigitalCard: { firstName: 'Sam' } })
  })

  const cases: RefusalCase[] = [
    ['no fields and no --data', ['cards', 'create'], /--cardholder-name/],
    ['a limit without a currency', ['cards', 'create', '--cardholder-name', 'Sam', '--card-limit', '10'], /currency/],
    ['a limit with too many decimals', ['cards', 'create', '--cardholder-name', 'Sam', '--card-limit', '10.001', '--currency', 'AUD'], /decimal/],
    ['a blank cardholder name', ['cards', 'create', '--cardholder-name', ' ', '--card-limit', '10', '--currency', 'AUD'], /cardholder-name/],
    ['--data with field flags', ['cards', 'create', '--data', '{}', '--cardholder-name', 'Sam'], /cannot also be provided|--data/],
    ['--data that is not JSON', ['cards', 'create', '--data', '{nope'], /not valid JSON/],
    ['--data that is an array', ['cards', 'create', '--data', '[]'], /JSON object/],
    ['--limit 501 on list', ['cards', 'list', '--limit', '501'], /limit/i],
  ]

  itRefusesBeforeSending(cases, recording, '%s exits 2 and sends nothing')
})
