// Flags shared by the PayTo commands that send an agreement (`payto agree`, `payto pay`,
// `payto save`): the customer's name and exactly one account identifier.
import * as Flags from '@oclif/core/flags'

const IDENTIFIERS = ['bban', 'phone', 'email', 'abn', 'acn', 'arbn', 'arsn', 'org-id']
const others = (flag: string) => IDENTIFIERS.filter((f) => f !== flag)

/** `--name` and one of `--bban`, `--phone`, `--email`, `--abn`, `--acn`, `--arbn`, `--arsn`, `--org-id`. */
export function agreementAccountFlags(options: { nameRequired?: boolean; exclusiveWith?: string[] } = {}) {
  const also = options.exclusiveWith ?? []
  return {
    name: Flags.string({ description: "The customer's name (customerName).", required: options.nameRequired ?? true, exclusive: also }),
    bban: Flags.string({ description: 'BSB and account number, such as "062-000 12345678".', exclusive: [...others('bban'), ...also] }),
    phone: Flags.string({ description: 'Phone alias, E.164 (+61412345678).', exclusive: [...others('phone'), ...also] }),
    email: Flags.string({ description: 'E-mail address alias.', exclusive: [...others('email'), ...also] }),
    abn: Flags.string({ description: 'Australian Business Number alias (11 digits).', exclusive: [...others('abn'), ...also] }),
    acn: Flags.string({ description: 'Australian Company Number alias (9 digits).', exclusive: [...others('acn'), ...also] }),
    arbn: Flags.string({ description: 'Australian Registered Body Number alias (9 digits).', exclusive: [...others('arbn'), ...also] }),
    arsn: Flags.string({ description: 'Australian Registered Scheme Number alias (9 digits).', exclusive: [...others('arsn'), ...also] }),
    'org-id': Flags.string({ description: 'Organisation identifier alias.', exclusive: [...others('org-id'), ...also] }),
  }
}

/** `--approve`: on a sandbox or the emulator, approve the agreement in the customer's place. */
export const approveFlag = Flags.boolean({
  description:
    "Sandbox or emulator only: approve the agreement in the customer's place (POST /simulation SetPayToAgreementStatus Active) right after sending it. Refused on a production profile before anything is sent (exit 3).",
})
