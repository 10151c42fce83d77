// Help without a terminal, from the pages the build rendered with oclif's help and payfac's help
// class (scripts/help-pages.mjs, dist/help.json): the same text oclif prints there, 80 columns and
// no colour, without loading oclif. At a terminal (its width and colours) and for anything the
// pages do not hold, oclif's help renders live (../terminal/help.ts).
import { readFileSync } from 'node:fs'

import { type CommandIndex, mayNameTopic } from './dispatch.js'

interface HelpPages {
  version: string
  pages: Record<string, string>
}

/** The page of `payfac help environment` (scripts/help-pages.mjs). */
const ENVIRONMENT_PAGE = 'help environment'

/** True when these arguments ask for help (and nothing after a `--`). */
export function wantsHelp(argv: string[]): boolean {
  if (argv.length === 0 || argv[0] === 'help') return true
  const end = argv.indexOf('--')
  const head = end === -1 ? argv : argv.slice(0, end)
  return head.includes('--help') || head.includes('-h')
}

/**
 * The key of the page these arguments ask for: '' for the root, a topic's or a command's id, or
 * `help environment`; undefined when they ask for no help, or for one the index cannot place.
 * Words alone that name a topic ask for its help, as in oclif (`payfac orders`).
 */
export function helpPageKey(argv: string[], index: CommandIndex): string | undefined {
  const asked = wantsHelp(argv)
  const words = (argv[0] === 'help' ? argv.slice(1) : argv).filter((a) => !a.startsWith('-'))
  if (!asked) {
    return words.length === argv.length && mayNameTopic(index, words) ? words.join(':') : undefined
  }
  if (words.length === 0) return ''
  if (argv[0] === 'help' && words.length === 1 && words[0] === 'environment') return ENVIRONMENT_PAGE
  // The words that name a command or topic, as oclif's help takes them: as many as extend one
  // (`orders get ordr_1` asks for `orders get`).
  let found: string | undefined
  for (let n = 1; n <= words.length; n++) {
    const id = words.slice(0, n).join(':')
    if (Object.hasOwn(index.commands, id) || mayNameTopic(index, words.slice(0, n))) found = id
    else break
  }
  return found
}

/**
 * The page these arguments ask for, when it can be printed as the build rendered it: stdout is not
 * a terminal (oclif's width there is 80 and it prints no colour), no OCLIF_COLUMNS asks for another
 * width, and the pages are of this version. undefined otherwise: oclif then renders the help.
 */
export function helpPage(
  argv: string[],
  index: CommandIndex,
  binUrl: string,
  version: string,
  stdout: { isTTY?: boolean } = process.stdout,
): string | undefined {
  if (stdout.isTTY || process.env.OCLIF_COLUMNS) return undefined
  const key = helpPageKey(argv, index)
  if (key === undefined) return undefined
  try {
    const built = JSON.parse(readFileSync(new URL('../dist/help.json', binUrl), 'utf8')) as HelpPages
    return built.version === version && Object.hasOwn(built.pages, key) ? built.pages[key] : undefined
  } catch {
    return undefined
  }
}
