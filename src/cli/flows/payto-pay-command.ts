// How `payfac payto pay` runs the flow (payto-pay.ts) for a command: the journal in the config
// folder under the service identity, the command that resumes the run, and Ctrl-C watched for
// the whole run.
import type { PayfacClient } from '../../client/client.js'
import type { Transaction } from '../../client/schemas/transactions.js'
import type { ServiceContext } from '../../config/operations.js'
import type { Environment } from '../../config/profiles.js'
import { type PayToPayRequest, runPayToPay } from './payto-pay.js'

/** What the command hands over: the client, the resolved settings and its own command line. */
export interface PayToPayCommand {
  client: PayfacClient
  settings: { environment: Environment; profileName: string | undefined; baseUrl: string; credential: string; context: ServiceContext }
  bin: string
  /** The command's arguments (after `payto pay`), to print the command that resumes the run. */
  argv: string[]
  dryRun?: boolean | undefined
}

/**
 * Runs the flow for a command: the journal in the config folder (keyed by the service identity,
 * so another spelling of the same service resumes it), the resume command (the same arguments,
 * without --restart), and Ctrl-C watched for the whole run.
 */
export async function payToPayFromCommand(request: PayToPayRequest, command: PayToPayCommand): Promise<Transaction> {
  const { journalPath } = await import('../../config/journal.js')
  const { serviceIdentity } = await import('../../config/operations.js')
  const { resolveConfigDir } = await import('../../config/store.js')
  const { commandLine, watchInterrupts } = await import('./interrupt.js')
  const interrupts = watchInterrupts()
  try {
    return await runPayToPay(request, {
      client: command.client,
      environment: command.settings.environment,
      journalFile: journalPath(resolveConfigDir(), `svc-${serviceIdentity(command.settings.baseUrl, command.settings.context, command.settings.credential).id}`, request.reference),
      resume: commandLine(command.bin, ['payto', 'pay', ...command.argv.filter((arg) => arg !== '--restart')]),
      stderr: process.stderr,
      signal: interrupts.signal,
      dryRun: command.dryRun,
    })
  } finally {
    interrupts.dispose()
  }
}
