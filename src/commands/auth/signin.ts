import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { checkPrefix } from '../../cli/flags/index.js'
import { readDataObject } from '../../cli/files/input.js'
import { signInEnvelope } from '../../cli/requests/auth.js'
import { signInView } from '../../output/views/auth.js'

const WAYS = ['customer', 'delegate', 'delegate-reference', 'data']

export default class AuthSignin extends ApiCommand<typeof AuthSignin> {
  static override summary = 'Sign in for the checkout on behalf of a customer or a customer delegate.'
  static override description =
    "Sends POST /auth/signin with SignInConsumer (--customer), SignInDelegate (--delegate) or SignInDelegateByReferenceId (--delegate-reference with --email: the organisation's referenceCustomerId and the delegate's e-mail address). Give exactly one of them, or the whole envelope with --data. Prints customerId, customerDelegateId and customToken: the customToken is a credential for the checkout session, so hand it only to the checkout."

  static override examples = [
    '<%= config.bin %> auth signin --customer cust_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> auth signin --delegate custd_Pq3x8sK1mZ0aB2cD --json',
    '<%= config.bin %> auth signin --delegate-reference acme-01 --email jo@acme.example --merchant-id mcht_ZqCNoNcm_22WeZ-j',
    `<%= config.bin %> auth signin --data '{"SignInDelegate":{"customerDelegateId":"custd_Pq3x8sK1mZ0aB2cD"}}'`,
  ]

  static override flags = {
    customer: Flags.string({
      description: 'Sign in as this consumer customer (SignInConsumer).',
      exactlyOne: WAYS,
      parse: async (input) => checkPrefix(input, 'cust', '--customer'),
    }),
    delegate: Flags.string({
      description: 'Sign in as this customer delegate (SignInDelegate).',
      exactlyOne: WAYS,
      parse: async (input) => checkPrefix(input, 'custd', '--delegate'),
    }),
    'delegate-reference': Flags.string({
      description: "Sign in a delegate by the organisation's referenceCustomerId (SignInDelegateByReferenceId); needs --email.",
      exactlyOne: WAYS,
      dependsOn: ['email'],
    }),
    email: Flags.string({ description: "The delegate's e-mail address (with --delegate-reference).", dependsOn: ['delegate-reference'] }),
    data: Flags.string({ description: 'The whole sign-in envelope as JSON ({"SignInDelegate": {…}}): text, @file, or - for stdin.', exactlyOne: WAYS }),
  }

  async run() {
    const data = this.flags.data ? await readDataObject(this.flags.data) : undefined
    const { envelope, warnings } = signInEnvelope(this.flags, data)
    for (const line of warnings) process.stderr.write(`${line}\n`)
    const client = await this.client()
    return this.show(signInView, await client.auth.signIn(envelope))
  }
}
