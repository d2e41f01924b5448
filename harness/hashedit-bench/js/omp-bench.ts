// Per-call latency of oh-my-pi's hashline engine (@oh-my-pi/hashline on
// Bun), in process, on real files: the Rust harness cannot call it, so
// scripts/bench runs this script in rounds alternating with the Rust
// in-process runs.
//
// Usage: bun omp-bench.ts <package dir> <workspace dir> <op> <file> <calls> [<line or limit>]
//   op read:  read the file from disk, tag the whole text, render rows 1..limit
//             under the [path#TAG] header (what the coding agent's read tool
//             does around the package's helpers)
//   op edit:  apply a one-op document through the package's Patcher on the
//             Node filesystem, flipping line <line> to a marker row and back
//
// Prints {"samples":[µs,…]} on stdout.

import * as path from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, workspace, op, file, callsText, extraText] = process.argv.slice(2);
if (!packageDir || !workspace || !op || !file || !callsText) {
	process.stderr.write("usage: bun omp-bench.ts <package dir> <workspace dir> <op> <file> <calls> [<line or limit>]\n");
	process.exit(2);
}
const hl = await import(pathToFileURL(path.join(packageDir, "src", "index.ts")).href);
process.chdir(workspace);
const calls = Number(callsText);
const extra = Number(extraText ?? "2000");
const fs = new hl.NodeFilesystem();

async function read(): Promise<string> {
	const text = hl.normalizeToLF(await fs.readText(file));
	const tag = hl.computeFileHash(text);
	const rows = hl
		.splitAddressableFileLines(text)
		.slice(0, extra)
		.map((line: string, i: number) => hl.formatNumberedLine(i + 1, line));
	return [hl.formatHashlineHeader(file, tag), ...rows].join("\n");
}

const patcher = new hl.Patcher({ fs, snapshots: new hl.InMemorySnapshotStore(), enforceSeenLines: false });
const marker = "// hashedit-bench was here";

async function flipDocuments(): Promise<[string, string]> {
	const text = hl.normalizeToLF(await fs.readText(file));
	const lines = text.split("\n");
	const original = lines[extra - 1];
	if (original === undefined) throw new Error(`${file} has no line ${extra}`);
	const forward = `[${file}#${hl.computeFileHash(text)}]\nPUT ${extra}:\n+${marker}\n`;
	lines[extra - 1] = marker;
	const flipped = lines.join("\n");
	const back = `[${file}#${hl.computeFileHash(flipped)}]\nPUT ${extra}:\n+${original}\n`;
	return [forward, back];
}

const samples: number[] = [];
if (op === "read") {
	await read();
	for (let i = 0; i < calls; i++) {
		const start = performance.now();
		await read();
		samples.push((performance.now() - start) * 1000);
	}
} else if (op === "edit") {
	const docs = await flipDocuments();
	await patcher.apply(hl.Patch.parse(docs[0]));
	for (let i = 0; i < calls; i++) {
		const doc = docs[(i + 1) % 2];
		const start = performance.now();
		await patcher.apply(hl.Patch.parse(doc));
		samples.push((performance.now() - start) * 1000);
	}
	// Leave the file as it was.
	if (calls % 2 === 0) await patcher.apply(hl.Patch.parse(docs[1]));
} else {
	throw new Error(`unknown op ${op}`);
}
process.stdout.write(`${JSON.stringify({ samples })}\n`);
