// The `POST /simulation` envelope from `payfac simulate <action>`. Pure: no I/O, no client.
import { UsageError } from '../errors/index.js'
import { SIMULATION_ACTIONS } from '../validate/known-names.js'

/** `AdvanceClock` as given, or `advance-clock` turned into it. */
export function actionName(input: string): string {
  const text = input.trim()
  let name: string | undefined
  if (/^[A-Z][A-Za-z0-9]*$/.test(text)) name = text
  else if (/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(text)) {
    name = text
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('')
  }
  if (name === undefined) throw new UsageError(`"${input}" is not an action name`, 'For example AdvanceClock (or advance-clock)')
  if (!(SIMULATION_ACTIONS as readonly string[]).includes(name)) {
    throw new UsageError(
      `Unknown simulation action "${name}"; known: ${SIMULATION_ACTIONS.join(', ')}`,
      `Send another action as it is with: payfac api POST /simulation --data '{"${name}":{…}}'`,
    )
  }
  return name
}

/**
 * `{[action]: fields}`. The fields come from --data (the bare fields, or the whole single-key
 * envelope naming the same action) and --seconds (AdvanceClock only).
 */
export function simulationEnvelope(action: string, data: Record<string, unknown> | undefined, seconds: number | undefined) {
  const keys = data ? Object.keys(data) : []
  const wrapped = data && keys.length === 1 && keys[0] === action && isObject(data[action])
  const fields: Record<string, unknown> = { ...(wrapped ? (data[action] as Record<string, unknown>) : data) }
  if (seconds !== undefined) {
    if (action !== 'AdvanceClock') throw new UsageError(`--seconds applies to AdvanceClock only (the action is ${action})`, 'Give the fields with --data')
    if ('seconds' in fields && fields.seconds !== seconds) throw new UsageError('--seconds and the seconds in --data differ', 'Give one of them')
    fields.seconds = seconds
  }
  return { [action]: fields }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value)
}
