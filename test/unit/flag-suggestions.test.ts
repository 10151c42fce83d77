// Did-you-mean for flags: an unknown flag gets the nearest flag of the command, or payfac's
// name for what another tool calls it; oclif's error carries the command's flags.
import { describe, expect, it } from 'vitest'

import { describeError } from '../../src/cli/errors/exit-codes.js'
import { nearestFlag, rewordParseError } from '../../src/cli/errors/usage-wording.js'

const FLAGS = ['amount', 'currency', 'reference', 'json', 'csv', 'query', 'ids', 'debug', 'yes', 'no-input', 'limit', 'status', 'base-url', 'created-after']

/** What oclif throws for flags the command does not have (its NonExistentFlagsError's fields). */
function nonexistent(typed: string[], flags = FLAGS) {
  const error = new Error(`Nonexistent flag${typed.length === 1 ? '' : 's'}: ${typed.join(', ')}\nSee more help with --help`)
  return Object.assign(error, { oclif: { exit: 2 }, flags: typed, parse: { input: { flags: Object.fromEntries(flags.map((name) => [name, { name }])) } } })
}

describe('the nearest flag', () => {
  it.each([
    ['--ammount', 'amount'],
    ['--ammount=5', 'amount'],
    ['--Amount', 'amount'],
    ['--curency', 'currency'],
    ['--refernce', 'reference'],
    ['--stauts', 'status'],
    ['--ref', 'reference'],
    ['--josn', 'json'],
    ['-amount', 'amount'],
  ])('%s → --%s', (typed, expected) => expect(nearestFlag(typed, FLAGS)).toBe(expected))

  it.each([
    ['--jq', 'query'],
    ['--verbose', 'debug'],
    ['--force', 'yes'],
    ['--non-interactive', 'no-input'],
    ['--per-page', 'limit'],
    ['--endpoint', 'base-url'],
    ['--after', 'created-after'],
  ])("%s is another tool's name for --%s", (typed, expected) => expect(nearestFlag(typed, FLAGS)).toBe(expected))

  it('suggests only flags the command has, and nothing for a word far from all of them', () => {
    expect(nearestFlag('--jq', ['json', 'csv'])).toBeUndefined()
    expect(nearestFlag('--output', ['json', 'csv'])).toBe('json')
    expect(nearestFlag('--xyzzy', FLAGS)).toBeUndefined()
    expect(nearestFlag('--zz', FLAGS)).toBeUndefined()
  })
})

describe('the unknown-flag message', () => {
  it('names the flag as typed and the nearest one, for a person and under --json', () => {
    expect(rewordParseError(nonexistent(['--ammount']))).toBe('unknown flag --ammount. Did you mean --amount?')
    const report = describeError(nonexistent(['--jq']))
    expect(report).toMatchObject({
      code: 2,
      message: 'unknown flag --jq. Did you mean --query?',
      json: { message: 'unknown flag --jq. Did you mean --query?' },
    })
  })

  it('pairs each of several unknown flags with its suggestion, leaving out those without one', () => {
    expect(rewordParseError(nonexistent(['--ammount=5', '--xyzzy', '--verbose']))).toBe(
      'unknown flag --ammount=5, --xyzzy, --verbose. Did you mean --amount for --ammount, --debug for --verbose?',
    )
  })

  it('says only "unknown flag" when nothing is near, or when the flags are not known', () => {
    expect(rewordParseError(nonexistent(['--xyzzy']))).toBe('unknown flag --xyzzy')
    expect(rewordParseError('Nonexistent flag: --ammount\nSee more help with --help')).toBe('unknown flag --ammount')
  })
})
