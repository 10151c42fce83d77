// Every help page, rendered at build time by oclif's help with payfac's help class
// (src/cli/terminal/help.ts) exactly as oclif renders it for a command line without a terminal:
// 80 columns, no colour, for `payfac <words> --help`. `payfac … --help` without a terminal prints
// the page instead of loading oclif's help (src/cli/start/help-pages.ts); at a terminal, oclif
// renders it live, for its width and colours.
//
//   node scripts/help-pages.mjs <root>   writes <root>/dist/help.json
//
// Run by scripts/build.mjs in a process of its own, whose stdout is not a terminal and whose
// environment asks for no colour, as the pages' readers are. Each page is rendered by a Config
// loaded for it alone, as in the process that prints it (oclif's help may change the Config it
// renders from, which a second page would then see).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const HELP_WIDTH = 80
// The page of `payfac help environment`, which is a help topic and not a command.
const ENVIRONMENT_PAGE = 'help environment'

async function helpPages(root) {
  const { Config } = await import('@oclif/core/config')
  const { loadHelpClass } = await import('@oclif/core')
  const { toStandardizedId } = await import('@oclif/core/util/ids')
  const render = async (argv) => {
    const config = await Config.load(root)
    const HelpClass = await loadHelpClass(config)
    // oclif's help prints each part through log(); here the page is kept instead.
    class Page extends HelpClass {
      lines = []
      log(...args) {
        this.lines.push(args.join(' '))
      }
    }
    const page = new Page(config, { ...config.pjson.oclif.helpOptions, maxWidth: HELP_WIDTH })
    await page.showHelp([...argv, '--help'])
    return `${page.lines.join('\n')}\n`
  }
  const config = await Config.load(root)
  const pages = { '': await render([]), [ENVIRONMENT_PAGE]: await render(['environment']) }
  // oclif names topics and commands as typed (`auth tokens`); pages are keyed by id (`auth:tokens`).
  for (const topic of config.topics) {
    const id = toStandardizedId(topic.name, config)
    if (!topic.hidden && !config.findCommand(id)) pages[id] = await render(id.split(':'))
  }
  for (const command of config.commands) {
    const id = toStandardizedId(command.id, config)
    if (!command.hidden) pages[id] = await render(id.split(':'))
  }
  return { version: config.version, width: HELP_WIDTH, pages }
}

const root = process.argv[2]
if (!root) throw new Error('usage: node scripts/help-pages.mjs <root>')
writeFileSync(join(root, 'dist/help.json'), `${JSON.stringify(await helpPages(root))}\n`)
