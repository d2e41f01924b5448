'use strict'
// hashedit for Node: the six hashline tools in-process over one workspace
// with a session (like `hashedit mcp`), tool definitions for function
// calling, and helpers. Failures throw ToolError with a stable `.kind`.

const native = require('./native.js')

/** The stable kinds a tool error can have (FORMAT.md §8.4). */
const KINDS = new Set([
  'invalid_arguments', 'parse_error', 'stale_tag', 'line_out_of_range', 'overlapping_ops',
  'duplicate_path', 'not_found', 'permission_denied', 'path_outside_workspace', 'not_utf8',
  'binary', 'unsupported_encoding', 'not_a_regular_file', 'too_large', 'lock_timeout',
  'unresolved_block', 'register_error', 'indentation_mismatch', 'echoed_rows', 'shifted_range',
  'elided_lines', 'broken_syntax', 'no_change', 'conflict', 'looks_like_read_output',
  'cancelled', 'io',
])

/** A tool refused: nothing was written. `message` is the model-facing text. */
class ToolError extends Error {
  constructor(kind, message) {
    super(message)
    this.name = 'ToolError'
    this.kind = kind
  }
}

function rethrow(error) {
  if (error && typeof error.code === 'string' && KINDS.has(error.code)) {
    throw new ToolError(error.code, error.message)
  }
  throw error
}

function guarded(run) {
  try {
    return run()
  } catch (error) {
    return rethrow(error)
  }
}

/** One workspace root (no path may leave it) and its session. */
class Workspace {
  constructor(root, options) {
    this._native = guarded(() => new native.NativeWorkspace(String(root), options))
  }

  get root() { return this._native.root }
  get tagScheme() { return this._native.tagScheme }
  get readOnly() { return this._native.readOnly }

  read(path, options = {}) {
    return guarded(() => this._native.read(path, options.offset, options.limit))
  }

  grep(pattern, path, options) {
    return guarded(() => this._native.grep(pattern, path, options))
  }

  glob(pattern, path, options) {
    return guarded(() => this._native.glob(pattern, path, options))
  }

  listDir(path = '.') {
    return guarded(() => this._native.listDir(path))
  }

  write(path, content, options = {}) {
    return guarded(() => this._native.write(path, content, options.tag, options.force))
  }

  edit(document, options) {
    return guarded(() => this._native.edit(document, options))
  }

  preview(document) {
    return this._native.preview(document)
  }

  call(name, args) {
    return guarded(() => this._native.call(name, args))
  }
}

function tag(data, scheme = 'rho') {
  return guarded(() => native.tag(data, scheme))
}

function project(partialDocument) {
  return native.project(partialDocument)
}

function toolDefinitions(format = 'openai', options = {}) {
  return guarded(() => native.toolDefinitions(format, options.readOnly === true))
}

module.exports = { Workspace, ToolError, tag, project, toolDefinitions, KINDS }
