// Shell completion scripts for bash, zsh and fish, generated from the commands payfac has.
// The scripts are static (no payfac process runs on Tab): topics and commands as the words a
// person types, then the flags of the command reached. Flags are offered after any word of the
// command line, so `payfac orders list --all --c<Tab>` still completes.

export interface CompletionCommand {
  /** oclif's id, `orders:list`. */
  id: string
  summary?: string | undefined
  flags: string[]
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

/** For each phrase typed so far (`''`, `orders`, `orders list`), what may come next. */
export function completionTable(commands: CompletionCommand[]): Map<string, string[]> {
  const table = new Map<string, Set<string>>()
  const add = (key: string, word: string) => (table.get(key) ?? table.set(key, new Set()).get(key))?.add(word)
  for (const command of commands) {
    const words = command.id.split(':')
    for (let i = 0; i < words.length; i += 1) add(words.slice(0, i).join(' '), words[i] as string)
    for (const flag of command.flags) add(words.join(' '), `--${flag}`)
  }
  const sorted = new Map<string, string[]>()
  for (const key of [...table.keys()].sort((a, b) => b.split(' ').length - a.split(' ').length || a.localeCompare(b))) {
    sorted.set(key, [...(table.get(key) as Set<string>)].sort())
  }
  return sorted
}

const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

function bashCases(table: Map<string, string[]>): string {
  const lines: string[] = []
  for (const [key, words] of table) {
    const pattern = key === '' ? `''` : `${shellWord(key)}|${shellWord(`${key} `)}*`
    lines.push(`    ${pattern}) opts=${shellWord(words.join(' '))} ;;`)
  }
  return lines.join('\n')
}

function bash(bin: string, table: Map<string, string[]>): string {
  const fn = `_${bin.replace(/\W/g, '_')}_complete`
  return `# ${bin} completion for bash. Load it with:  source <(${bin} completion bash)
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" typed="" i opts=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) typed="\${typed:+$typed }\${COMP_WORDS[i]}" ;; esac
  done
  case "$typed" in
${bashCases(table)}
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F ${fn} ${bin}
`
}

function zsh(bin: string, table: Map<string, string[]>): string {
  return `#compdef ${bin}
# ${bin} completion for zsh. Load it with:  source <(${bin} completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(bin, table).replace(/^# .*\n/, '')}`
}

function fish(bin: string, table: Map<string, string[]>): string {
  const fn = `__${bin.replace(/\W/g, '_')}_complete`
  const cases: string[] = []
  for (const [key, words] of table) {
    const pattern = key === '' ? `''` : `${shellWord(key)} ${shellWord(`${key} `)}'*'`
    cases.push(`    case ${pattern}\n      printf '%s\\n' ${words.map(shellWord).join(' ')}`)
  }
  return `# ${bin} completion for fish. Load it with:  ${bin} completion fish | source
function ${fn}
  set -l typed
  for word in (commandline -opc)[2..-1]
    string match -q -- '-*' $word; or set -a typed $word
  end
  switch (string join ' ' $typed)
${cases.join('\n')}
  end
end
complete -c ${bin} -f -a '(${fn})'
`
}

/** The completion script for a shell. */
export function completionScript(shell: Shell, bin: string, commands: CompletionCommand[]): string {
  const table = completionTable(commands.filter((c) => !c.id.startsWith('autocomplete')))
  if (shell === 'bash') return bash(bin, table)
  if (shell === 'zsh') return zsh(bin, table)
  return fish(bin, table)
}
