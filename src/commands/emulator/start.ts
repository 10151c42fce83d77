import * as Flags from '@oclif/core/flags'

import { PayfacCommand } from '../../cli/base-command.js'
import { outputFlags } from '../../cli/flags/index.js'
import { baseUrlExport, emulatorOptions, exposedWarning, listenRefused } from '../../cli/flags/emulator.js'
import { emulatorReadyText } from '../../output/views/emulator.js'

export default class EmulatorStart extends PayfacCommand<typeof EmulatorStart> {
  static override summary = 'Run the local emulator of the payment service in the foreground.'
  static override description =
    'Starts a local, stateful emulator of the Payment Facilitation Service (interface 3.0) and serves it until ' +
    'Ctrl-C (SIGINT) or SIGTERM. It starts with the same marketplace, merchant, sub-merchant and keys every time, ' +
    'which the built-in `local` profile uses. With --state the state is kept in a JSON file across restarts. ' +
    'With --json the first line on stdout is one JSON object with the base URL, the seeded ids and the credentials. ' +
    'With --fixtures the given records are added to the seed (and again on every reset). With --strict, request fields it does not know are refused (400) instead of accepted and reported. ' +
    'The control plane is at /__emulator (see `payfac emulator state`, `requests`, `deliveries`). ' +
    'It answers only Host names of its own (421), refuses control requests a web page could send (403), and beyond loopback requires the control token. ' +
    'See docs/emulator.md for the test values, the simulation actions, faults, namespaces and webhooks.'

  static override examples = [
    '<%= config.bin %> emulator start',
    '<%= config.bin %> emulator start --port 0 --json',
    '<%= config.bin %> emulator start --state ./emulator-state.json --log --strict',
    '<%= config.bin %> emulator start --fixtures ./fixtures.json --seed 42 --rate-limit 50',
  ]

  static override baseFlags = { json: outputFlags.json }
  static override flags = {
    port: Flags.integer({ description: 'Port to listen on; 0 picks a free port.', default: 4010, min: 0, max: 65_535 }),
    host: Flags.string({
      description: 'Address to listen on. Other than loopback, the control plane needs a control token (printed at start).',
      default: '127.0.0.1',
    }),
    'control-token': Flags.string({
      description: 'Require this Emulator-Control-Token header on /__emulator requests (default: one is generated when --host is not loopback).',
      env: 'PAYFAC_EMULATOR_TOKEN',
    }),
    state: Flags.string({ description: 'Keep the state in this JSON file (loaded at start, saved after every change).' }),
    log: Flags.boolean({ description: 'Log one line per request to stderr.', default: false }),
    fixtures: Flags.string({ description: 'JSON file of records to add to the seed (merchants, customers, agreements, subscriptions, balances, tokens).' }),
    seed: Flags.string({ description: 'Seed of the random draws of standing fault rules, so that a run can be repeated.' }),
    'rate-limit': Flags.integer({ description: 'Answer 429 with Retry-After beyond this many requests per second (per namespace).', min: 1 }),
    strict: Flags.boolean({ description: 'Refuse request fields the emulator does not know (400), instead of accepting and reporting them.', default: false }),
    'strict-https': Flags.boolean({ description: 'Refuse webhook urls that are not https, loopback http included.', default: false }),
    'allow-remote-webhooks': Flags.boolean({
      description: 'Deliver webhooks to public hosts other than this machine (off by default: the emulator never reaches out unless asked).',
      default: false,
    }),
    'allow-private-webhooks': Flags.boolean({
      description: 'With --allow-remote-webhooks, deliver to private, link-local, CGNAT and cloud metadata addresses too.',
      default: false,
    }),
  }

  async run(): Promise<void> {
    const flags = this.flags
    const { startEmulator, loadFixtures } = await import('../../emulator/index.js')
    const integrators = { ...emulatorOptions(flags), ...(flags.fixtures ? { fixtures: loadFixtures(flags.fixtures) } : {}) }
    const log = flags.log ? (line: string) => process.stderr.write(`${line}\n`) : undefined
    const token = flags['control-token'] ? { controlToken: flags['control-token'] } : {}
    const emulator = await startEmulator({
      port: flags.port,
      host: flags.host,
      ...token,
      ...(flags.state ? { statePath: flags.state } : {}),
      ...(log ? { log } : {}),
      integrators,
    }).catch((error: unknown) => Promise.reject(listenRefused(error, flags.port, flags.host)))
    const ready = { baseUrl: emulator.url, ...emulator.ids, credentials: emulator.credentials, statePath: flags.state ?? null }
    process.stdout.write(`${flags.json ? JSON.stringify(ready) : emulatorReadyText(ready)}\n`)
    process.stderr.write(baseUrlExport(emulator.url))
    if (emulator.exposed) process.stderr.write(`${exposedWarning(emulator.host, token.controlToken === undefined ? emulator.controlToken : undefined)}\n`)
    process.stderr.write('Emulator running; press Ctrl-C to stop.\n')
    const { stopSignal } = await import('../../cli/flows/interrupt.js')
    const signal = await stopSignal()
    await emulator.close()
    process.stderr.write(`Emulator stopped (${signal}).\n`)
  }
}
