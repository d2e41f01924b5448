// hashedit's driver for oh-my-pi's hashline engine (@oh-my-pi/hashline on Bun).
//
// One process serves many requests: each stdin line is a JSON request, each
// stdout line the JSON reply with the same `id`. Files travel base64-encoded
// so every byte (BOM, CR, invalid UTF-8) reaches the engine as written.
//
// Requests:
//   {"id":1,"op":"version"}
//       -> {"id":1,"ok":true,"hashline":"18.1.5","bun":"1.4.5"}
//   {"id":2,"op":"tag","b64":"..."}
//       -> {"id":2,"ok":true,"tag":"ABCD"}   tag a read of these bytes would mint
//   {"id":3,"op":"read","path":"a.ts","b64":"..."}
//       -> {"id":3,"ok":true,"text":"[a.ts#ABCD]\n1:..."}
//   {"id":4,"op":"apply","input":"<document>","files":[{"path":"a.ts","b64":"..."}]}
//   {"id":4,"op":"apply","input":"<document>","file":"<b64>"}   (bound to the first section's path)
//   either may carry "served":[{"path":"a.ts","b64":"..."}]: the snapshots the
//   model read before the edit, recorded as the agent's read tool records
//   them, so a stale tag naming one of them can be recovered as in the agent
//       -> {"id":4,"ok":true,"files":[{"path":"a.ts","b64":"..."|null}],"sections":[...]}
//       -> {"id":4,"ok":false,"error":"<message>","errorName":"MismatchError"}
//
// Every apply runs on a fresh in-memory filesystem, snapshot store and
// clipboard, so requests never influence each other: the store holds only
// the request's own `served` snapshots (none unless it sends some; the
// differential suites send none) and what the apply itself records. The seen-line guard is
// off, as in the coding agent's default settings; block locators resolve
// through pi-natives' tree-sitter `blockRangeAt`, as in the coding agent.
//
// Usage: bun omp-driver.ts <path to the installed @oh-my-pi/hashline package>

import * as path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const packageDir = process.argv[2];
if (!packageDir) {
	process.stderr.write("usage: bun omp-driver.ts <@oh-my-pi/hashline package dir>\n");
	process.exit(2);
}

const hl = await import(pathToFileURL(path.join(packageDir, "src", "index.ts")).href);
const packageJson = await Bun.file(path.join(packageDir, "package.json")).json();
const natives = await import(Bun.resolveSync("@oh-my-pi/pi-natives", packageDir));

/** The root every in-memory path hangs off, for canonical keys. */
const ROOT = "/omp-driver-workspace";

/** In-memory files as raw bytes: decoding is the engine's concern. */
class ByteFilesystem extends hl.Filesystem {
	readonly files = new Map<string, Uint8Array>();

	key(p: string): string {
		return path.posix.resolve(ROOT, p);
	}

	async readText(p: string): Promise<string> {
		const bytes = this.files.get(this.key(p));
		if (bytes === undefined) throw new hl.NotFoundError(p);
		// Same decoding as Bun.file(p).text(): lossy UTF-8, a leading BOM hidden.
		return new TextDecoder("utf-8").decode(bytes);
	}

	override async readBinary(p: string): Promise<Uint8Array> {
		const bytes = this.files.get(this.key(p));
		if (bytes === undefined) throw new hl.NotFoundError(p);
		return bytes;
	}

	async writeText(p: string, content: string): Promise<{ text: string }> {
		this.files.set(this.key(p), new TextEncoder().encode(content));
		return { text: content };
	}

	override async delete(p: string): Promise<void> {
		if (!this.files.delete(this.key(p))) throw new hl.NotFoundError(p);
	}

	override async move(from: string, to: string, content?: string): Promise<void> {
		const bytes = this.files.get(this.key(from));
		if (bytes === undefined) throw new hl.NotFoundError(from);
		this.files.set(this.key(to), content === undefined ? bytes : new TextEncoder().encode(content));
		this.files.delete(this.key(from));
	}

	override async exists(p: string): Promise<boolean> {
		return this.files.has(this.key(p));
	}

	override canonicalPath(p: string): string {
		return this.key(p);
	}
}

/** Block locators resolved by tree-sitter, as the coding agent wires them. */
function blockResolver(request: { path: string; text: string; line: number }) {
	const range = natives.blockRangeAt({ code: request.text, path: request.path, line: request.line });
	return range ? { start: range.startLine, end: range.endLine } : null;
}

function fromB64(text: string): Uint8Array {
	return new Uint8Array(Buffer.from(text, "base64"));
}

function toB64(bytes: Uint8Array): string {
	return Buffer.from(bytes).toString("base64");
}

/** The text a read would tag: BOM hidden by the decoder, endings as LF. */
function readableText(bytes: Uint8Array): string {
	return hl.normalizeToLF(new TextDecoder("utf-8").decode(bytes));
}

async function apply(request: any) {
	const patch = hl.Patch.parse(request.input);
	const fs = new ByteFilesystem();
	const inputs: { path: string; b64: string }[] = [];
	if (request.files) {
		inputs.push(...request.files);
	} else if (request.file !== undefined) {
		if (patch.sections.length === 0) throw new Error("the document has no section to bind the file to");
		inputs.push({ path: patch.sections[0].path, b64: request.file });
	}
	for (const file of inputs) fs.files.set(fs.key(file.path), fromB64(file.b64));
	const snapshots = new hl.InMemorySnapshotStore();
	// Snapshots the model read before the edit, as the agent's read tool records them.
	for (const served of request.served ?? []) {
		snapshots.record(fs.canonicalPath(served.path), readableText(fromB64(served.b64)));
	}
	const patcher = new hl.Patcher({
		fs,
		snapshots,
		blockResolver,
		enforceSeenLines: false,
	});
	const result = await patcher.apply(patch);
	const files = inputs.map(file => {
		const bytes = fs.files.get(fs.key(file.path));
		return { path: file.path, b64: bytes === undefined ? null : toB64(bytes) };
	});
	// Files created by MV (destinations not among the inputs).
	const known = new Set(inputs.map(file => fs.key(file.path)));
	for (const [key, bytes] of fs.files) {
		if (!known.has(key)) files.push({ path: path.posix.relative(ROOT, key), b64: toB64(bytes) });
	}
	const sections = result.sections.map((section: any) => ({
		path: section.path,
		op: section.op,
		fileHash: section.fileHash,
		header: section.header,
		warnings: section.warnings,
		moveDest: section.moveDest ?? null,
		firstChangedLine: section.firstChangedLine ?? null,
		blockResolutions: section.blockResolutions ?? [],
	}));
	return { files, sections };
}

async function handle(request: any): Promise<object> {
	switch (request.op) {
		case "version":
			return { hashline: packageJson.version, bun: Bun.version };
		case "tag":
			return { tag: hl.computeFileHash(readableText(fromB64(request.b64))) };
		case "read": {
			const text = readableText(fromB64(request.b64));
			const tag = hl.computeFileHash(text);
			const rows = hl
				.splitAddressableFileLines(text)
				.map((line: string, i: number) => hl.formatNumberedLine(i + 1, line));
			return { text: [hl.formatHashlineHeader(request.path, tag), ...rows].join("\n") };
		}
		case "apply":
			return await apply(request);
		default:
			throw new Error(`unknown op ${JSON.stringify(request.op)}`);
	}
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
	if (line.trim() === "") continue;
	let id: unknown = null;
	let reply: object;
	try {
		const request = JSON.parse(line);
		id = request.id ?? null;
		reply = { id, ok: true, ...(await handle(request)) };
	} catch (error) {
		const err = error as Error;
		reply = { id, ok: false, error: err?.message ?? String(error), errorName: err?.name ?? "Error" };
	}
	process.stdout.write(`${JSON.stringify(reply)}\n`);
}
