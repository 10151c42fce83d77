import * as Args from '@oclif/core/args'

import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { checkIdText } from '../../../cli/validate/index.js'
import { merchantFileView } from '../../../output/views/merchants.js'

export default class MerchantsFilesGet extends ApiCommand<typeof MerchantsFilesGet> {
  static override summary = 'Show the details of an onboarding file.'
  static override examples = [
    '<%= config.bin %> merchants files get mcht_ZqCNoNcm_22WeZ-j file_Pq3x8sK1mZ0aB2cD',
    '<%= config.bin %> merchants files get mcht_ZqCNoNcm_22WeZ-j file_Pq3x8sK1mZ0aB2cD --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
    fileId: Args.string({ description: 'File id, as the upload printed it.', required: true, parse: async (input) => checkIdText(input, 'The file id') }),
  }

  async run() {
    const client = await this.client()
    return this.show(merchantFileView, await client.merchants.getFile(this.args.merchantId, this.args.fileId))
  }
}
