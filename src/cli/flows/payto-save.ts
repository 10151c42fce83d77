// `payfac payto save`: the contract's open PayTo flow as one command: send an open agreement (or
// take one already sent), wait until the customer approves it, then save it as the customer's
// payment source (POST /sources CreateSavedPaymentSource, Customer-Id = the customer).
//
// A wait that times out or is interrupted names the command that carries on with the same
// agreement (`payto save --agreement …`). The save itself goes through the operation journal
// (safety/journal-ops.ts): after a lost answer, a re-run looks among the customer's sources
// for one made from the agreement before saving it again.
import type { PayfacClient } from '../../client/client.js'
import type { SendAgreement } from '../../client/schemas/payto.js'
import type { PaymentSource } from '../../client/schemas/sources.js'
import { ConfigError } from '../../config/errors.js'
import type { Environment } from '../../config/profiles.js'
import { UsageError } from '../errors/index.js'
import type { ProgressStream } from '../terminal/wait.js'
import { waitUntilActive } from './agreement.js'
import type { SafetySession } from '../safety/session.js'
import { commandLine } from '../runtime/interrupt.js'

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
  /** The command's safety session: the save is journaled through it. */
  safety?: SafetySession | undefined
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
  await waitUntilActive(client, token, {
    intervalMs: request.intervalMs,
    timeoutMs: request.timeoutMs,
    resume: saveResume(token, request, context),
    stderr: context.stderr,
  })
  log(`[2/3] Agreement ${token} is Active`)
  const body: Record<string, unknown> = { sourceMethod: { PayToMethod: { agreementToken: token } } }
  if (request.usageScope) body.usageScope = request.usageScope
  const call = { context: { customerId: request.customerId } }
  const save = () => client.sources.create({ CreateSavedPaymentSource: body }, call)
  const source = context.safety ? await saveOnce(context.safety, client, token, request.customerId, save) : await save()
  log(`[3/3] Saved as payment source ${source.paymentSourceId} of customer ${request.customerId}`)
  return source
}

/** The save at most once: after a lost answer, the customer's source made from the agreement is looked for. */
async function saveOnce(
  safety: SafetySession,
  client: PayfacClient,
  token: string,
  customerId: string,
  save: () => Promise<PaymentSource>,
): Promise<PaymentSource> {
  const { runOperation } = await import('../safety/journal-ops.js')
  return runOperation<PaymentSource>(safety, {
    key: { kind: 'payto-save', target: token, reference: customerId },
    action: `saving of agreement ${token} as a payment source of customer ${customerId}`,
    check: `${safety.bin} sources list --customer ${customerId}`,
    look: `a source holding the agreement; to finish, run ${safety.bin} payto save --agreement ${token} --customer ${customerId}, which looks before saving`,
    reconcile: async () => {
      const uid = (await client.payto.agreement(token)).agreementUid
      if (typeof uid !== 'string') return 'cannot-tell'
      const page = await client.sources.list({ customerId, limit: 100 }, { context: { customerId } })
      const made = page.items.find((s) => s.sourceMethod?.PayToMethodResp?.agreementUid === uid)
      return made ? { found: made, note: `payment source ${made.paymentSourceId} holds agreement ${token}` } : 'absent'
    },
    send: save,
    resultId: (s) => s.paymentSourceId ?? undefined,
  })
}

function saveResume(token: string, request: PayToSaveRequest, context: PayToSaveContext): string {
  const args = ['payto', 'save', '--agreement', token, '--customer', request.customerId]
  if (request.usageScope) args.push('--usage-scope', request.usageScope)
  if (context.flags.profile) args.push('--profile', context.flags.profile)
  if (context.flags['base-url']) args.push('--base-url', context.flags['base-url'])
  return commandLine(context.bin, args)
}
