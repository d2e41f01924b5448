#!/usr/bin/env node
'use strict'
// The `hashedit-mcp` command: `hashedit mcp` with the arguments given, the
// MCP server on stdio, so `npx -y hashedit-mcp` starts it.
const { runCli } = require('../native.js')

process.exitCode = runCli(['hashedit', 'mcp', ...process.argv.slice(2)])
