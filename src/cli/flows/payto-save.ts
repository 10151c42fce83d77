// `payfac payto save`: the contract's open PayTo flow as one command: send an open agreement (or
// take one already sent), wait until the customer approves it, then save it as the customer's
// payment source (POST /sources CreateSavedPaymentSource, Customer-Id = the customer).
//
// Nothing here moves money, so there is no journal: a wait that times out or is interrupted
// names the command that carries on with the same agreement (`payto save --agreement …`).
import type { PayfacClient } from '../../client/client.js'
import type { SendAgreement } from '../../client/schemas/payto.js'
import type { PaymentSource } from '../../client/schemas/sources.js'
import { ConfigError } from '../../config/errors.js'
import type { Environment } from '../../config/profiles.js'
import { UsageError } from '../errors.js'
import type { ProgressStream } from '../wait.js'
import { waitUntilActive } from './agreement.js'
import { commandLine } from './interrupt.js'

export interface PayToSaveRequest {
  /** An open agreement to send; or `agreementToken` of one already sent. */
  agreement?: SendAgreement | undefined
  agreementToken?: string | undefined
  customerId: string
  usageScope?: string | undefined
  approve: boolean
  intervalMs: number
  timeoutMs: number
}

export interface PayToSaveContext {
  client: PayfacClient
  environment: Environment
  bin: string
  /** `--profile`/`--base-url` as given, kept in the resume command. */
  flags: { profile?: string | undefined; 'base-url'?: string | undefined }
  stderr?: ProgressStream | undefined
}

export async function runPayToSave(request: PayToSaveRequest, context: PayToSaveContext): Promise<PaymentSource> {
  const log = (line: string) => (context.stderr ?? process.stderr).write(`${line}\n`)
  if (request.approve && context.environment === 'production') {
    throw new ConfigError('--approve simulates the customer, which only a sandbox or the emulator can do; the profile in use is production.', {
      reason: 'production-guard',
      hint: 'Leave out --approve (the customer approves in their bank), or use a sandbox or local profile.',
    })
  }
  const { client } = context
  let token = request.agreementToken
  if (token) log(`[1/3] Agreement ${token} (sent earlier)`)
  else {
    if (!request.agreement) throw new UsageError('payto save needs an agreement to send (--name and an account) or one already sent (--agreement)')
    const sent = await client.payto.sendAgreement(request.agreement)
    token = sent.token
    log(`[1/3] Open agreement ${token} sent to ${request.agreement.customerName} (${sent.status ?? 'Pending'})`)
  }
  if (request.approve) {
    await client.simulation.run({ SetPayToAgreementStatus: { token, status: 'Active' } })
    log("      Approved in the customer's place (simulation SetPayToAgreementStatus Active)")
  }
  await waitUntilActive(client, token, { intervalMs: request.intervalMs, timeoutMs: request.timeoutMs, resume: saveResume(token, request, context), stderr: context.stderr })
  log(`[2/3] Agreement ${token} is Active`)
  const body: Record<string, unknown> = { sourceMethod: { PayToMethod: { agreementToken: token } } }
  if (request.usageScope) body.usageScope = request.usageScope
  const source = await client.sources.create({ CreateSavedPaymentSource: body }, { context: { customerId: request.customerId } })
  log(`[3/3] Saved as payment source ${source.paymentSourceId} of customer ${request.customerId}`)
  return source
}

function saveResume(token: string, request: PayToSaveRequest, context: PayToSaveContext): string {
  const args = ['payto', 'save', '--agreement', token, '--customer', request.customerId]
  if (request.usageScope) args.push('--usage-scope', request.usageScope)
  if (context.flags.profile) args.push('--profile', context.flags.profile)
  if (context.flags['base-url']) args.push('--base-url', context.flags['base-url'])
  return commandLine(context.bin, args)
}
