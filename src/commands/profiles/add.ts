import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { PayfacCommand } from '../../cli/base-command.js'
import { askCredentialKind, profileRow, readCredential } from '../../cli/terminal/credentials.js'
import { checkBaseUrl, checkPrefix } from '../../cli/flags/index.js'
import { profileName, profileTarget } from '../../cli/terminal/profile-wizard.js'
import { profileView } from '../../output/views/profiles.js'

export default class ProfilesAdd extends PayfacCommand<typeof ProfilesAdd> {
  static override summary = 'Add a named profile: environment, base URL and credential.'
  static override description =
    'The credential is read from stdin with --credential-stdin, or asked for with hidden input on a terminal; it is never taken on the command line. It is stored in a file only you can read (mode 0600). Its kind is inferred from the key prefix (_sk_, _pk_, _api_) when --credential-kind is not given, and a live_ key on a sandbox or local profile (or the reverse) is refused.'

  static override examples = [
    'printenv PAYFAC_SANDBOX_KEY | <%= config.bin %> profiles add sandbox --environment sandbox --base-url https://sandbox.example.com --credential-stdin --use',
    '<%= config.bin %> profiles add market --environment sandbox --base-url https://sandbox.example.com --marketplace-id mktp_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> profiles add sandbox    # on a terminal: asks for the environment, the base URL, then the credential',
  ]

  static override args = { name: Args.string({ description: 'Profile name (letters, digits, - and _); asked for on a terminal when missing.', ignoreStdin: true }) }
  static override flags = {
    environment: Flags.string({ description: 'Which environment the profile is for (asked for on a terminal when missing).', options: ['sandbox', 'production', 'local'] }),
    'base-url': Flags.string({ description: 'Base URL of that environment (asked for on a terminal when missing).', parse: async (v) => checkBaseUrl(v, '--base-url') }),
    'credential-kind': Flags.string({ description: 'Kind of credential; inferred from the key prefix when not given.' }),
    'credential-stdin': Flags.boolean({ description: 'Read the credential from stdin.' }),
    'merchant-id': Flags.string({ description: 'Default Merchant-Id.', parse: async (v) => checkPrefix(v, 'mcht', '--merchant-id') }),
    'marketplace-id': Flags.string({ description: 'Default Marketplace-Id.', parse: async (v) => checkPrefix(v, 'mktp', '--marketplace-id') }),
    'customer-id': Flags.string({ description: 'Default Customer-Id.', parse: async (v) => checkPrefix(v, 'cust', '--customer-id') }),
    use: Flags.boolean({ description: 'Make it the active profile.' }),
    replace: Flags.boolean({ description: 'Replace a profile of the same name.' }),
  }

  async run() {
    const { CREDENTIAL_KINDS, ProfileStore, inferCredentialKind, maskCredential, parseProfile } = await import('../../config/index.js')
    const f = this.flags
    const name = await profileName(this.args.name, f['no-input'])
    const { environment, baseUrl } = await profileTarget(f)
    const credential = await readCredential(f['credential-stdin'], f['no-input'])
    const credentialKind = f['credential-kind'] ?? inferCredentialKind(credential) ?? (await askCredentialKind(CREDENTIAL_KINDS))
    const profile = parseProfile({
      name, environment, baseUrl, credentialKind, credential,
      merchantId: f['merchant-id'], marketplaceId: f['marketplace-id'], customerId: f['customer-id'],
    })
    const store = new ProfileStore()
    await store.add(profile, { use: f.use, replace: f.replace })
    process.stderr.write(`Saved profile "${profile.name}" in ${store.path}${f.use ? ' and made it active' : ''}.\n`)
    return this.show(profileView, profileRow(profile, store.activeName() === profile.name, 'stored', maskCredential))
  }
}
