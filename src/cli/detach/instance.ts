// The emulator's side of `start --detach`: the process `payfac emulator start --instance <id>`
// that launch.ts started. It takes its setup (the run's secret, log file, namespace) from the IPC
// channel, starts the emulator with the run's proof and shutdown routes, writes its record, says
// it is ready and waits for the command to take it over (a run whose command is gone stops, as
// nobody knows of it), and closes the channel; then it serves until SIGINT, SIGTERM or a shutdown
// request, and removes its record on the way out. The emulator itself is given by the command (this room
// does not import it).
import fs from 'node:fs'
import process from 'node:process'

import { type EmulatorRecord, removeRecord, writeRecord } from '../../config/emulator-records.js'
import { UsageError } from '../errors/index.js'
import { stopSignal } from '../runtime/interrupt.js'
import type { InstanceAccepted, InstanceReady, InstanceSetup } from './launch.js'

/** What the command's emulator gives back (startEmulator's RunningEmulator, in part). */
export interface RunningRun {
  url: string
  port: number
  host: string
  controlToken: string | undefined
  close(): Promise<void>
}

/** The instance options startEmulator takes. */
export interface RunInstance {
  id: string
  secret: string
  onShutdown: () => void
}

/** The setup launch.ts sends first; a usage error when this process was not started by it. */
export function receiveSetup(timeoutMs = 30_000): Promise<InstanceSetup> {
  if (typeof process.send !== 'function') {
    return Promise.reject(new UsageError('--instance is for payfac itself', 'Start a background emulator with: payfac emulator start --detach'))
  }
  // The channel may have closed before this code ran (the starting command was killed): its
  // 'disconnect' event is then past, and waiting for it would hold this process for nothing.
  if (!process.connected) return Promise.reject(gone())
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new UsageError('No setup came from payfac emulator start --detach')), timeoutMs)
    const done = () => {
      clearTimeout(timer)
      process.off('message', onMessage)
      process.off('disconnect', onGone)
    }
    const onMessage = (message: unknown) => {
      const setup = message as Partial<InstanceSetup> | null
      if (typeof setup?.secret !== 'string' || typeof setup.logFile !== 'string' || typeof setup.configDir !== 'string') return
      done()
      resolve(setup as InstanceSetup)
    }
    const onGone = () => {
      done()
      reject(gone())
    }
    process.on('message', onMessage)
    process.once('disconnect', onGone)
  })
}

/** The log under its name once the run has its port (see InstanceSetup.startLog); where it stays when it cannot be renamed. */
function settleLog(setup: InstanceSetup): string {
  if (!setup.startLog || setup.startLog === setup.logFile) return setup.logFile
  try {
    fs.renameSync(setup.startLog, setup.logFile)
    return setup.logFile
  } catch {
    return setup.startLog
  }
}

const gone = () => new UsageError('payfac emulator start --detach went away before the emulator started')

/** Runs the emulator as the background run `id`; resolves with what stopped it. */
export async function runInstance(id: string, setup: InstanceSetup, start: (instance: RunInstance) => Promise<RunningRun>): Promise<string> {
  let requested: (reason: string) => void = () => undefined
  const shutdown = new Promise<string>((resolve) => {
    requested = resolve
  })
  const emulator = await start({ id, secret: setup.secret, onShutdown: () => requested('payfac emulator stop') })
  const record: EmulatorRecord = {
    version: 1,
    instance: id,
    secret: setup.secret,
    pid: process.pid,
    host: emulator.host,
    port: emulator.port,
    namespace: setup.namespace,
    logFile: settleLog(setup),
    controlToken: emulator.controlToken ?? null,
    startedAt: new Date().toISOString(),
    statePath: setup.statePath,
  }
  try {
    writeRecord(setup.configDir, record)
  } catch (error) {
    await emulator.close()
    throw error
  }
  const generated = emulator.controlToken !== undefined && process.env.PAYFAC_EMULATOR_TOKEN?.trim() !== emulator.controlToken
  const ready: InstanceReady = {
    ready: { port: emulator.port, host: emulator.host, url: emulator.url, generatedToken: generated ? (emulator.controlToken ?? null) : null },
  }
  // The command that started this run takes it over, or is gone (killed before it could say
  // where the run is): then nobody knows of the run, and it stops instead of running on unseen.
  if (!(await handOver(ready))) {
    await emulator.close()
    removeRecord(setup.configDir, emulator.port, id)
    throw gone()
  }
  const reason = await Promise.race([stopSignal(), shutdown])
  await emulator.close()
  removeRecord(setup.configDir, emulator.port, id)
  return reason
}

/**
 * Says the run is ready and waits for the starting command's answer (InstanceAccepted); false
 * when the channel closes first, or is closed already. The channel is closed either way.
 */
function handOver(ready: InstanceReady): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (accepted: boolean) => {
      process.off('message', onMessage)
      process.off('disconnect', onGone)
      if (process.connected) process.disconnect()
      resolve(accepted)
    }
    const onMessage = (message: unknown) => {
      if ((message as Partial<InstanceAccepted> | null)?.accepted === true) finish(true)
    }
    const onGone = () => finish(false)
    if (!process.connected || typeof process.send !== 'function') return finish(false)
    process.on('message', onMessage)
    process.once('disconnect', onGone)
    process.send(ready, (error: Error | null) => {
      if (error) finish(false)
    })
  })
}
