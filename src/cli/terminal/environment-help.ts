// `payfac help environment` (as `gh help environment`): every environment variable payfac reads
// and what it does, and the short list a command's help ends with. Pure text, no I/O: oclif's help
// renders it through payfac's help class (./help.ts), live at a terminal or at build time.

interface Variable {
  name: string
  what: string
  /** Which commands read it: every command, the commands that call the service, or by a flag they have. */
  readBy: 'all' | 'api' | { flag: string } | { topic: string }
}

/** Every variable payfac reads, in the order of the help (settings first, then the terminal). */
export const ENVIRONMENT: Variable[] = [
  { name: 'PAYFAC_PROFILE', readBy: 'api', what: 'The profile to use when --profile is not given (else the profile marked in use).' },
  { name: 'PAYFAC_API_KEY', readBy: 'api', what: "The credential (secret key, public key or token), used instead of the profile's; never printed." },
  {
    name: 'PAYFAC_CREDENTIAL_KIND',
    readBy: 'api',
    what: 'The kind of PAYFAC_API_KEY when its prefix does not tell (a JWT): merchant-jwt, customer-jwt and the like.',
  },
  { name: 'PAYFAC_BASE_URL', readBy: 'api', what: "The service address, instead of the profile's (--base-url wins)." },
  { name: 'PAYFAC_MERCHANT_ID', readBy: 'api', what: 'The Merchant-Id context (--merchant-id wins): the merchant commands act for by default.' },
  { name: 'PAYFAC_MARKETPLACE_ID', readBy: 'api', what: 'The Marketplace-Id context (--marketplace-id wins).' },
  { name: 'PAYFAC_CUSTOMER_ID', readBy: 'api', what: 'The Customer-Id context (--customer-id wins).' },
  { name: 'PAYFAC_TIMEOUT', readBy: 'api', what: 'How long one request may take, such as 30s (--timeout wins where it bounds a request).' },
  { name: 'PAYFAC_CONFIG_DIR', readBy: 'all', what: "The folder of profiles, journals and locks (default: the system's config folder for payfac)." },
  {
    name: 'PAYFAC_REPEAT_WINDOW',
    readBy: { flag: 'repeat-window' },
    what: 'How far back money commands look for an identical payment, refund or payout (--repeat-window wins).',
  },
  { name: 'PAYFAC_WEBHOOK_SECRET', readBy: { flag: 'secret' }, what: 'The webhook signing secret of webhooks listen and verify when --secret is not given.' },
  {
    name: 'PAYFAC_EMULATOR_TOKEN',
    readBy: { topic: 'emulator' },
    what: 'The control token of an emulator that listens beyond loopback, sent by the emulator commands.',
  },
  { name: 'CI', readBy: 'all', what: 'When set, payfac never prompts (as --no-input).' },
  { name: 'NO_COLOR', readBy: 'all', what: 'When not empty, no colour in output.' },
  { name: 'TERM', readBy: 'all', what: 'dumb: no colour and no spinners.' },
  { name: 'LC_ALL, LC_CTYPE, LANG', readBy: 'all', what: 'A locale that is not UTF-8 gets ASCII tables and spinners.' },
  { name: 'XDG_CONFIG_HOME, APPDATA', readBy: 'all', what: "Where the system's config folder is, when PAYFAC_CONFIG_DIR is not set." },
  {
    name: 'BROWSER, DISPLAY, WAYLAND_DISPLAY',
    readBy: { topic: 'emulator' },
    what: 'Which browser opens pages (emulator open), and whether there is a screen to open one on.',
  },
]

/** The whole `payfac help environment` text. */
export function environmentHelp(bin: string, width: number): string {
  const lines = [`Environment variables ${bin} reads. A flag always wins over its variable; a variable wins over the profile.`, '']
  for (const v of ENVIRONMENT) {
    lines.push(`  ${v.name}`)
    for (const line of wrapText(v.what, Math.max(20, width - 6))) lines.push(`      ${line}`)
  }
  lines.push('', `Each command's help ends with the variables it reads. Profiles: ${bin} profiles --help.`)
  return `${lines.join('\n')}\n`
}

/** The variables a command reads, by its id and flags (a short list for the end of its help). */
export function commandEnvironment(id: string, flagNames: string[]): string[] {
  const api = flagNames.includes('profile') || flagNames.includes('base-url')
  return ENVIRONMENT.filter((v) => {
    if (v.readBy === 'all') return !v.name.includes(',') && v.name !== 'TERM'
    if (v.readBy === 'api') return api
    if ('flag' in v.readBy) return flagNames.includes(v.readBy.flag)
    return id.split(':')[0] === v.readBy.topic && v.name.startsWith('PAYFAC_')
  }).map((v) => v.name)
}

function wrapText(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines
}
