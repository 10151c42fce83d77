import path from 'node:path'

import { PayfacCommand } from '../../cli/base-command.js'
import { outputFlags } from '../../cli/flags/index.js'
import { emulatorOptions, emulatorStartFlags, listenRefused } from '../../cli/flags/emulator.js'

export default class EmulatorStart extends PayfacCommand<typeof EmulatorStart> {
  static override summary = 'Run the local emulator of the payment service, in the foreground or in the background (--detach).'
  static override description =
    'Starts a local, stateful emulator of the Payment Facilitation Service (interface 3.0) and serves it until ' +
    'Ctrl-C (SIGINT) or SIGTERM. It starts with the same marketplace, merchant, sub-merchant and keys every time, ' +
    'which the built-in `local` profile uses. With --state the state is kept in a JSON file across restarts. ' +
    'With --json the first line on stdout is one JSON object with the base URL, the seeded ids and the credentials. ' +
    'With --fixtures the given records are added to the seed (and again on every reset). With --strict, request fields it does not know and decimal item quantities are refused (400) instead of accepted and reported. ' +
    'With --detach it runs in the background and the command returns once it answers, printing `export PAYFAC_BASE_URL=…`; ' +
    '`payfac emulator status`, `wait` and `stop` find it again (a second --detach on the same port is exit 6). ' +
    'The control plane is at /__emulator (see `payfac emulator state`, `requests`, `deliveries`). ' +
    'It answers only Host names of its own (421), refuses control requests a web page could send (403), and beyond loopback requires the control token. ' +
    'See docs/emulator.md for the test values, the simulation actions, faults, namespaces, webhooks and CI jobs.'

  static override examples = [
    '<%= config.bin %> emulator start',
    '<%= config.bin %> emulator start --port 0 --json',
    '<%= config.bin %> emulator start --detach',
    'eval "$(<%= config.bin %> emulator start --detach --port 0)"',
    '<%= config.bin %> emulator start --state ./emulator-state.json --log --strict',
    '<%= config.bin %> emulator start --fixtures ./fixtures.json --seed 42 --rate-limit 50',
  ]

  static override baseFlags = { json: outputFlags.json }
  static override flags = emulatorStartFlags()

  async run(): Promise<void> {
    const flags = this.flags
    const options = emulatorOptions(flags)
    const serve = await import('../../cli/detach/serve.js')
    if (flags.detach) return serve.startInBackground(flags, path.join(this.config.root, 'bin', 'run.js'))
    const { startEmulator, loadFixtures } = await import('../../emulator/index.js')
    const integrators = { ...options, ...(flags.fixtures ? { fixtures: loadFixtures(flags.fixtures) } : {}) }
    const log = flags.log ? (line: string) => process.stderr.write(`${line}\n`) : undefined
    const start: import('../../cli/detach/serve.js').StartFunction = (instance) =>
      startEmulator({
        port: flags.port,
        host: flags.host,
        ...(flags['control-token'] ? { controlToken: flags['control-token'] } : {}),
        ...(flags.state ? { statePath: flags.state } : {}),
        ...(log ? { log } : {}),
        ...(instance ? { instance } : {}),
        integrators,
      }).catch((error: unknown) => Promise.reject(listenRefused(error, flags.port, flags.host)))
    return flags.instance ? serve.serveAsInstance(flags.instance, start) : serve.serveForeground(start, flags)
  }
}
