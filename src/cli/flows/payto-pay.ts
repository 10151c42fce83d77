// `payfac payto pay`: the contract's one-off PayTo flow as one resumable command.
//
//   1 send a one-off agreement   POST /payto/agreement                  (then, with --approve, POST /simulation)
//   2 wait until it is Active    GET /payto/agreement?token=            (every --interval, up to --timeout)
//   3 make a payment token       POST /tokens CreatePayToToken
//   4 create the order           POST /orders CreateOnlineOrder         (referenceOrderId = --reference)
//   5 pay it                     POST /orders/{id}/pay PayByPayTo
//
// At most once. Every step is journaled (config/journal.ts): as `requested` before its request
// is sent, then with what it created. A re-run reads the journal and carries on after the last
// step done; it never sends a second agreement or creates a second order, and it never pays
// without first asking the service whether the order already has a payment
// (GET /transactions?orderId=). A step whose request ended without an answer (the connection
// dropped, a timeout) or whose process died while it was in flight is looked up before it is
// tried again: the order by its referenceOrderId and the run id in its metadata, the payment by
// the order's transactions. Agreements cannot be looked up (the contract has no list), so an
// agreement request of unknown outcome stops the run until `--restart`.
import type { PayfacClient } from '../../client/client.js'
import { ApiError } from '../../client/errors.js'
import { formatMoney } from '../../client/money.js'
import type { Order } from '../../client/schemas/orders.js'
import type { Transaction } from '../../client/schemas/transactions.js'
import { ConfigError } from '../../config/errors.js'
import { type PayToPayInputs, type PayToPayRun, changedInputs, newPayToPayRun, protectAccount, readPayToPayRun } from '../../config/journal.js'
import { RefusedError, UsageError } from '../errors/index.js'
import { readForDryRun } from '../safety/dry-run.js'
import { ordersWithReference, tookNoMoney } from '../safety/order-ops.js'
import { waitUntilActive } from './agreement.js'
import { JournaledSteps } from './payto-pay-steps.js'
import { type PaymentFound, orderOfRun, paymentSummary, restartRun } from './payto-pay-restart.js'
import { type PayToPayContext, type PayToPayRequest, payToPayInputs } from './payto-pay-request.js'
import { sanitizeLine } from '../../output/sanitize.js'

export type { PayToPayContext, PayToPayRequest } from './payto-pay-request.js'

/** Runs (or resumes) the flow and returns the transaction that paid the order. */
export async function runPayToPay(request: PayToPayRequest, context: PayToPayContext): Promise<Transaction> {
  return new PayToPayFlow(request, context).run()
}

/** --approve simulates the customer: never on production (exit 3), checked before anything is read or sent. */
export function refuseApproveOnProduction(request: PayToPayRequest, environment: string): void {
  if (request.approve && environment === 'production') {
    throw new ConfigError('--approve simulates the customer, which only a sandbox or the emulator can do; the profile in use is production.', {
      reason: 'production-guard',
      hint: 'Leave out --approve (the customer approves in their bank), or use a sandbox or local profile.',
    })
  }
}

class PayToPayFlow extends JournaledSteps {
  private readonly inputs: PayToPayInputs
  private readonly client: PayfacClient
  /** A payment token was made by this process (not read from the journal of an earlier run). */
  private mintedHere = false

  constructor(
    private readonly request: PayToPayRequest,
    context: PayToPayContext,
  ) {
    super(context, request.charge ? 'payto charge' : 'payto pay', request.reference)
    this.inputs = payToPayInputs(request, (type, value) => protectAccount(context.accountKey, type, value))
    this.client = context.client
  }

  async run(): Promise<Transaction> {
    refuseApproveOnProduction(this.request, this.context.environment)
    const found = readPayToPayRun(this.context.journalFile, this.context.accountKey, this.context.check)
    if (found && this.request.restart) this.run_ = await this.restart(found)
    else if (found) this.run_ = this.checkSameInputs(found)
    else this.run_ = newPayToPayRun(this.request.reference, this.inputs, this.now())
    this.log(`${this.name} ${this.request.reference}: journal ${this.context.journalFile}`)
    if (!found) {
      const paidElsewhere = await readForDryRun(this.context.dryRun ?? false, `orders with reference ${this.request.reference}`, () => this.lookOnService())
      if (paidElsewhere) return paidElsewhere
    }

    const payment = this.run_.payment
    if (payment?.state === 'paid' && payment.transactionId) {
      throw this.alreadyPaid(`transaction ${payment.transactionId} (${payment.status ?? 'paid'})`)
    }
    await this.ensureAgreement()
    this.checkpoint('the agreement was sent')
    const known = this.run_.order?.orderId ?? (this.run_.order ? await this.adoptOrder() : undefined)
    if (known) {
      const paid = await this.findPayment(known)
      if (paid) return this.finish(this.ownPayment(paid))
    }
    if (!this.run_.paymentToken) await this.mintToken()
    this.checkpoint('the payment token was made')
    const orderId = known ?? (await this.ensureOrder())
    this.checkpoint('the order was created')
    return this.finish(await this.pay(orderId))
  }

  // ---------------------------------------------------------------------------------------------
  // Steps

  private async ensureAgreement(): Promise<string> {
    const recorded = this.run_.agreement
    const given = this.request.charge?.agreementToken
    if (given && !recorded?.token) {
      // payto charge: the agreement exists and was approved by the customer; nothing is sent.
      this.run_.agreement = { state: 'sent', token: given, approved: true, at: this.stamp() }
      this.save()
      this.log(`[1/5] Agreement ${given} (given: charging it)`)
    } else if (recorded?.token) {
      this.log(`[1/5] Agreement ${recorded.token} (sent by an earlier run)`)
    } else if (recorded) {
      throw new UsageError(
        `The agreement request of run "${this.request.reference}" ended without an answer, so it may have reached the customer, and agreements cannot be looked up`,
        'If no request reached the customer, start over with --restart (a new agreement is sent)',
      )
    } else {
      this.run_.agreement = { state: 'requested', token: null, approved: false, at: this.stamp() }
      this.save()
      const sent = await this.attempt(
        () => this.client.payto.sendAgreement(this.request.agreement!),
        () => {
          this.run_.agreement = { ...this.run_.agreement!, state: 'unknown' }
          this.log('[1/5] Agreement outcome unknown: the request ended without an answer (recorded in the journal).')
        },
        () => {
          this.run_.agreement = null
        },
      )
      this.run_.agreement = { state: 'sent', token: sent.token, approved: false, at: this.stamp() }
      this.save()
      this.log(`[1/5] Agreement ${sent.token} sent to ${this.inputs.customerName} (${sent.status ?? 'Pending'})`)
    }
    const agreement = this.run_.agreement!
    const token = agreement.token!
    if (this.request.approve && !agreement.approved && !this.run_.paymentToken) {
      await this.client.simulation.run({ SetPayToAgreementStatus: { token, status: 'Active' } })
      this.run_.agreement = { ...agreement, approved: true }
      this.save()
      this.log("      Approved in the customer's place (simulation SetPayToAgreementStatus Active)")
    }
    return token
  }

  private async waitActive(token: string): Promise<void> {
    try {
      await waitUntilActive(this.client, token, {
        intervalMs: this.request.intervalMs,
        timeoutMs: this.request.timeoutMs,
        resume: this.context.resume,
        signal: this.context.signal,
        stderr: this.context.stderr,
      })
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        this.log(`The service does not know agreement ${token} of the journal (was the emulator restarted?): start over with --restart.`)
      }
      throw error
    }
    this.log(`[2/5] Agreement ${token} is Active`)
  }

  private async mintToken(): Promise<string> {
    const agreementToken = this.run_.agreement!.token!
    await this.waitActive(agreementToken)
    const made = await this.client.tokens.create({ CreatePayToToken: { amount: this.inputs.amount, agreementToken } })
    if (made.kind !== 'PayToToken') throw new RefusedError(`POST /tokens answered ${made.kind} instead of a PayToToken`)
    const paymentTokenId = made.token.paymentTokenId
    this.mintedHere = true
    this.run_.paymentToken = { paymentTokenId, at: this.stamp() }
    this.save()
    this.log(`[3/5] Payment token ${paymentTokenId} for ${formatMoney(this.inputs.amount)}`)
    return paymentTokenId
  }

  private async ensureOrder(): Promise<string> {
    const existing = (await ordersWithReference(this.client, this.request.reference))[0]
    if (existing) return this.adoptExisting(existing)
    this.run_.order = { state: 'requested', orderId: null, at: this.stamp() }
    this.save()
    const body: Record<string, unknown> = {
      referenceOrderId: this.request.reference,
      amount: this.inputs.amount,
      metadata: { payfacRun: this.run_.runId },
    }
    if (this.inputs.description !== null) body.description = this.inputs.description
    const order = await this.attempt(
      () => this.client.orders.create({ CreateOnlineOrder: body }),
      () => {
        this.run_.order = { ...this.run_.order!, state: 'unknown' }
        this.log('[4/5] Order outcome unknown: the request ended without an answer (recorded; a re-run looks for it first).')
      },
      () => {
        this.run_.order = null
      },
    )
    this.run_.order = { state: 'created', orderId: order.orderId, at: this.stamp() }
    this.save()
    this.log(`[4/5] Order ${order.orderId} created (reference ${this.request.reference})`)
    return order.orderId
  }

  /**
   * A run with no journal here may have run under another journal (another config folder,
   * machine or credential for the same service): an order with this reference that is paid ends
   * the run; one that is not is adopted (same amount) instead of creating another.
   */
  private async lookOnService(): Promise<Transaction | undefined> {
    const orders = await ordersWithReference(this.client, this.request.reference)
    for (const order of orders) {
      const paid = await this.findPayment(order.orderId)
      if (!paid) continue
      throw this.alreadyPaid(`order ${order.orderId} is already paid by transaction ${paid.transactionId} (${paid.status}), found on the service`)
    }
    if (orders[0]) this.adoptExisting(orders[0])
    return undefined
  }

  /** An unpaid order of the service that has this run's reference becomes the run's order (same amount only). */
  private adoptExisting(order: Order): string {
    const amount = order.amount
    if (
      amount &&
      (amount.minorCurrencyUnits !== this.inputs.amount.minorCurrencyUnits || amount.currency.toUpperCase() !== this.inputs.amount.currency.toUpperCase())
    ) {
      throw new UsageError(
        `Order ${order.orderId} already has reference ${this.request.reference}, for ${formatMoney(amount)} instead of ${formatMoney(this.inputs.amount)}`,
        'Choose a new --reference',
      )
    }
    this.run_.order = { state: 'created', orderId: order.orderId, at: this.stamp() }
    this.save()
    this.log(`[4/5] Order ${order.orderId} has reference ${this.request.reference} already (found on the service): it will be paid, not created again.`)
    return order.orderId
  }

  /** An order whose creation was not recorded: found by its reference and this run's id, or none. */
  private async adoptOrder(): Promise<string | undefined> {
    const order = await this.findOrder(this.run_.runId)
    if (!order) {
      this.run_.order = null
      this.save()
      this.log('[4/5] The earlier order request did not create an order; creating it now.')
      return undefined
    }
    this.run_.order = { state: 'created', orderId: order.orderId, at: this.stamp() }
    this.save()
    this.log(`[4/5] Order ${order.orderId} (created by an earlier run whose answer was lost)`)
    return order.orderId
  }

  private async pay(orderId: string): Promise<{ transactionId: string; status: string }> {
    for (;;) {
      const paid = await this.findPayment(orderId)
      if (paid) return this.ownPayment(paid)
      const fromEarlierRun = this.run_.paymentToken !== null && !this.mintedHere
      const paymentTokenId = this.run_.paymentToken?.paymentTokenId ?? (await this.mintToken())
      this.checkpoint('the payment token was made')
      this.run_.payment = { state: 'requested', transactionId: null, status: null, at: this.stamp() }
      this.save()
      try {
        const result = await this.attempt(
          () => this.client.orders.pay(orderId, { PayByPayTo: { paymentTokenId } }),
          () => {
            this.run_.payment = { ...this.run_.payment!, state: 'unknown' }
            this.log(
              '[5/5] Pay outcome unknown: the request ended without an answer. It is recorded in the journal: run the same command again, and it looks for the payment before paying.',
            )
          },
          () => {
            // The service answered: nothing was paid, and the token may be used up.
            this.run_.payment = null
            this.run_.paymentToken = null
          },
        )
        if (result.kind !== 'PayOrderComplete')
          throw new RefusedError(`The service asked for a 3DS challenge (${result.kind}), which a PayTo payment cannot answer`)
        return { transactionId: result.transaction.transactionId, status: result.transaction.transactionStatus ?? 'paid' }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        if (error.status === 409 && error.errorCode === 'order_already_paid') {
          // This run's request was answered "already paid": another run paid the order meanwhile.
          const found = await this.findPayment(orderId)
          if (found) throw this.alreadyPaid(`order ${orderId} was paid meanwhile by another run: transaction ${found.transactionId} (${found.status})`)
        }
        // A token journaled by an earlier run may have expired or been used: one more try with a new one.
        if (fromEarlierRun && (error.status === 409 || error.status === 422)) {
          this.log(`      Payment token ${paymentTokenId} of an earlier run was refused (${error.errorCode ?? error.status}); making a new one.`)
          continue
        }
        throw error
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Look before acting

  /** The order's transaction that took money, if there is one. */
  private findPayment(orderId: string): Promise<PaymentFound | undefined> {
    return paymentSummary(this.client, orderId)
  }

  /** The order a run created: same reference, and the run's id in its metadata; not cancelled. */
  private findOrder(runId: string): Promise<Order | undefined> {
    return orderOfRun(this.client, this.request.reference, runId)
  }

  private async finish(paid: { transactionId: string; status: string }): Promise<Transaction> {
    if (tookNoMoney(paid.status)) {
      // Answered, and nothing was paid: the journal forgets the attempt, so that a re-run pays anew.
      this.run_.payment = null
      this.run_.paymentToken = null
      this.save()
      throw new RefusedError(
        `The service answered the payment with transaction ${paid.transactionId} ${sanitizeLine(paid.status)}: no money moved. Run the same command again to try again.`,
      )
    }
    this.run_.payment = { state: 'paid', transactionId: paid.transactionId, status: paid.status, at: this.stamp() }
    this.save()
    this.log(`[5/5] Paid: transaction ${paid.transactionId} (${paid.status})`)
    return this.client.transactions.get(paid.transactionId)
  }

  /**
   * A payment found on the order is this run's only when this run's journal asked for one (its
   * answer lost, or a crash in flight): then it is reported as done (exit 0). Otherwise another
   * run paid it (an order adopted from the service, or this run's order paid by a runner of
   * another config folder): exit 6 naming it, as every loser of a race.
   */
  private ownPayment(paid: PaymentFound): PaymentFound {
    if (this.run_.payment !== null || tookNoMoney(paid.status)) return paid
    throw this.alreadyPaid(`order ${this.run_.order?.orderId ?? ''} was paid by another run: transaction ${paid.transactionId} (${paid.status})`)
  }

  /** The one rule: a payment already made is exit 6 naming it. A reference names one payment. */
  private alreadyPaid(what: string): RefusedError {
    return new RefusedError(
      `An identical ${this.name} of reference ${this.request.reference} was already made: ${what}; nothing was sent. ` +
        'A reference names one payment: for another payment, use a new --reference.',
    )
  }

  // ---------------------------------------------------------------------------------------------
  // Restart and inputs

  private checkSameInputs(run: PayToPayRun): PayToPayRun {
    const changed = changedInputs(run.inputs, this.inputs)
    if (changed.length > 0) {
      throw new UsageError(
        `Run "${run.reference}" was started with another ${changed.join(', ')} (journal ${this.context.journalFile})`,
        'Run it again with the same inputs to resume it, use --restart to start over, or choose a new --reference',
      )
    }
    return run
  }

  /** Starts over (payto-pay-restart.ts). */
  private restart(old: PayToPayRun): Promise<PayToPayRun> {
    return restartRun(old, {
      client: this.client,
      inputs: this.inputs,
      journalFile: this.context.journalFile,
      dryRun: this.context.dryRun ?? false,
      log: (line) => this.log(line),
      now: () => this.now(),
    })
  }
}
