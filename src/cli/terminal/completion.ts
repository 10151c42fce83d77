// Shell completion scripts for bash, zsh and fish, generated from the commands payfac has.
// The scripts are static: topics and commands as the words a person types, the flags of the
// command reached, and the values of a flag where they are known (its options, ISO 4217 codes
// for --currency). The one thing asked at Tab time is the list of profile names for --profile
// (`payfac profiles list -q`), since it lives in the user's profile store.
//
// What a script offers, in every shell:
// - after a flag that takes a value (`--status <Tab>`, `--status=<Tab>`): that flag's values,
//   or files when they are not known (`--out`, `--data @…`);
// - a word that starts with `-`: the command's flags, less those already typed (unless the flag
//   is repeatable);
// - any other word: the next topic or command word; after a whole command, nothing (an id or a
//   value is the user's), so the shell never fills in a lone `--`.

export interface CompletionFlag {
  name: string
  char?: string | undefined
  /** Takes a value (`--status paid`), as opposed to a switch (`--json`). */
  value: boolean
  /** May be given more than once. */
  multiple?: boolean | undefined
  /** The values it accepts, when they are a fixed list. */
  options?: readonly string[] | undefined
}

export interface CompletionCommand {
  /** oclif's id, `orders:list`. */
  id: string
  summary?: string | undefined
  flags: Array<CompletionFlag | string>
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

/** What may follow a phrase typed so far (`''`, `orders`, `orders list`). */
export interface CompletionEntry {
  /** The command this phrase is, when it is one (`orders list`). */
  command?: string
  /** Next words: topics and commands. */
  words: string[]
  /** `--flag` names of the command. */
  flags: string[]
  /** Flags that take a value. */
  valued: string[]
  /** Flags that may be repeated. */
  repeatable: string[]
}

const asFlag = (flag: CompletionFlag | string): CompletionFlag => (typeof flag === 'string' ? { name: flag, value: false } : flag)

/** For each phrase typed so far, what may come next; longest phrases first (the scripts match in order). */
export function completionTable(commands: CompletionCommand[]): Map<string, CompletionEntry> {
  const table = new Map<string, CompletionEntry>()
  const entry = (key: string) => table.get(key) ?? (table.set(key, { words: [], flags: [], valued: [], repeatable: [] }).get(key) as CompletionEntry)
  for (const command of commands) {
    const words = command.id.split(':')
    for (let i = 0; i < words.length; i += 1) {
      const next = entry(words.slice(0, i).join(' '))
      if (!next.words.includes(words[i] as string)) next.words.push(words[i] as string)
    }
    const own = entry(words.join(' '))
    own.command = words.join(' ')
    for (const flag of command.flags.map(asFlag)) {
      own.flags.push(`--${flag.name}`)
      if (flag.value) own.valued.push(`--${flag.name}`)
      if (flag.multiple) own.repeatable.push(`--${flag.name}`)
    }
  }
  const keys = [...table.keys()].sort((a, b) => b.split(' ').length - a.split(' ').length || a.localeCompare(b))
  return new Map(
    keys.map((key) => {
      const e = table.get(key) as CompletionEntry
      return [key, { ...e, words: [...e.words].sort(), flags: [...e.flags].sort(), valued: [...e.valued].sort(), repeatable: [...e.repeatable].sort() }]
    }),
  )
}

/** The flags of a command as oclif's manifest describes them, for completion (hidden ones left out). */
export function completionFlags(
  flags:
    | Record<
        string,
        { type?: string; char?: string | undefined; multiple?: boolean | undefined; options?: readonly string[] | undefined; hidden?: boolean | undefined }
      >
    | undefined,
): CompletionFlag[] {
  return Object.entries(flags ?? {})
    .filter(([, flag]) => !flag.hidden)
    .map(([name, flag]) => ({ name, char: flag.char, value: flag.type === 'option', multiple: flag.multiple, options: flag.options }))
}

/** Where a flag's values come from: a fixed list, the currency codes, or the profile store. */
type Values = { kind: 'list'; words: readonly string[] } | { kind: 'currency' } | { kind: 'profile' }

/** The flags whose values are known, as `command --flag` (or `* --flag` for every command). */
export function flagValues(commands: CompletionCommand[]): Map<string, Values> {
  const values = new Map<string, Values>()
  values.set('* --currency', { kind: 'currency' })
  values.set('* --profile', { kind: 'profile' })
  for (const command of commands) {
    for (const flag of command.flags.map(asFlag)) {
      if (flag.options?.length) values.set(`${command.id.split(':').join(' ')} --${flag.name}`, { kind: 'list', words: flag.options })
    }
  }
  return values
}

/** Short flags that mean the same long flag in every command (`-q` is `--ids`). */
function shortFlags(commands: CompletionCommand[]): Map<string, string> {
  const seen = new Map<string, Set<string>>()
  for (const flag of commands.flatMap((c) => c.flags.map(asFlag))) {
    if (flag.char) (seen.get(flag.char) ?? seen.set(flag.char, new Set()).get(flag.char))?.add(flag.name)
  }
  return new Map([...seen].filter(([, names]) => names.size === 1).map(([char, names]) => [`-${char}`, `--${[...names][0]}`]))
}

const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
const spaced = (words: string[]) => q(` ${words.join(' ')} `)
const fn = (bin: string, what: string) => `_${bin.replace(/\W/g, '_')}_${what}`

/** The key patterns of a phrase in a POSIX `case`: itself, and itself followed by more words. */
const casePattern = (key: string) => (key === '' ? `''` : `${q(key)}|${q(`${key} `)}*`)

interface ScriptParts {
  bin: string
  table: Map<string, CompletionEntry>
  values: Map<string, Values>
  shorts: Map<string, string>
  currencies: readonly string[]
}

/** `_payfac_values COMMAND FLAG`: the values of a flag, one a line (bash and zsh alike). */
function posixValues({ bin, values, currencies }: ScriptParts): string {
  const lines = [...values].map(([key, v]) => {
    const pattern = key.startsWith('* ') ? `*${q(key.slice(1))}` : q(key)
    const body =
      v.kind === 'list'
        ? `printf '%s\\n' ${v.words.map(q).join(' ')}`
        : v.kind === 'currency'
          ? `printf '%s\\n' ${currencies.join(' ')}`
          : `${bin} profiles list -q 2>/dev/null`
    return `    ${pattern}) ${body} ;;`
  })
  // Specific commands first: a `* --flag` entry only where no command names its own list.
  lines.sort((a, b) => Number(a.trimStart().startsWith('*')) - Number(b.trimStart().startsWith('*')))
  return `${fn(bin, 'values')}() {\n  case "$1 $2" in\n${lines.join('\n')}\n  esac\n}`
}

/** The `case "$typed"` that sets command, words, flags, valued and repeatable (bash and zsh alike). */
function posixTable({ table }: ScriptParts): string {
  const lines = [...table].map(([key, e]) => {
    const sets = [`command=${q(e.command ?? '')}`, `words=${q(e.words.join(' '))}`]
    if (e.flags.length) sets.push(`flags=${q(e.flags.join(' '))}`, `valued=${spaced(e.valued)}`, `repeatable=${spaced(e.repeatable)}`)
    return `    ${casePattern(key)}) ${sets.join('; ')} ;;`
  })
  return `  case "$typed" in\n${lines.join('\n')}\n  esac`
}

function shortCase({ shorts }: ScriptParts): string {
  if (shorts.size === 0) return ''
  return `case "$word" in ${[...shorts].map(([s, long]) => `${s}) word=${long} ;;`).join(' ')} esac; `
}

function bash(parts: ScriptParts): string {
  const { bin } = parts
  return `# ${bin} completion for bash. Load it with:  source <(${bin} completion bash)
${posixValues(parts)}
${fn(bin, 'complete')}() {
  local line="\${COMP_LINE:0:COMP_POINT}" cur="" prev="" typed="" used=" " word f out=""
  local command="" words="" flags="" valued=" " repeatable=" "
  local -a typedWords
  read -ra typedWords <<< "$line"
  if [[ "$line" != *[[:space:]] ]]; then cur="\${typedWords[\${#typedWords[@]}-1]}"; unset 'typedWords[\${#typedWords[@]}-1]'; fi
  for word in "\${typedWords[@]:1}"; do
    prev="$word"
    case "$word" in
      -*) ${shortCase(parts)}used="$used\${word%%=*} " ;;
      *) typed="\${typed:+$typed }$word" ;;
    esac
  done
${posixTable(parts)}
  COMPREPLY=()
  if [[ "$cur" == --*=* ]]; then
    # --flag=value: readline replaces only what follows "=" when "=" breaks words (the default).
    local value="\${cur#*=}" flag="\${cur%%=*}"
    if [[ "$COMP_WORDBREAKS" == *=* ]]; then
      COMPREPLY=($(compgen -W "$(${fn(bin, 'values')} "$command" "$flag")" -- "$value"))
    else
      COMPREPLY=($(compgen -P "$flag=" -W "$(${fn(bin, 'values')} "$command" "$flag")" -- "$value"))
    fi
    return
  fi
  if [[ "$prev" == -* && "$prev" != *=* && "$valued" == *" $prev "* ]]; then
    local known="$(${fn(bin, 'values')} "$command" "$prev")"
    # A value payfac cannot list (--out, --data, --limit): the shell's own completion (files).
    if [[ -z "$known" ]]; then compopt -o default 2>/dev/null; return; fi
    COMPREPLY=($(compgen -W "$known" -- "$cur"))
    return
  fi
  if [[ "$cur" == -* ]]; then
    for f in $flags; do
      [[ "$used" == *" $f "* && "$repeatable" != *" $f "* ]] || out="$out $f"
    done
    COMPREPLY=($(compgen -W "$out" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F ${fn(bin, 'complete')} ${bin}
`
}

function zsh(parts: ScriptParts): string {
  const { bin } = parts
  return `#compdef ${bin}
# ${bin} completion for zsh. Load it with:  source <(${bin} completion zsh)   (after compinit)
${posixValues(parts)}
${fn(bin, 'zsh')}() {
  local cur="\${words[CURRENT]}" prev="" typed="" used=" " word f
  local command="" next="" flags="" valued=" " repeatable=" "
  local -a offer
  for word in "\${(@)words[2,CURRENT-1]}"; do
    prev="$word"
    case "$word" in
      -*) ${shortCase(parts)}used="$used\${word%%=*} " ;;
      *) typed="\${typed:+$typed }$word" ;;
    esac
  done
${posixTable(parts).replace(/ words=/g, ' next=')}
  if [[ "$cur" == --*=* ]]; then
    local flag="\${cur%%=*}"
    compset -P '*='
    offer=(\${(f)"$(${fn(bin, 'values')} "$command" "$flag")"})
    compadd -a offer
    return
  fi
  if [[ "$prev" == -* && "$prev" != *=* && "$valued" == *" $prev "* ]]; then
    offer=(\${(f)"$(${fn(bin, 'values')} "$command" "$prev")"})
    if (( \${#offer} )); then compadd -a offer; else _files; fi
    return
  fi
  if [[ "$cur" == -* ]]; then
    for f in \${=flags}; do
      [[ "$used" == *" $f "* && "$repeatable" != *" $f "* ]] || offer+=("$f")
    done
    compadd -a offer
    return
  fi
  offer=(\${=next})
  if (( \${#offer} )); then compadd -a offer; else _files; fi
}
compdef ${fn(bin, 'zsh')} ${bin}
`
}

function fish(parts: ScriptParts): string {
  const { bin, table, values, currencies, shorts } = parts
  const complete = `_${fn(bin, 'complete')}`
  const valuesFn = `_${fn(bin, 'values')}`
  const valueCases = [...values]
    .sort(([a], [b]) => Number(a.startsWith('* ')) - Number(b.startsWith('* ')))
    .map(([key, v]) => {
      const body =
        v.kind === 'list'
          ? `printf '%s\\n' ${v.words.map(q).join(' ')}`
          : v.kind === 'currency'
            ? `printf '%s\\n' ${currencies.join(' ')}`
            : `${bin} profiles list -q 2>/dev/null`
      return `    case ${q(key)}\n      ${body}`
    })
  const tableCases = [...table].map(([key, e]) => {
    const pattern = key === '' ? `''` : `${q(key)} ${q(`${key} *`)}`
    const sets = [`set command ${q(e.command ?? '')}`, `set next ${e.words.map(q).join(' ')}`.trimEnd()]
    if (e.flags.length)
      sets.push(`set flags ${e.flags.join(' ')}`, `set valued ${e.valued.join(' ')}`.trimEnd(), `set repeatable ${e.repeatable.join(' ')}`.trimEnd())
    return `    case ${pattern}\n${sets.map((s) => `      ${s}`).join('\n')}`
  })
  const shortLines = [...shorts].map(([s, long]) => `      set word (string replace -r -- ${q(`^${s}$`)} ${q(long)} $word)`).join('\n')
  return `# ${bin} completion for fish. Load it with:  ${bin} completion fish | source
function ${valuesFn} --argument-names command flag
  switch "$command $flag"
${valueCases.join('\n')}
  end
end
function ${complete}
  set -l before (commandline -opc)[2..-1]
  set -l cur (commandline -ct)
  set -l typed
  set -l used
  set -l prev
  for word in $before
    set prev $word
    if string match -q -- '-*' $word
${shortLines}
      set -a used (string replace -r '=.*' '' -- $word)
    else
      set -a typed $word
    end
  end
  set -l command
  set -l next
  set -l flags
  set -l valued
  set -l repeatable
  switch (string join ' ' $typed)
${tableCases.join('\n')}
  end
  if string match -q -- '--*=*' $cur
    set -l flag (string replace -r '=.*' '' -- $cur)
    for value in (${valuesFn} "$command" $flag)
      echo "$flag=$value"
    end
    return
  end
  if string match -q -- '-*' $prev; and contains -- $prev $valued
    set -l known (${valuesFn} "$command" $prev)
    if set -q known[1]
      printf '%s\\n' $known
    else
      __fish_complete_path $cur
    end
    return
  end
  if string match -q -- '-*' $cur
    for flag in $flags
      if not contains -- $flag $used; or contains -- $flag $repeatable
        echo $flag
      end
    end
    return
  end
  set -q next[1]; and printf '%s\\n' $next
end
complete -c ${bin} -f -a '(${complete})'
`
}

/** The completion script for a shell; `currencies` are the codes `--currency` offers. */
export function completionScript(shell: Shell, bin: string, commands: CompletionCommand[], currencies: readonly string[] = []): string {
  const shown = commands.filter((c) => !c.id.startsWith('autocomplete'))
  const parts: ScriptParts = { bin, table: completionTable(shown), values: flagValues(shown), shorts: shortFlags(shown), currencies }
  if (shell === 'bash') return bash(parts)
  if (shell === 'zsh') return zsh(parts)
  return fish(parts)
}
