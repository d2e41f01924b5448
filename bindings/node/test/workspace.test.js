'use strict'
// The hashedit-mcp npm package on real files: every method (the Promise
// and its *Sync twin), the error kinds, the helpers, the option names
// against the tools' schemas, and the bins. Texts are compared whole.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')

const hashedit = require('..')

// The TypeScript compiler (from scripts/install-peers) reads index.d.ts.
let ts
try {
  ts = require('typescript')
} catch (error) {
  if (process.env.HASHEDIT_REQUIRE_PEERS === '1') throw error
}

function fixture() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hashedit-node-'))
  fs.writeFileSync(path.join(root, 'notes.txt'), 'one\ntwo\nthree\n')
  fs.mkdirSync(path.join(root, 'src'))
  fs.writeFileSync(path.join(root, 'src', 'app.py'), 'def main():\n    return 1\n')
  return root
}

test('read, then edit chained from the preview', async () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const t1 = hashedit.tag(Buffer.from('one\ntwo\nthree\n'))
  const pending = ws.read('notes.txt')
  assert.ok(pending instanceof Promise)
  const read = await pending
  assert.equal(read.text, `[notes.txt#${t1}]\n1:one\n2:two\n3:three`)
  assert.deepEqual(read.data, {
    path: 'notes.txt', tag: t1, total_lines: 3, start: 1, end: 3, partial: false,
  })
  const first = await ws.edit(`[notes.txt#${t1}]\nPUT 2:\n+TWO\n`)
  const t2 = hashedit.tag('one\nTWO\nthree\n')
  assert.equal(first.text, `PUT 2: (1 → 1 line)\n[notes.txt#${t2}]\n1:one\n2:TWO\n3:three`)
  assert.equal(
    first.data.files[0].diff,
    '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
  )
  const second = await ws.edit(`[notes.txt#${t2}]\nCUT 3\n`)
  assert.equal(second.text, `CUT 3 (1 line)\n[notes.txt#${hashedit.tag('one\nTWO\n')}]\n1:one\n2:TWO`)
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'one\nTWO\n')
})

test('a stale edit rejects (and throws) a ToolError with its live snapshot', async () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const t1 = (await ws.read('notes.txt')).data.tag
  fs.writeFileSync(path.join(root, 'notes.txt'), 'uno\ntwo\nthree\n')
  const live = hashedit.tag('uno\ntwo\nthree\n')
  const stale = (error) => {
    assert.ok(error instanceof hashedit.ToolError)
    assert.ok(error instanceof Error)
    assert.equal(error.kind, 'stale_tag')
    assert.ok(error.message.endsWith(
      'Live snapshot (copy this header and these line numbers to retry):\n' +
      `[notes.txt#${live}]\n1:uno\n2:two\n3:three`,
    ), error.message)
    return true
  }
  await assert.rejects(ws.edit(`[notes.txt#${t1}]\nPUT 1:\n+ONE\n`), stale)
  assert.throws(() => ws.editSync(`[notes.txt#${t1}]\nPUT 1:\n+ONE\n`), stale)
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'uno\ntwo\nthree\n')
})

test('search, list, write and a dry run', async () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const app = hashedit.tag('def main():\n    return 1\n')
  assert.equal((await ws.grep('return', { glob: '*.py' })).text,
    `[src/app.py#${app}]\n2 |     return 1\n\n1 match in 1 file`)
  assert.equal((await ws.grep('RETURN', { caseSensitive: false, outputMode: 'count', path: 'src' })).text,
    'src/app.py:1\n\n1 match in 1 file')
  assert.equal((await ws.glob('*.py')).text, 'src/app.py\n\n1 file')
  assert.equal((await ws.listDir()).text, 'notes.txt\nsrc/')
  const wrote = await ws.write('new.txt', 'a\nb\n')
  assert.equal(wrote.text, `created new.txt\n\n[new.txt#${hashedit.tag('a\nb\n')}]\n1:a\n2:b`)
  // Content shaped like pasted read rows is refused unless forced.
  await assert.rejects(ws.write('rows.txt', '1:a\n2:b\n'),
    { name: 'ToolError', kind: 'looks_like_read_output' })
  assert.equal(fs.existsSync(path.join(root, 'rows.txt')), false)
  assert.ok((await ws.write('rows.txt', '1:a\n2:b\n', { force: true })).text.startsWith('created rows.txt\n'))
  assert.equal(fs.readFileSync(path.join(root, 'rows.txt'), 'utf8'), '1:a\n2:b\n')
  const dry = await ws.edit(`[src/app.py#${app}]\nPUT 2:\n+    return 2\n`, { dryRun: true })
  assert.equal(dry.text,
    '--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    return 1\n+    return 2\n')
  assert.equal(fs.readFileSync(path.join(root, 'src', 'app.py'), 'utf8'), 'def main():\n    return 1\n')
})

test('write replaces only a file the workspace has read, or with its tag or force', async () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const notes = () => fs.readFileSync(path.join(root, 'notes.txt'), 'utf8')
  const unread = {
    name: 'ToolError',
    kind: 'unread_file',
    message: 'notes.txt exists and this session has not read it; nothing was written. To replace it, ' +
      'call read_file on notes.txt first and write again, or pass the tag of the snapshot you mean to ' +
      'replace; to replace it unread, send the write again with force: true',
  }
  await assert.rejects(ws.write('notes.txt', 'x\n'), unread)
  assert.throws(() => ws.writeSync('notes.txt', 'x\n'), unread)
  assert.equal(notes(), 'one\ntwo\nthree\n')
  assert.ok((await ws.write('notes.txt', 'x\n', { tag: hashedit.tag('one\ntwo\nthree\n') }))
    .text.startsWith('replaced notes.txt\n'))
  assert.equal(notes(), 'x\n')
  // Changed by another program: the read that counted was of older bytes.
  fs.writeFileSync(path.join(root, 'notes.txt'), 'y\n')
  await assert.rejects(ws.write('notes.txt', 'z\n'), {
    kind: 'unread_file',
    message: unread.message.replace('exists and this session has not read it',
      'changed since this session last read it'),
  })
  await ws.read('notes.txt')
  await ws.write('notes.txt', 'z\n')
  assert.equal(notes(), 'z\n')
  await ws.write('src/app.py', 'pass\n', { force: true })
  assert.equal(fs.readFileSync(path.join(root, 'src', 'app.py'), 'utf8'), 'pass\n')
})

test('every *Sync twin answers as its Promise does', async () => {
  const root = fixture()
  const a = new hashedit.Workspace(root)
  const b = new hashedit.Workspace(root)
  const t1 = hashedit.tag('one\ntwo\nthree\n')
  const calls = [
    ['read', ['notes.txt', { offset: 2, limit: 1 }]],
    ['grep', ['o', { outputMode: 'files_with_matches' }]],
    ['glob', ['**/*.py']],
    ['listDir', ['src']],
    ['call', ['read_file', { path: 'notes.txt' }]],
    ['edit', [`[notes.txt#${t1}]\nCUT 1\n`, { dryRun: true }]],
    ['write', ['w.txt', 'w\n']],
  ]
  for (const [method, args] of calls) {
    const promised = await a[method](...args)
    if (method === 'write') fs.unlinkSync(path.join(root, 'w.txt'))
    assert.deepEqual(b[`${method}Sync`](...args), promised, method)
  }
  const document = `[notes.txt#${t1}]\nCUT 2\n`
  assert.deepEqual(await a.preview(document), b.previewSync(document))
})

test('options are the tools\' arguments in camelCase, checked by their schemas', async () => {
  const root = fixture()
  fs.writeFileSync(path.join(root, '.ignore'), 'ignored.txt\n')
  fs.writeFileSync(path.join(root, 'ignored.txt'), 'two\n')
  const ws = new hashedit.Workspace(root)
  assert.equal((await ws.grep('^two$', { noIgnore: true, outputMode: 'files_with_matches' })).text,
    'ignored.txt\nnotes.txt\n\n2 files')
  assert.equal((await ws.glob('*.txt', { noIgnore: true })).text, 'ignored.txt\nnotes.txt\n\n2 files')
  await assert.rejects(ws.grep('x', { ignoreCase: true }), {
    name: 'ToolError',
    kind: 'invalid_arguments',
    message: 'invalid arguments for grep: unknown argument ignore_case (grep takes only case_sensitive, ' +
      'glob, include_hidden, literal, max_per_file, max_results, no_ignore, output_mode, path, pattern)',
  })
  await assert.rejects(ws.grep('x', { outputMode: 'lines' }), { kind: 'invalid_arguments' })
  await assert.rejects(ws.grep('x', { pattern: 'y' }), {
    kind: 'invalid_arguments',
    message: 'pattern is given twice: as an argument of grep and as an option',
  })
  await assert.rejects(ws.read('notes.txt', 3), {
    kind: 'invalid_arguments', message: 'the options of read_file must be an object, got 3',
  })
})

test('the option types are the tools\' schemas', { skip: !ts }, () => {
  // index.d.ts, parsed by the TypeScript compiler: each *Options interface
  // lists exactly the tool's optional arguments in camelCase (plus dryRun
  // for edit), and ToolErrorKind exactly the kinds docs/FORMAT.md §8.4 names.
  const source = ts.createSourceFile('index.d.ts',
    fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8'), ts.ScriptTarget.Latest)
  const interfaces = {}
  let kinds = []
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) {
      interfaces[statement.name.text] = statement.members.map((m) => m.name.text)
    }
    if (ts.isTypeAliasDeclaration(statement) && statement.name.text === 'ToolErrorKind') {
      kinds = statement.type.types.map((t) => t.literal.text)
    }
  }
  const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase())
  const methods = {
    ReadOptions: ['read_file', []], GrepOptions: ['grep', []], GlobOptions: ['glob', []],
    ListDirOptions: ['list_dir', []], WriteOptions: ['write', []], EditOptions: ['edit', ['dryRun']],
  }
  for (const definition of hashedit.toolDefinitions('mcp')) {
    const [name, extra] = Object.entries(methods).find(([, [tool]]) => tool === definition.name)
    const schema = definition.inputSchema
    const optional = Object.keys(schema.properties).filter((p) => !schema.required.includes(p))
    assert.deepEqual([...interfaces[name]].sort(), [...optional.map(camel), ...extra[1]].sort(), name)
  }
  const formatMd = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'FORMAT.md'), 'utf8')
  const section = formatMd.split('### §8.4 Error kinds')[1].split('\n### ')[0]
  const documented = section.split('\n').filter((row) => row.startsWith('| `'))
    .flatMap((row) => [...row.split('|')[1].matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]))
  assert.ok(documented.length > 20)
  assert.deepEqual([...kinds].sort(), [...documented].sort())
})

test('a call waiting on a file lock leaves the event loop free', async () => {
  // The edit waits (up to 1 s) for a lock another process holds until it
  // reads a line on stdin. Only if the edit runs off the main thread can
  // this thread go on and write that line; run on it, the edit would time
  // out first.
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const t1 = (await ws.read('notes.txt')).data.tag
  const holder = spawn('python3', ['-c', [
    'import fcntl, sys',
    `f = open(${JSON.stringify(path.join(root, 'notes.txt'))}, 'rb')`,
    'fcntl.flock(f, fcntl.LOCK_EX)',
    'print("held", flush=True)',
    'sys.stdin.readline()',
  ].join('\n')], { stdio: ['pipe', 'pipe', 'inherit'] })
  await new Promise((resolve) => holder.stdout.once('data', resolve))
  const edit = ws.edit(`[notes.txt#${t1}]\nPUT 1:\n+ONE\n`)
  holder.stdin.end('go\n')
  assert.ok((await edit).text.startsWith('PUT 1: (1 → 1 line)'))
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'ONE\ntwo\nthree\n')
})

test('error kinds, read-only workspaces and options', async () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root, { readOnly: true, tagScheme: 'omp', maxOutputBytes: 200 })
  assert.equal(ws.readOnly, true)
  assert.equal(ws.tagScheme, 'omp')
  assert.equal(ws.root, fs.realpathSync(root))
  assert.equal((await ws.read('notes.txt')).data.tag, hashedit.tag('one\ntwo\nthree\n', 'omp'))
  const kinds = [
    [() => ws.write('x.txt', 'x\n'), 'permission_denied'],
    [() => ws.read('../outside.txt'), 'path_outside_workspace'],
    [() => ws.read('missing.txt'), 'not_found'],
    [() => new hashedit.Workspace(root).edit('PUT 1:\n+x\n'), 'parse_error'],
    [() => new hashedit.Workspace(root).write('.git/config', 'x\n'), 'protected_path'],
    [() => ws.call('delete', {}), 'invalid_arguments'],
  ]
  for (const [run, kind] of kinds) {
    await assert.rejects(run(), (error) => error instanceof hashedit.ToolError && error.kind === kind, kind)
  }
  for (const [options, kind] of [[{}, 'not_found'], [{ tagScheme: 'md5' }, 'invalid_arguments']]) {
    assert.throws(() => new hashedit.Workspace(path.join(root, options.tagScheme ? '' : 'missing'), options),
      (error) => error instanceof hashedit.ToolError && error.kind === kind, kind)
  }
  assert.equal(fs.existsSync(path.join(root, 'x.txt')), false)
})

test('helpers: tag, toolDefinitions, project', () => {
  assert.equal(hashedit.tag('alpha\nbeta\n'), hashedit.tag(Buffer.from('alpha  \nbeta\n')))
  assert.deepEqual(hashedit.toolDefinitions('openai').map((d) => d.function.name),
    ['read_file', 'grep', 'glob', 'list_dir', 'write', 'edit'])
  const anthropic = hashedit.toolDefinitions('anthropic', { readOnly: true })
  assert.deepEqual(anthropic.map((d) => d.name), ['read_file', 'grep', 'glob', 'list_dir'])
  assert.deepEqual(anthropic[0].input_schema.required, ['path'])
  assert.equal(hashedit.toolDefinitions('mcp')[5].annotations.destructiveHint, true)
  assert.throws(() => hashedit.toolDefinitions('gemini'), /use openai, anthropic or mcp/)
  assert.deepEqual(hashedit.project('[a.txt#12AB]\nPUT 3.=4:\n+x\n+y'), [{
    path: 'a.txt',
    tag: '12AB',
    line: 1,
    ops: [{ line: 2, header: 'PUT 3.=4:', summary: 'replace lines 3-4', rows: ['x', 'y'], state: 'complete' }],
  }])
})

test('the bins are the CLI and the MCP server', () => {
  const root = fixture()
  const bin = path.join(__dirname, '..', 'bin', 'hashedit.js')
  const t1 = hashedit.tag('one\ntwo\nthree\n')
  const read = spawnSync(process.execPath, [bin, '--root', root, 'read', 'notes.txt'], { encoding: 'utf8' })
  assert.equal(read.status, 0)
  assert.equal(read.stdout, `[notes.txt#${t1}]\n1:one\n2:two\n3:three\n`)
  const edit = spawnSync(process.execPath, [bin, '--root', root, '--json', 'edit'],
    { input: '[notes.txt#FFFF]\nPUT 1:\n+x\n', encoding: 'utf8' })
  assert.equal(edit.status, 1)
  assert.equal(JSON.parse(edit.stdout).error.kind, 'stale_tag')
  const usage = spawnSync(process.execPath, [bin, 'frobnicate'], { encoding: 'utf8' })
  assert.equal(usage.status, 2)
  assert.match(usage.stderr, /unrecognized subcommand 'frobnicate'/)
  const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' })
  assert.equal(version.stdout, 'hashedit 0.1.0\n')
  // hashedit-mcp is `hashedit mcp`: it answers initialize on stdio.
  const mcp = path.join(__dirname, '..', 'bin', 'hashedit-mcp.js')
  const initialize = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
  })
  const served = spawnSync(process.execPath, [mcp, '--root', root], { input: `${initialize}\n`, encoding: 'utf8' })
  assert.equal(served.status, 0, served.stderr)
  const reply = JSON.parse(served.stdout.split('\n')[0])
  assert.equal(reply.id, 1)
  assert.equal(reply.result.serverInfo.name, 'hashedit')
  assert.equal(reply.result.protocolVersion, '2025-11-25')
})

test('the approval preview', async () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const t1 = hashedit.tag('one\ntwo\nthree\n')
  const preview = await ws.preview(`[notes.txt#${t1}]\nCUT 2\n[gone.txt#1234]\nPUT 1:\n+x`)
  assert.deepEqual(preview[0], {
    path: 'notes.txt', source: 'dry_run', summary: 'CUT 2 (1 line)', new_tag: hashedit.tag('one\nthree\n'),
    diff: '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,2 @@\n one\n-two\n three\n',
  })
  assert.equal(preview[1].source, 'projection')
  assert.equal(preview[1].error.kind, 'not_found')
  assert.deepEqual(preview[1].ops[0].rows, ['x'])
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'one\ntwo\nthree\n')
})
