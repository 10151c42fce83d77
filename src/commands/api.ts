import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../cli/base-command.js'
import { dataFlag } from '../cli/flags/index.js'
import { readData } from '../cli/files/input.js'
import { UsageError } from '../cli/errors/index.js'
import { operationRows, unknownOperationNote } from '../cli/requests/operations.js'
import { checkBodyAllowed, checkMethod, parseHeaders, splitPath } from '../cli/requests/raw.js'
import { genericView, rawView } from '../output/views/generic.js'

export default class Api extends ApiCommand<typeof Api> {
  static override summary = 'Call any operation of the service directly and print its JSON answer.'
  static override description =
    'The escape hatch for operations whose bodies the contract does not show. Uses the same profile, credential, context headers, errors and exit codes as every other command. POST and PATCH are never retried. --list prints the operations of the interface; a method and path the interface lacks is said so on stderr (and sent anyway: a sandbox may have more).'

  static override examples = [
    '<%= config.bin %> api --list',
    '<%= config.bin %> api GET /merchants/industries',
    '<%= config.bin %> api GET "/transactions?status=paid" --paginate',
    `<%= config.bin %> api POST /simulation --data '{"AdvanceClock":{"seconds":60}}'`,
    "<%= config.bin %> api PATCH /orders/ordr_ZqCNoNcm_22WeZ-j -H 'Merchant-Id: mcht_ZqCNoNcm_22WeZ-j' --data @update.json",
  ]

  static override args = {
    method: Args.string({ description: 'HTTP method: GET, POST, PUT, PATCH or DELETE.', parse: async (m) => checkMethod(m) }),
    path: Args.string({ description: 'Path with an optional query, such as /orders?status=paid.' }),
  }

  static override flags = {
    data: dataFlag('Request body as JSON: text, @file, or - for stdin.'),
    header: Flags.string({ char: 'H', description: 'Extra header "Name: value" (repeatable).', multiple: true }),
    paginate: Flags.boolean({ description: 'Walk every page of a list and print one JSON array.' }),
    list: Flags.boolean({
      description: 'Print the operations of the interface (method, path, what it does) and send nothing.',
      exclusive: ['data', 'paginate'],
    }),
  }

  async run() {
    if (this.flags.list) return this.showAll(genericView('operation'), operationRows())
    const { method } = this.args
    if (!method || !this.args.path)
      throw new UsageError('Give a method and a path, such as GET /orders', `Or ${this.config.bin} api --list for the operations of the interface`)
    const { path, query } = splitPath(this.args.path)
    const note = unknownOperationNote(method, path, this.config.bin)
    if (note) process.stderr.write(`Note: ${note}\n`)
    checkBodyAllowed(method, this.flags.data)
    const headers = parseHeaders(this.flags.header)
    const body = this.flags.data === undefined ? undefined : await readData(this.flags.data)
    const client = await this.client()
    if (this.flags.paginate) return this.showAll(rawView, client.iterate(path, query, { call: { headers } }), 'json')
    const answer = await client.request({ method: method, path, query, headers, body })
    return this.show(rawView, answer.body, 'json')
  }
}
