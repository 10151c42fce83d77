import * as Flags from '@oclif/core/flags'

import { PayfacCommand } from '../../cli/base-command.js'
import { durationMs } from '../../cli/validate/durations.js'
import { webhookSecret, webhookSecretFlag } from '../../cli/flags/secret.js'
import { checkSignature, readRawStdin } from '../../cli/flows/webhooks-verify.js'
import { signatureCheckView } from '../../output/views/webhooks-local.js'
import { checkedBy } from '../../cli/flags/checked.js'

export default class WebhooksVerify extends PayfacCommand<typeof WebhooksVerify> {
  static override summary = "Check a delivery's Webhook-Signature against its raw body (on stdin)."
  static override description =
    "The header is `t=<unix seconds>,v1=<hex>`, where v1 is the HMAC-SHA256, keyed with the subscription's secret, of " +
    '`<t>.<raw body>` (the scheme of the emulator; docs/emulator.md, "Signatures"). The body is read from stdin byte for ' +
    'byte: give the bytes as received, not JSON formatted again. Exit 0 when the signature is valid; 6 when it is not, with ' +
    'the reason: bad format, wrong signature (another body, timestamp or secret), or a timestamp further than ' +
    "--timestamp-tolerance from this machine's clock (an old or replayed delivery). Nothing is sent anywhere. The same " +
    'check is in the library: verifyWebhookSignature(secret, header, rawBody) from payfac.'

  static override examples = [
    '<%= config.bin %> webhooks verify --secret whsec_localTestSecret --signature "t=1740823202,v1=5f0c…" < delivery.json',
    'PAYFAC_WEBHOOK_SECRET="$WEBHOOK_SECRET" <%= config.bin %> webhooks verify --signature "$SIGNATURE" --timestamp-tolerance 1h --json < delivery.json',
  ]

  static override flags = {
    secret: webhookSecretFlag("The subscription's secret (from `webhooks create`, or `webhooks get --show-secret`)."),
    signature: Flags.string({ description: 'The Webhook-Signature header as received: t=<unix seconds>,v1=<hex>.', required: true }),
    'timestamp-tolerance': Flags.string({
      description: "How far the signature time may be from this machine's clock, such as 5m or 1h.",
      default: '5m',
      parse: checkedBy((input) => durationMs(input, '--timestamp-tolerance')),
    }),
  }

  async run() {
    const secret = (await webhookSecret(this.flags.secret, { stdinFree: false, required: true })) as string
    const body = await readRawStdin()
    const tolerance = durationMs(this.flags['timestamp-tolerance'], '--timestamp-tolerance')
    return this.show(signatureCheckView, checkSignature(secret, this.flags.signature, body, tolerance))
  }
}
