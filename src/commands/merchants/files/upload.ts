import * as Flags from '@oclif/core/flags'

import { ApiCommand } from '../../../cli/base-command.js'
import { idArg } from '../../../cli/flags/index.js'
import { merchantFileArg, readMerchantFile } from '../../../cli/flags/merchants.js'
import { fileFormFields } from '../../../cli/requests/merchants.js'
import { merchantFileView } from '../../../output/views/merchants.js'

export default class MerchantsFilesUpload extends ApiCommand<typeof MerchantsFilesUpload> {
  static override summary = 'Upload a document scan for the onboarding profile (JPEG, PNG or PDF, at most 10 MB).'
  static override description =
    'Sends POST /merchants/{merchantId}/files as multipart/form-data, the file in the part named "file". The type is checked by the file\'s content (not its name) and the size before anything is sent. Never retried automatically.'

  static override examples = [
    '<%= config.bin %> merchants files upload mcht_ZqCNoNcm_22WeZ-j ./licence.pdf',
    '<%= config.bin %> merchants files upload mcht_ZqCNoNcm_22WeZ-j ./id-front.jpg --purpose IdentityDocument --json',
  ]

  static override args = {
    merchantId: idArg('mcht', 'Merchant id (mcht_…).'),
    path: merchantFileArg(),
  }

  static override flags = {
    purpose: Flags.string({ description: 'What the document is, sent as the form field "purpose".' }),
    field: Flags.string({ description: 'Another form field as name=value (repeatable).', multiple: true }),
  }

  async run() {
    const fields = fileFormFields(this.flags.purpose, this.flags.field)
    const upload = await readMerchantFile(this.args.path, fields)
    const client = await this.client()
    return this.show(merchantFileView, await client.merchants.uploadFile(this.args.merchantId, upload))
  }
}
