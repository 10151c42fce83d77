import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import { PayfacCommand } from '../../cli/base-command.js'
import { askCredentialKind, newProfileSecret, profileRow, savedMessage } from '../../cli/terminal/credentials.js'
import { checkPrefix } from '../../cli/flags/index.js'
import { checkBaseUrl } from '../../cli/validate/urls.js'
import { profileName, profileTarget } from '../../cli/terminal/profile-wizard.js'
import { profileView } from '../../output/views/profiles.js'

export default class ProfilesAdd extends PayfacCommand<typeof ProfilesAdd> {
  static override summary = 'Add a named profile: environment, base URL and credential.'
  static override description =
    'The credential is read from stdin with --credential-stdin, or asked for with hidden input on a terminal; it is never taken on the command line. It goes in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) and the profile file keeps a reference; where no keychain can be reached, or with --insecure-storage, it goes in the profile file, which only you can read (mode 0600). With --credential-command nothing secret is stored: the command is run (without a shell) each time a credential is needed, and once now to check it. Its kind is inferred from the key prefix (_sk_, _pk_, _api_) when --credential-kind is not given, and a live_ key on a sandbox or local profile (or the reverse) is refused.'

  static override examples = [
    'printenv PAYFAC_SANDBOX_KEY | <%= config.bin %> profiles add sandbox --environment sandbox --base-url https://sandbox.example.com --credential-stdin --use',
    '<%= config.bin %> profiles add live --environment production --base-url https://api.example.com --credential-command "op read op://ops/payfac/secret"',
    '<%= config.bin %> profiles add market --environment sandbox --base-url https://sandbox.example.com --marketplace-id mktp_ZqCNoNcm_22WeZ-j',
    '<%= config.bin %> profiles add sandbox    # on a terminal: asks for the environment, the base URL, then the credential',
  ]

  static override args = {
    name: Args.string({ description: 'Profile name (letters, digits, - and _); asked for on a terminal when missing.', ignoreStdin: true }),
  }
  static override flags = {
    environment: Flags.string({
      description: 'Which environment the profile is for (asked for on a terminal when missing).',
      options: ['sandbox', 'production', 'local'],
    }),
    'base-url': Flags.string({
      description: 'Base URL of that environment (asked for on a terminal when missing).',
      parse: async (v) => checkBaseUrl(v, '--base-url'),
    }),
    'credential-kind': Flags.string({ description: 'Kind of credential; inferred from the key prefix when not given.' }),
    'credential-stdin': Flags.boolean({ description: 'Read the credential from stdin.' }),
    'credential-command': Flags.string({
      description: 'A command that prints the credential, run without a shell each time one is needed; its output is never stored.',
    }),
    'insecure-storage': Flags.boolean({ description: 'Keep the credential in the profile file (mode 0600) rather than the OS keychain.' }),
    'merchant-id': Flags.string({ description: 'Default Merchant-Id.', parse: async (v) => checkPrefix(v, 'mcht', '--merchant-id') }),
    'marketplace-id': Flags.string({ description: 'Default Marketplace-Id.', parse: async (v) => checkPrefix(v, 'mktp', '--marketplace-id') }),
    'customer-id': Flags.string({ description: 'Default Customer-Id.', parse: async (v) => checkPrefix(v, 'cust', '--customer-id') }),
    'journal-url': Flags.string({
      description:
        'A shared operation journal, postgres://user@host:5432/database (the password in PGPASSWORD): runners that share it make each money operation once.',
    }),
    use: Flags.boolean({ description: 'Make it the active profile.' }),
    replace: Flags.boolean({ description: 'Replace a profile of the same name.' }),
  }

  async run() {
    const { CREDENTIAL_KINDS, ProfileStore, inferCredentialKind, maskCredential, parseProfile } = await import('../../config/index.js')
    const f = this.flags
    const name = await profileName(this.args.name, f['no-input'])
    const { environment, baseUrl } = await profileTarget(f)
    const credential = await newProfileSecret(f)
    const credentialKind = f['credential-kind'] ?? inferCredentialKind(credential) ?? (await askCredentialKind(CREDENTIAL_KINDS))
    const fields = {
      name,
      environment,
      baseUrl,
      credentialKind,
      merchantId: f['merchant-id'],
      marketplaceId: f['marketplace-id'],
      customerId: f['customer-id'],
      journalUrl: f['journal-url'],
    }
    const checked = parseProfile({ ...fields, credential }) // the key against its kind and environment
    const command = f['credential-command']
    const profile = command === undefined ? checked : parseProfile({ ...fields, credentialCommand: command })
    const store = new ProfileStore()
    const { saveProfile } = await import('../../config/secrets.js')
    const saved = await saveProfile(store, profile, { use: f.use, replace: f.replace, insecureStorage: f['insecure-storage'] })
    process.stderr.write(savedMessage(saved, store.path, Boolean(f.use)))
    return this.show(profileView, profileRow(saved.profile, store.activeName() === saved.profile.name, 'stored', maskCredential))
  }
}
