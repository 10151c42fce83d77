import * as Flags from '@oclif/core/flags'

import { PayfacCommand } from '../cli/base-command.js'
import { openApiText, writeOut } from '../cli/files/openapi.js'

export default class OpenApi extends PayfacCommand<typeof OpenApi> {
  static override summary = 'Print the contract as an OpenAPI 3.1 document (JSON, or YAML with --yaml).'
  static override description =
    'Every operation of interface 3.0 with its parameters, request envelopes, answers, list headers and error body, ' +
    'made from the schemas of the embedded client when payfac was built. Import it into Postman or Insomnia, mock it ' +
    'with Prism, or generate a client from it; `payfac emulator start` serves the same document at /__emulator/openapi.json.'

  static override examples = [
    '<%= config.bin %> openapi > payfac.openapi.json',
    '<%= config.bin %> openapi --yaml > payfac.openapi.yaml',
    "<%= config.bin %> openapi | jq -r '.paths | keys[]'",
  ]

  static override flags = {
    yaml: Flags.boolean({ description: 'Print YAML instead of JSON.' }),
  }

  async run() {
    writeOut(await openApiText(this.config.root, this.flags.yaml ? 'yaml' : 'json'))
  }
}
