'use strict'
// The hashedit npm package on real files: every method, the error kinds,
// the helpers and the bin. Texts are compared whole.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const hashedit = require('..')

function fixture() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hashedit-node-'))
  fs.writeFileSync(path.join(root, 'notes.txt'), 'one\ntwo\nthree\n')
  fs.mkdirSync(path.join(root, 'src'))
  fs.writeFileSync(path.join(root, 'src', 'app.py'), 'def main():\n    return 1\n')
  return root
}

test('read, then edit chained from the preview', () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const t1 = hashedit.tag(Buffer.from('one\ntwo\nthree\n'))
  const read = ws.read('notes.txt')
  assert.equal(read.text, `[notes.txt#${t1}]\n1:one\n2:two\n3:three`)
  assert.deepEqual(read.data, {
    path: 'notes.txt', tag: t1, total_lines: 3, start: 1, end: 3, partial: false,
  })
  const first = ws.edit(`[notes.txt#${t1}]\nPUT 2:\n+TWO\n`)
  const t2 = hashedit.tag('one\nTWO\nthree\n')
  assert.equal(first.text, `PUT 2: (1 → 1 line)\n[notes.txt#${t2}]\n1:one\n2:TWO\n3:three`)
  assert.equal(
    first.data.files[0].diff,
    '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
  )
  const second = ws.edit(`[notes.txt#${t2}]\nCUT 3\n`)
  assert.equal(second.text, `CUT 3 (1 line)\n[notes.txt#${hashedit.tag('one\nTWO\n')}]\n1:one\n2:TWO`)
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'one\nTWO\n')
})

test('a stale edit throws ToolError with its live snapshot', () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const t1 = ws.read('notes.txt').data.tag
  fs.writeFileSync(path.join(root, 'notes.txt'), 'uno\ntwo\nthree\n')
  const live = hashedit.tag('uno\ntwo\nthree\n')
  assert.throws(() => ws.edit(`[notes.txt#${t1}]\nPUT 1:\n+ONE\n`), (error) => {
    assert.ok(error instanceof hashedit.ToolError)
    assert.ok(error instanceof Error)
    assert.equal(error.kind, 'stale_tag')
    assert.ok(error.message.endsWith(
      'Live snapshot (copy this header and these line numbers to retry):\n' +
      `[notes.txt#${live}]\n1:uno\n2:two\n3:three`,
    ), error.message)
    return true
  })
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'uno\ntwo\nthree\n')
})

test('search, list, write and a dry run', () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const app = hashedit.tag('def main():\n    return 1\n')
  assert.equal(ws.grep('return', null, { glob: '*.py' }).text,
    `[src/app.py#${app}]\n2 |     return 1\n\n1 match in 1 file`)
  assert.equal(ws.grep('RETURN', undefined, { ignoreCase: true, outputMode: 'count' }).text,
    'src/app.py:1\n\n1 match in 1 file')
  assert.equal(ws.glob('*.py').text, 'src/app.py\n\n1 file')
  assert.equal(ws.listDir().text, 'notes.txt\nsrc/')
  const wrote = ws.write('new.txt', 'a\nb\n')
  assert.equal(wrote.text, `created new.txt\n\n[new.txt#${hashedit.tag('a\nb\n')}]\n1:a\n2:b`)
  // Content shaped like pasted read rows is refused unless forced.
  assert.throws(() => ws.write('rows.txt', '1:a\n2:b\n'),
    { name: 'ToolError', kind: 'looks_like_read_output' })
  assert.equal(fs.existsSync(path.join(root, 'rows.txt')), false)
  assert.ok(ws.write('rows.txt', '1:a\n2:b\n', { force: true }).text.startsWith('created rows.txt\n'))
  assert.equal(fs.readFileSync(path.join(root, 'rows.txt'), 'utf8'), '1:a\n2:b\n')
  const dry = ws.edit(`[src/app.py#${app}]\nPUT 2:\n+    return 2\n`, { dryRun: true })
  assert.equal(dry.text,
    '--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    return 1\n+    return 2\n')
  assert.equal(fs.readFileSync(path.join(root, 'src', 'app.py'), 'utf8'), 'def main():\n    return 1\n')
  assert.throws(() => ws.grep('x', null, { outputMode: 'lines' }),
    { name: 'ToolError', kind: 'invalid_arguments' })
})

test('error kinds, read-only workspaces and options', () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root, { readOnly: true, tagScheme: 'omp', maxOutputBytes: 200 })
  assert.equal(ws.readOnly, true)
  assert.equal(ws.tagScheme, 'omp')
  assert.equal(ws.root, fs.realpathSync(root))
  assert.equal(ws.read('notes.txt').data.tag, hashedit.tag('one\ntwo\nthree\n', 'omp'))
  const kinds = [
    [() => ws.write('x.txt', 'x\n'), 'permission_denied'],
    [() => ws.read('../outside.txt'), 'path_outside_workspace'],
    [() => ws.read('missing.txt'), 'not_found'],
    [() => new hashedit.Workspace(root).edit('PUT 1:\n+x\n'), 'parse_error'],
    [() => new hashedit.Workspace(path.join(root, 'missing')), 'not_found'],
    [() => new hashedit.Workspace(root, { tagScheme: 'md5' }), 'invalid_arguments'],
    [() => ws.call('delete', {}), 'invalid_arguments'],
  ]
  for (const [run, kind] of kinds) {
    assert.throws(run, (error) => error instanceof hashedit.ToolError && error.kind === kind, kind)
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

test('the bin is the CLI', () => {
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
})

test('the approval preview', () => {
  const root = fixture()
  const ws = new hashedit.Workspace(root)
  const t1 = hashedit.tag('one\ntwo\nthree\n')
  const preview = ws.preview(`[notes.txt#${t1}]\nCUT 2\n[gone.txt#1234]\nPUT 1:\n+x`)
  assert.deepEqual(preview[0], {
    path: 'notes.txt', source: 'dry_run', summary: 'CUT 2 (1 line)', new_tag: hashedit.tag('one\nthree\n'),
    diff: '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,2 @@\n one\n-two\n three\n',
  })
  assert.equal(preview[1].source, 'projection')
  assert.equal(preview[1].error.kind, 'not_found')
  assert.deepEqual(preview[1].ops[0].rows, ['x'])
  assert.equal(fs.readFileSync(path.join(root, 'notes.txt'), 'utf8'), 'one\ntwo\nthree\n')
})
