// Stdio MCP tee: runs the real server (argv after the log path) and passes
// bytes through unchanged in both directions, while writing every line of
// each direction to LOG as a JSON line {t, dir: "c2s"|"s2c", msg}.
//
//   node mcp_tee.mjs LOG COMMAND [ARGS...]
//
// Used by tests/real_agents.rs when HASHEDIT_AGENTS_TRACE_MCP=1, to see
// what an agent CLI sends to the server (initialize capabilities, methods,
// injected arguments, cancellations).
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [log, command, ...args] = process.argv.slice(2);
const t0 = Date.now();
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

function record(dir, line) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    msg = { unparsed: line };
  }
  appendFileSync(log, JSON.stringify({ t: Date.now() - t0, dir, msg }) + "\n");
}

function splitter(dir) {
  let pending = "";
  return (chunk) => {
    pending += chunk.toString("utf8");
    let nl;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.trim()) record(dir, line);
    }
  };
}

const fromClient = splitter("c2s");
const fromServer = splitter("s2c");
process.stdin.on("data", (chunk) => {
  fromClient(chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => {
  record("c2s", JSON.stringify({ event: "stdin closed" }));
  child.stdin.end();
});
child.stdout.on("data", (chunk) => {
  fromServer(chunk);
  process.stdout.write(chunk);
});
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(sig, () => {
    record("c2s", JSON.stringify({ event: `signal ${sig}` }));
    child.kill(sig);
  });
}
child.on("exit", (code, signal) => {
  record("s2c", JSON.stringify({ event: "server exited", code, signal }));
  process.exit(code ?? 1);
});
