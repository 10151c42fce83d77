'use strict'
// @oclif/core as the CLI bundle sees it. Commands take only Command, Flags and Args from it; the
// package's index loads everything else too (configuration and plugin loading, help, the
// spinner, the runner), about 30 ms of a command's start-up. Here those three are loaded at
// once and every other export when first used, from the real index. scripts/build.mjs points
// the bundle's `@oclif/core` here, and defers a few heavy requires inside oclif's own modules
// (see scripts/bundle/oclif-plugin.mjs). The importable library is not concerned: it has no oclif.
const { Command } = require('@oclif/core/command')
const Flags = require('@oclif/core/flags')
const Args = require('@oclif/core/args')

const LATER = ['Config', 'Plugin', 'Constraints', 'Errors', 'handle', 'execute', 'flush', 'CommandHelp', 'Help', 'HelpBase', 'loadHelpClass', 'Interfaces', 'getLogger', 'ModuleLoader', 'Parser', 'Performance', 'settings', 'toConfiguredId', 'toStandardizedId', 'ux', 'run']

let full
const index = () => (full ??= require('@oclif/core/index'))

module.exports = { Args, Command, Flags }
for (const name of LATER) Object.defineProperty(module.exports, name, { enumerable: true, get: () => index()[name] })
