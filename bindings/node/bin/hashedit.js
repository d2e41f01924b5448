#!/usr/bin/env node
'use strict'
// The `hashedit` command: the same command line as the Rust binary
// (read, grep, glob, ls, write, edit, mcp), run by the native addon.
const { runCli } = require('../native.js')

process.exitCode = runCli(['hashedit', ...process.argv.slice(2)])
