'use strict'
// hashedit's Node tools driven by a real agent framework: the Vercel AI SDK
// (`ai` 5), with its offline MockLanguageModelV2 scripted as the model. The
// tools come from `toolDefinitions('openai')` (the MCP server's catalogue),
// each awaiting `Workspace.call` (the work runs off the main thread); a
// refused call rejects with ToolError, which the SDK hands the model as an
// error result. The script reads, edits, chains a
// second edit from the preview's tag, sends a stale edit, and retries it from
// the live snapshot it was shown. Every text the model reads is compared whole.

const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const hashedit = require('..')

let ai
let MockLanguageModelV2
try {
  ai = require('ai')
  ;({ MockLanguageModelV2 } = require('ai/test'))
} catch (error) {
  if (process.env.HASHEDIT_REQUIRE_PEERS === '1') throw error
}

function hasheditTools(ws) {
  const tools = {}
  for (const definition of hashedit.toolDefinitions('openai')) {
    const { name, description, parameters } = definition.function
    tools[name] = ai.tool({
      description,
      inputSchema: ai.jsonSchema(parameters),
      execute: async (args) => (await ws.call(name, args)).text,
    })
  }
  return tools
}

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 }
const call = (id, toolName, input) => ({
  content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: 'tool-calls',
  usage,
  warnings: [],
})

/** The output of the last tool message in the prompt: [type, text]. */
function lastToolOutput(prompt) {
  const message = prompt[prompt.length - 1]
  assert.equal(message.role, 'tool')
  const part = message.content[0]
  assert.equal(part.type, 'tool-result')
  return [part.output.type, part.output.value]
}

const HEADER = /^\[app\.py#[0-9A-F]{4}\]$/gm

test('read, chained edit, stale edit retried from its live snapshot', { skip: !ai }, async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hashedit-ai-'))
  const app = path.join(root, 'app.py')
  fs.writeFileSync(app, "def greet():\n    return 'hi'\n\nprint(greet())\n")
  const ws = new hashedit.Workspace(root)
  const seen = []
  let turn = 0
  const model = new MockLanguageModelV2({
    doGenerate: async (options) => {
      turn += 1
      if (turn === 1) {
        assert.deepEqual(options.tools.map((t) => t.name),
          ['read_file', 'grep', 'glob', 'list_dir', 'write', 'edit'])
        assert.deepEqual(options.tools[5].inputSchema.required, ['input'])
        return call('c1', 'read_file', { path: 'app.py' })
      }
      const output = lastToolOutput(options.prompt)
      seen.push(output)
      const headers = output[1].match(HEADER) || []
      const header = headers[headers.length - 1]
      switch (turn) {
        case 2:
          return call('c2', 'edit', { input: `${header}\nPUT 2:\n+    return 'hello'\n` })
        case 3:
          return call('c3', 'edit', { input: `${header}\nPUT >4:\n+print('bye')\n` })
        case 4:
          fs.writeFileSync(app, "def greet():\n    return 'hey'\n\nprint(greet())\nprint('bye')\n")
          return call('c4', 'edit', { input: `${header}\nPUT 2:\n+    return 'howdy'\n` })
        case 5:
          assert.equal(output[0], 'error-text')
          return call('c5', 'edit', { input: `${header}\nPUT 2:\n+    return 'howdy'\n` })
        default:
          return { content: [{ type: 'text', text: 'done' }], finishReason: 'stop', usage, warnings: [] }
      }
    },
  })
  const result = await ai.generateText({
    model,
    tools: hasheditTools(ws),
    prompt: 'Make greet say hello, then howdy.',
    stopWhen: ai.stepCountIs(10),
  })
  assert.equal(result.text, 'done')
  assert.equal(turn, 6)
  const tag = hashedit.tag
  const t1 = tag("def greet():\n    return 'hi'\n\nprint(greet())\n")
  const t2 = tag("def greet():\n    return 'hello'\n\nprint(greet())\n")
  const t3 = tag("def greet():\n    return 'hello'\n\nprint(greet())\nprint('bye')\n")
  const live = tag("def greet():\n    return 'hey'\n\nprint(greet())\nprint('bye')\n")
  const t5 = tag("def greet():\n    return 'howdy'\n\nprint(greet())\nprint('bye')\n")
  assert.deepEqual(seen, [
    ['text', `[app.py#${t1}]\n1:def greet():\n2:    return 'hi'\n3:\n4:print(greet())`],
    ['text', `PUT 2: (1 → 1 line)\n[app.py#${t2}]\n1:def greet():\n2:    return 'hello'\n3:\n4:print(greet())`],
    ['text', `PUT >4: (+1 line)\n[app.py#${t3}]\n2:    return 'hello'\n3:\n4:print(greet())\n5:print('bye')\n\n` +
      '[post-edit lines 2-5 of 5 shown near the changes; read the file for the rest]'],
    ['error-text', `app.py: snapshot tag ${t3} is stale: the file changed and its tag is now ${live}, and the ops ` +
      'could not be moved onto it safely (the op on document line 2 targets lines that changed (or ' +
      'sit next to changed lines)); nothing was written. Retry with the header and line numbers of ' +
      'the live snapshot below\n\n' +
      'Live snapshot (copy this header and these line numbers to retry):\n' +
      `[app.py#${live}]\n1:def greet():\n2:    return 'hey'\n3:\n4:print(greet())\n\n` +
      '[4 of 5 lines shown; pass offset/limit to read_file for the rest]'],
    ['text', `PUT 2: (1 → 1 line)\n[app.py#${t5}]\n1:def greet():\n2:    return 'howdy'\n3:\n4:print(greet())\n5:print('bye')`],
  ])
  assert.equal(fs.readFileSync(app, 'utf8'), "def greet():\n    return 'howdy'\n\nprint(greet())\nprint('bye')\n")
})
