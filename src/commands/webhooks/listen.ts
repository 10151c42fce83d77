import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { idFlag } from '../../cli/flags/index.js'
import { webhookSecret, webhookSecretFlag } from '../../cli/flags/secret.js'
import { listenForWebhooks } from '../../cli/flows/webhooks-listen.js'
import { checkEventName } from '../../cli/requests/webhooks.js'
import { checkForwardUrl } from '../../cli/requests/webhooks-local.js'

export default class WebhooksListen extends ApiCommand<typeof WebhooksListen> {
  static override summary = 'Receive webhook deliveries on this machine: show, verify and forward each one.'
  static override description =
    'Listens on 127.0.0.1 (--port 0 picks a free port). Against a local or sandbox profile it creates a subscription to ' +
    "http://127.0.0.1:<port>/ for --events (default: every event the emulator sends), checks each delivery's " +
    "Webhook-Signature with that subscription's secret, and suspends the subscription when it stops (Ctrl-C or SIGTERM). " +
    '--subscription uses an existing subscription instead and leaves it as it is (--secret checks its signatures). One ' +
    'line per delivery on stdout (time, event, ids, signature ok or BAD, forward status), or one JSON object a line with ' +
    "--json. --forward-to sends each delivery on with its headers and raw body, and answers the sender with the handler's " +
    'status, so retries reach your handler; a delivery with a bad signature is answered 401 and not forwarded. It fails ' +
    "closed: with no secret (from --secret, the subscription, or a local emulator's control plane) it does not start (exit 2); " +
    '--skip-verify starts without checks, with a warning on stderr for each delivery, and is refused against production (exit 3). ' +
    'A Webhook-Delivery-Id already acknowledged within the 5-minute signature tolerance is answered 200 and not forwarded again.'

  static override examples = [
    '<%= config.bin %> webhooks listen',
    '<%= config.bin %> webhooks listen --port 8787 --events TransactionPaid --events TransactionRefunded --forward-to http://127.0.0.1:3000/webhooks',
    '<%= config.bin %> webhooks listen --subscription webhook_Gh2jK4lM6nP8qR0s --secret "$WEBHOOK_SECRET" --json',
  ]

  static override flags = {
    port: Flags.integer({ description: 'Port on 127.0.0.1 to listen on; 0 picks a free one.', default: 0, min: 0, max: 65_535 }),
    events: Flags.string({
      description: 'Only these events, such as TransactionPaid (repeatable).',
      multiple: true,
      parse: async (input) => checkEventName(input),
    }),
    'forward-to': Flags.string({
      description: 'Send each delivery on to this URL, headers and raw body as received.',
      parse: async (input) => checkForwardUrl(input),
    }),
    secret: webhookSecretFlag("The subscription's secret, to check signatures (default: the secret of the subscription created or given)."),
    subscription: idFlag('webhook', 'Use this existing subscription (webhook_…) instead of creating one.'),
    'skip-verify': Flags.boolean({
      description: 'Accept and forward deliveries without checking signatures (warns on each; never against production).',
      default: false,
    }),
  }

  async run() {
    const f = this.flags
    const secret = await webhookSecret(f.secret, { stdinFree: true, required: false })
    const options = {
      port: f.port,
      events: f.events,
      forwardTo: f['forward-to'],
      secret,
      subscriptionId: f.subscription,
      skipVerify: f['skip-verify'],
      json: Boolean(f.json || f.jsonl),
    }
    const context = { client: await this.client(), settings: await this.settings(), stdout: process.stdout, stderr: process.stderr }
    await listenForWebhooks(options, context)
  }
}
