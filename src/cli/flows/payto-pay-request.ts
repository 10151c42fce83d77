// What `payfac payto pay` is asked to do: the request its command builds, what the flow runs with,
// and the inputs a run's journal keeps (so that a re-run can tell a changed request).
import type { PayfacClient } from '../../client/client.js'
import type { SendAgreement } from '../../client/schemas/payto.js'
import type { PayToPayInputs } from '../../config/journal.js'
import type { Environment } from '../../config/profiles.js'
import { UsageError } from '../errors/index.js'
import type { ProgressStream } from '../terminal/wait.js'

export interface PayToPayRequest {
  /** Names the run; sent as the order's referenceOrderId. */
  reference: string
  /** The one-off agreement to send (built by `agreementBodyFromFlags`); not with `charge`. */
  agreement?: SendAgreement | undefined
  /** `payto charge`: no agreement is sent; this active agreement is charged `amount`. */
  charge?: { agreementToken: string; amount: { minorCurrencyUnits: number; currency: string } } | undefined
  description: string | undefined
  approve: boolean
  restart: boolean
  intervalMs: number
  timeoutMs: number
}

export interface PayToPayContext {
  client: PayfacClient
  environment: Environment
  /** The journal of this reference (config/journal.ts `journalPath`). */
  journalFile: string
  /** The command that resumes the run: the same command again. */
  resume: string
  /** Step lines and the wait's spinner. */
  stderr: ProgressStream
  /** Ctrl-C: the run stops at the next safe point (a wait at once, a request once answered and journaled). */
  signal: AbortSignal
  now?: (() => Date) | undefined
  /** A dry run: the journal is read but never written (the first changing request stops the run). */
  dryRun?: boolean | undefined
  /** The config folder's journal key (config/journal.ts journalKey): accounts are kept masked and hashed with it. */
  accountKey: Buffer
  /** The command that shows on the service what a run of this reference did. */
  check: string
  /**
   * Why this run may no longer hold the reference's lock (paused past its stale time, taken
   * over: config/op-lock.ts), or undefined: asked before each journal write and each request.
   */
  lost?: (() => string | undefined) | undefined
}

/** What a run is asked to do, as the journal keeps it: the account masked and hashed under `protect`. */
export function payToPayInputs(request: PayToPayRequest, protect: (type: string, value: string) => PayToPayInputs['account']): PayToPayInputs {
  if (request.charge) {
    // The agreement stands for the customer's account: a charge of the same reference on another
    // agreement is another request ("account" changed), refused like any changed input.
    const token = request.charge.agreementToken
    return {
      customerName: '',
      account: { type: 'Agreement', masked: token, hash: `agreement:${token}` },
      amount: request.charge.amount,
      purpose: null,
      description: request.description ?? null,
    }
  }
  if (!request.agreement) throw new UsageError('payto pay needs an agreement to send')
  const terms = request.agreement.terms
  if (!('AgreementRequestTermsOneOff' in terms)) throw new UsageError('payto pay sends a one-off agreement: give --amount and --currency')
  const { amount, currency } = terms.AgreementRequestTermsOneOff.amount
  const id = request.agreement.customerAccIdentifier
  const account = 'Bban' in id ? protect('Bban', id.Bban.value) : protect(id.Alias.aliasType, id.Alias.value)
  return {
    customerName: request.agreement.customerName,
    account,
    amount: { minorCurrencyUnits: amount, currency },
    purpose: request.agreement.purpose ?? null,
    description: request.description ?? null,
  }
}
