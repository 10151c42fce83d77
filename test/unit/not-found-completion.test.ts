import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

import { completionScript } from '../../src/cli/terminal/completion.js'
import { knownPhrases, notFoundMessage, suggest } from '../../src/cli/errors/not-found.js'

const IDS = ['orders:list', 'orders:get', 'orders:create', 'transactions:list', 'auth:tokens:list', 'merchants:list', 'whoami', 'doctor']
const phrases = knownPhrases(IDS, ['orders', 'auth', 'auth:tokens'])

describe('did you mean', () => {
  it.each([
    [['ordrs'], 'orders'],
    [['orders', 'lst'], 'orders list'],
    [['ordrs', 'list', '--json'], 'orders list'],
    [['transactoins'], 'transactions'],
    [['auth', 'tokns', 'list'], 'auth tokens list'],
    [['whoam'], 'whoami'],
  ])('%j suggests "%s", with spaces, never a colon id', (argv, expected) => {
    expect(suggest(argv, phrases)).toBe(expected)
    expect(notFoundMessage(argv, phrases).message).toContain(`Did you mean "payfac ${expected}"?`)
    expect(notFoundMessage(argv, phrases).message).not.toContain(':')
  })

  it('suggests nothing for a word far from every command', () => {
    expect(suggest(['xyzzy'], phrases)).toBeUndefined()
    expect(notFoundMessage(['xyzzy'], phrases)).toEqual({ message: '"xyzzy" is not a payfac command.', hint: 'Run "payfac --help" for the list of topics.' })
  })
})

const commands = IDS.map((id) => ({
  id,
  flags:
    id === 'orders:list'
      ? [
          'all',
          'json',
          'csv',
          { name: 'status', value: true, options: ['pending', 'paid', 'cancelled'] },
          { name: 'order-id', value: true, multiple: true },
          { name: 'profile', value: true },
          { name: 'limit', value: true },
          { name: 'ids', char: 'q', value: false },
        ]
      : id === 'orders:create'
        ? ['json', { name: 'currency', value: true }, { name: 'amount', value: true }]
        : ['json'],
}))
const CURRENCIES = ['AUD', 'EUR', 'NZD', 'USD']

describe('completion', () => {
  const bashFound = spawnSync('sh', ['-c', 'command -v bash']).status === 0

  /** Runs the generated bash function as bash runs it on Tab (COMP_LINE up to the cursor), with `payfac profiles list -q` answering two names. */
  function complete(line: string): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'payfac-completion-'))
    try {
      const file = join(dir, 'payfac.bash')
      writeFileSync(file, completionScript('bash', 'payfac', commands, CURRENCIES))
      const script = `source "$1"; payfac() { [[ "$*" == "profiles list -q" ]] && printf 'ci\\nprod\\n'; }; COMP_LINE="$2"; COMP_POINT=\${#COMP_LINE}; _payfac_complete; printf '%s\\n' "\${COMPREPLY[@]}"`
      const result = spawnSync('bash', ['-c', script, 'bash', file, line], { encoding: 'utf8' })
      expect(result.stderr).toBe('')
      return result.stdout.split('\n').filter(Boolean)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it.runIf(bashFound)('completes topics, commands and flags in bash', () => {
    expect(complete('payfac ord')).toEqual(['orders'])
    expect(complete('payfac orders ')).toEqual(['create', 'get', 'list'])
    expect(complete('payfac orders list --a')).toEqual(['--all'])
    expect(complete('payfac orders list --all --c')).toEqual(['--csv'])
    expect(complete('payfac auth tokens ')).toEqual(['list'])
    expect(complete('payfac who')).toEqual(['whoami'])
  })

  it.runIf(bashFound)("offers a flag's values: its choices, currency codes, profile names", () => {
    expect(complete('payfac orders list --status ')).toEqual(['pending', 'paid', 'cancelled'])
    expect(complete('payfac orders list --status p')).toEqual(['pending', 'paid'])
    expect(complete('payfac orders list --status=pa')).toEqual(['paid'])
    expect(complete('payfac orders create --amount 5 --currency ')).toEqual(CURRENCIES)
    expect(complete('payfac orders create --currency N')).toEqual(['NZD'])
    expect(complete('payfac orders list --profile ')).toEqual(['ci', 'prod'])
    // The value typed is not a command word: flags still complete after it.
    expect(complete('payfac orders list --status paid --c')).toEqual(['--csv'])
  })

  it.runIf(bashFound)('never offers a lone "--": after a whole command, an id or a value without known values gets nothing', () => {
    expect(complete('payfac orders get ')).toEqual([])
    expect(complete('payfac orders list ')).toEqual([])
    expect(complete('payfac orders list --limit ')).toEqual([])
    expect(complete('payfac orders get ordr_')).toEqual([])
  })

  it.runIf(bashFound)('does not offer a flag already typed, unless it may be repeated', () => {
    expect(complete('payfac orders list --json --')).not.toContain('--json')
    expect(complete('payfac orders list --status=paid --')).not.toContain('--status')
    expect(complete('payfac orders list -q --')).not.toContain('--ids')
    expect(complete('payfac orders list --order-id ordr_A --order-')).toEqual(['--order-id'])
    expect(complete('payfac orders list --')).toEqual(['--all', '--csv', '--ids', '--json', '--limit', '--order-id', '--profile', '--status'])
  })

  it('writes a native zsh script (compadd, compset, _files) from the same table', () => {
    const zsh = completionScript('zsh', 'payfac', commands, CURRENCIES)
    expect(zsh).toMatch(/^#compdef payfac\n/)
    expect(zsh).toContain('compdef _payfac_zsh payfac')
    expect(zsh).toContain(
      "'orders list'|'orders list '*) command='orders list'; next=''; flags='--all --csv --ids --json --limit --order-id --profile --status'",
    )
    expect(zsh).toContain("'orders list --status') printf '%s\\n' 'pending' 'paid' 'cancelled' ;;")
    expect(zsh).toContain("*' --currency') printf '%s\\n' AUD EUR NZD USD ;;")
    expect(zsh).toContain("*' --profile') payfac profiles list -q 2>/dev/null ;;")
    expect(zsh).toContain("compset -P '*='")
    expect(zsh).not.toContain('bashcompinit')
  })

  it('writes a fish script with the same cases, values and repeat rule', () => {
    const fish = completionScript('fish', 'payfac', commands, CURRENCIES)
    expect(fish).toContain(
      "case 'orders list' 'orders list *'\n      set command 'orders list'\n      set next\n      set flags --all --csv --ids --json --limit --order-id --profile --status\n      set valued --limit --order-id --profile --status\n      set repeatable --order-id",
    )
    expect(fish).toContain("case 'orders list --status'\n      printf '%s\\n' 'pending' 'paid' 'cancelled'")
    expect(fish).toContain("case '* --currency'\n      printf '%s\\n' AUD EUR NZD USD")
    expect(fish).toContain("set word (string replace -r -- '^-q$' '--ids' $word)")
    expect(fish).toContain('if not contains -- $flag $used; or contains -- $flag $repeatable')
    expect(fish).toContain("complete -c payfac -f -a '(__payfac_complete)'")
  })
})
