'use strict'
// hashedit for Node: the six hashline tools in-process over one workspace
// with a session (like `hashedit mcp`), tool definitions for function
// calling, and helpers. As `fs` does, every method that touches files
// returns a Promise and does its work off the main thread (libuv's thread
// pool), and has a `*Sync` twin that blocks. Failures throw (or reject
// with) ToolError, whose `kind` is the stable error kind.
//
// A method's positional arguments are the required fields of the tool's
// argument struct; its options are the other fields in camelCase
// (`maxPerFile` is the tool's `max_per_file`), checked by the native layer
// against the tool's schema, so an unknown or ill-typed option is refused
// with a ToolError of kind `invalid_arguments` naming the valid ones.

const native = require('./native.js')

/** A tool refused: nothing was written. `message` is the model-facing text. */
class ToolError extends Error {
  constructor(kind, message) {
    super(message)
    this.name = 'ToolError'
    this.kind = kind
  }
}

/** The reply of an envelope `{ ok, text, data }`, or its error thrown. */
function settle(envelope) {
  if (envelope.ok) {
    return { text: envelope.text, data: envelope.data }
  }
  throw new ToolError(envelope.error.kind, envelope.error.message)
}

/** Runs a constructor or helper, turning a native failure whose `code` is
 * an error kind into a ToolError. */
function guarded(run) {
  try {
    return run()
  } catch (error) {
    if (error && typeof error.code === 'string' && /^[a-z_]+$/.test(error.code)) {
      throw new ToolError(error.code, error.message)
    }
    throw error
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

  async _run(tool, args, options) {
    return settle(await this._native.run(tool, args, options))
  }

  _runSync(tool, args, options) {
    return settle(this._native.runSync(tool, args, options))
  }

  read(path, options) { return this._run('read_file', { path }, options) }
  readSync(path, options) { return this._runSync('read_file', { path }, options) }

  grep(pattern, options) { return this._run('grep', { pattern }, options) }
  grepSync(pattern, options) { return this._runSync('grep', { pattern }, options) }

  glob(pattern, options) { return this._run('glob', { pattern }, options) }
  globSync(pattern, options) { return this._runSync('glob', { pattern }, options) }

  listDir(path = '.', options) { return this._run('list_dir', { path }, options) }
  listDirSync(path = '.', options) { return this._runSync('list_dir', { path }, options) }

  write(path, content, options) { return this._run('write', { path, content }, options) }
  writeSync(path, content, options) { return this._runSync('write', { path, content }, options) }

  edit(document, options) { return this._run('edit', { input: document }, options) }
  editSync(document, options) { return this._runSync('edit', { input: document }, options) }

  call(name, args) { return this._run(name, args) }
  callSync(name, args) { return this._runSync(name, args) }

  preview(document) { return this._native.preview(document) }
  previewSync(document) { return this._native.previewSync(document) }
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

module.exports = { Workspace, ToolError, tag, project, toolDefinitions }
