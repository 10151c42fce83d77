import { Command, Flags } from '@oclif/core'

export default class EmulatorStart extends Command {
  static override summary = 'Run the local emulator of the payment service in the foreground.'
  static override description =
    'Starts a local, stateful emulator of the Payment Facilitation Service (interface 3.0) and serves it until ' +
    'Ctrl-C (SIGINT) or SIGTERM. It starts with the same marketplace, merchant, sub-merchant and keys every time, ' +
    'which the built-in `local` profile uses. With --state the state is kept in a JSON file across restarts. ' +
    'With --json the first line on stdout is one JSON object with the base URL, the seeded ids and the credentials. ' +
    'See docs/emulator.md for the test values and the simulation actions.'

  static override examples = [
    '<%= config.bin %> emulator start',
    '<%= config.bin %> emulator start --port 0 --json',
    '<%= config.bin %> emulator start --state ./emulator-state.json --log',
  ]

  static override flags = {
    port: Flags.integer({ description: 'Port to listen on; 0 picks a free port.', default: 4010, min: 0, max: 65_535 }),
    host: Flags.string({ description: 'Address to listen on.', default: '127.0.0.1' }),
    json: Flags.boolean({ description: 'Print the connection details as one JSON object on the first line of stdout.', default: false }),
    state: Flags.string({ description: 'Keep the state in this JSON file (loaded at start, saved after every change).' }),
    log: Flags.boolean({ description: 'Log one line per request to stderr.', default: false }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(EmulatorStart)
    const { startEmulator, StateFileError } = await import('../../emulator/index.js')
    const log = flags.log ? (line: string) => process.stderr.write(`${line}\n`) : undefined
    let emulator: Awaited<ReturnType<typeof startEmulator>>
    try {
      emulator = await startEmulator({ port: flags.port, host: flags.host, ...(flags.state ? { statePath: flags.state } : {}), ...(log ? { log } : {}) })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      this.error(message, { exit: error instanceof StateFileError ? 3 : 2 })
    }
    const details = { baseUrl: emulator.url, ...emulator.ids, credentials: emulator.credentials, statePath: flags.state ?? null }
    if (flags.json) process.stdout.write(`${JSON.stringify(details)}\n`)
    else process.stdout.write(`${describe(details)}\n`)
    process.stderr.write('Emulator running; press Ctrl-C to stop.\n')
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'))
      process.once('SIGTERM', () => resolve('SIGTERM'))
    })
    await emulator.close()
    process.stderr.write(`Emulator stopped (${signal}).\n`)
  }
}

function describe(d: { baseUrl: string; marketplaceId: string; merchantId: string; subMerchantId: string; credentials: Record<string, string>; statePath: string | null }): string {
  return [
    `Payment service emulator listening on ${d.baseUrl}`,
    '',
    `  marketplace          ${d.marketplaceId}`,
    `  merchant             ${d.merchantId}`,
    `  sub-merchant         ${d.subMerchantId}`,
    `  marketplace API key  ${d.credentials.marketplaceApiKey}`,
    `  merchant secret key  ${d.credentials.merchantSecretKey}`,
    `  merchant public key  ${d.credentials.merchantPublicKey}`,
    `  state                ${d.statePath ?? 'in memory (lost when stopped)'}`,
  ].join('\n')
}
