import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../cli/base-command.js'
import { CONTROL_PATH, controlHeaders, namespaceFlag } from '../../cli/flags/emulator.js'
import { requestLogView, type RequestLogRow } from '../../output/views/emulator.js'

export default class EmulatorRequests extends ApiCommand<typeof EmulatorRequests> {
  static override summary = 'List the last requests a running emulator answered.'
  static override description =
    'The emulator keeps the last 1000 requests of each namespace (a ring buffer): method, path, status, time taken, ' +
    'the fault applied, the unknown fields a lenient emulator accepted (Warning), and with --json the headers and the start of both bodies, credentials and secrets masked. ' +
    'Control-plane calls (/__emulator) are not logged.'

  static override examples = [
    '<%= config.bin %> emulator requests',
    '<%= config.bin %> emulator requests --limit 200 --json',
    '<%= config.bin %> emulator requests --namespace ci-run-42 --columns method,url,status',
  ]

  static override flags = {
    namespace: namespaceFlag,
    limit: Flags.integer({ description: 'How many of the newest requests to show (1 to 1000).', min: 1, max: 1000, default: 50 }),
  }

  async run() {
    const client = await this.client()
    const answer = await client.request<RequestLogRow[]>({
      method: 'GET',
      path: `${CONTROL_PATH}/requests`,
      query: { limit: this.flags.limit },
      headers: controlHeaders(this.flags.namespace),
    })
    return this.showAll(requestLogView, answer.body)
  }
}
