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

const commands = IDS.map((id) => ({ id, flags: id === 'orders:list' ? ['all', 'json', 'csv'] : ['json'] }))

describe('completion', () => {
  const bashFound = spawnSync('sh', ['-c', 'command -v bash']).status === 0

  function complete(line: string): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'payfac-completion-'))
    try {
      const file = join(dir, 'payfac.bash')
      writeFileSync(file, completionScript('bash', 'payfac', commands))
      const script = `source "$1"; read -ra COMP_WORDS <<< "$2"; [[ "$2" == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _payfac_complete; printf '%s\\n' "\${COMPREPLY[@]}"`
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

  it('writes zsh (through bashcompinit) and fish scripts from the same table', () => {
    expect(completionScript('zsh', 'payfac', commands)).toContain('bashcompinit')
    const fish = completionScript('fish', 'payfac', commands)
    expect(fish).toContain("case 'orders list' 'orders list ''*'")
    expect(fish).toContain("complete -c payfac -f -a '(__payfac_complete)'")
  })
})
