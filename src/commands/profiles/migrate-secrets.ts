import { PayfacCommand } from '../../cli/base-command.js'

export default class ProfilesMigrateSecrets extends PayfacCommand<typeof ProfilesMigrateSecrets> {
  static override summary = 'Move the credentials kept in the profile file into the OS keychain.'
  static override description =
    'Each profile whose credential is in the profile file gets it moved to the OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on Linux); the file keeps a reference and the masked key. Profiles already in the keychain or using a credential command are left as they are. All or nothing: when no keychain can be reached, nothing is moved (exit 3).'

  static override examples = ['<%= config.bin %> profiles migrate-secrets', '<%= config.bin %> profiles migrate-secrets --json']

  async run() {
    const { ProfileStore } = await import('../../config/index.js')
    const { migrateSecrets } = await import('../../config/secrets.js')
    const store = new ProfileStore()
    const moved = await migrateSecrets(store)
    process.stderr.write(
      moved.length > 0
        ? `Moved the credentials of ${moved.join(', ')} from ${store.path} into the OS keychain.\n`
        : `No credential is kept in ${store.path}; nothing to move.\n`,
    )
    if (this.flags.json) process.stdout.write(`${JSON.stringify({ moved })}\n`)
    return { moved }
  }
}
