// How `payfac emulator start` serves, once its command has the emulator's start function: in the
// foreground until Ctrl-C or SIGTERM; as the background run of `--detach` (instance.ts); or, with
// --detach itself, by starting that run (launch.ts) and printing where it is. The emulator is
// given by the command: this room does not import it.
import path from 'node:path'
import process from 'node:process'

import { resolveConfigDir } from '../../config/paths.js'
import { type EmulatorReady, emulatorReadyText } from '../../output/views/emulator.js'
import { type IntegratorFlagValues, baseUrlExport, exposedWarning, forwardedStartFlags } from '../flags/emulator.js'
import { waitMs } from '../validate/durations.js'
import { stopSignal } from '../runtime/interrupt.js'
import { type RunInstance, type RunningRun, receiveSetup, runInstance } from './instance.js'
import { launchDetached } from './launch.js'

/** What the command's emulator gives back (startEmulator's RunningEmulator, in part). */
export interface Served extends RunningRun {
  exposed: boolean
  ids: { marketplaceId: string; merchantId: string; subMerchantId: string }
  credentials: EmulatorReady['credentials']
}

export type StartFunction = (instance?: RunInstance) => Promise<Served>

export interface ServeFlags {
  json?: boolean | undefined
  state?: string | undefined
  'control-token'?: string | undefined
}

/** In the foreground: the connection details on stdout, until SIGINT or SIGTERM. */
export async function serveForeground(start: StartFunction, flags: ServeFlags): Promise<void> {
  const emulator = await start()
  const ready = readyOf(emulator, flags.state)
  process.stdout.write(`${flags.json ? JSON.stringify(ready) : emulatorReadyText(ready)}\n`)
  process.stderr.write(baseUrlExport(emulator.url))
  if (emulator.exposed) {
    process.stderr.write(`${exposedWarning(emulator.host, flags['control-token'] === undefined ? emulator.controlToken : undefined)}\n`)
  }
  process.stderr.write('Emulator running; press Ctrl-C to stop.\n')
  const signal = await stopSignal()
  await emulator.close()
  process.stderr.write(`Emulator stopped (${signal}).\n`)
}

/** As the background run `id` of `--detach`: its output goes to the run's log file. */
export async function serveAsInstance(id: string, start: StartFunction): Promise<void> {
  const setup = await receiveSetup()
  const reason = await runInstance(id, setup, async (instance) => {
    const emulator = await start(instance)
    process.stdout.write(`${emulatorReadyText(readyOf(emulator, setup.statePath ?? undefined))}\n`)
    // A generated control token is shown once, by the command that started the run, not in its log.
    if (emulator.exposed) process.stderr.write(`${exposedWarning(emulator.host, undefined)}\n`)
    process.stderr.write(`Emulator running in the background (run ${id}); stop it with: payfac emulator stop --port ${emulator.port}\n`)
    return emulator
  })
  process.stderr.write(`Emulator stopped (${reason}).\n`)
}

function readyOf(emulator: Served, statePath: string | undefined): EmulatorReady {
  return { baseUrl: emulator.url, ...emulator.ids, credentials: emulator.credentials, statePath: statePath ?? null }
}

export interface DetachFlags extends ServeFlags, IntegratorFlagValues {
  port: number
  host: string
  namespace?: string | undefined
  'log-file'?: string | undefined
  timeout: string
  log: boolean
  fixtures?: string | undefined
}

/**
 * `--detach`: starts the run, then prints `export PAYFAC_BASE_URL=…` on stdout (or, with --json,
 * one object with the details) and where it is on stderr.
 */
export async function startInBackground(flags: DetachFlags, bin: string): Promise<void> {
  const configDir = resolveConfigDir()
  const launched = await launchDetached({
    bin,
    configDir,
    port: flags.port,
    host: flags.host,
    namespace: flags.namespace ?? null,
    logFile: flags['log-file'],
    forward: forwardedStartFlags(flags),
    controlToken: flags['control-token'],
    statePath: flags.state === undefined ? null : path.resolve(flags.state),
    timeoutMs: waitMs(flags.timeout, '--timeout'),
    note: (line) => process.stderr.write(`${line}\n`),
  })
  const { record } = launched
  const { WELL_KNOWN } = await import('../../well-known.js')
  const details = {
    baseUrl: launched.url,
    port: record.port,
    pid: record.pid,
    namespace: record.namespace,
    logFile: record.logFile,
    recordFile: launched.recordFile,
    marketplaceId: WELL_KNOWN.marketplaceId,
    merchantId: WELL_KNOWN.merchantId,
    subMerchantId: WELL_KNOWN.subMerchantId,
    credentials: { ...WELL_KNOWN.credentials },
    statePath: record.statePath,
  }
  process.stdout.write(flags.json ? `${JSON.stringify(details)}\n` : `export PAYFAC_BASE_URL=${launched.url}\n`)
  process.stderr.write(`Emulator running in the background at ${launched.url} (process ${record.pid}); log: ${record.logFile}\n`)
  if (launched.generatedToken) process.stderr.write(`${exposedWarning(record.host, launched.generatedToken)}\n`)
  process.stderr.write(`Stop it with: payfac emulator stop${record.port === 4010 ? '' : ` --port ${record.port}`}\n`)
}
