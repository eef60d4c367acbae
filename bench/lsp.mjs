// How long the language server takes from an edit to its diagnostics, and to answer a
// completion, on generated plans of 100, 1,000 and 5,000 steps (lib/gen-plan.mjs). The
// server runs as the editor starts it (`planspec lsp --stdio`, debounce 0) and is driven
// over its stdio with vscode-jsonrpc. Medians of --runs edits; nothing asserted.
//
//   node bench/lsp.mjs [--sizes 100,1000,5000] [--runs 7]
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { generatePlan, toYaml } from "./lib/gen-plan.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const sizes = arg("sizes", "100,1000,5000").split(",").map(Number);
const runs = Number(arg("runs", "7"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), "planspec-bench-lsp-"));
const child = spawn(process.execPath, [join(import.meta.dirname, "../bin/planspec"), "lsp", "--stdio", "--debounce", "0"], { cwd: dir, stdio: ["pipe", "pipe", "inherit"] });
const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
let waiting;
conn.onNotification("textDocument/publishDiagnostics", (p) => waiting?.(p));
conn.listen();
await conn.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
await conn.sendNotification("initialized", {});
const published = (uri, version) => new Promise((resolve) => (waiting = (p) => p.uri === uri && p.version === version && resolve(p)));

console.log("steps  bytes     open→diagnostics  edit→diagnostics  completion (steps.)");
for (const n of sizes) {
  const text = toYaml(generatePlan(n));
  const file = join(dir, `gen-${n}.plan.yaml`);
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;
  let t = performance.now();
  const first = published(uri, 1);
  await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
  await first;
  const open = performance.now() - t;
  const edits = [];
  const completions = [];
  for (let i = 0; i < runs; i++) {
    const version = i + 2;
    const edited = text.replace(/goal: ([^\n]*)/, `goal: $1 ${i}`);
    const done = published(uri, version);
    t = performance.now();
    await conn.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text: edited }] });
    await done;
    edits.push(performance.now() - t);
    const at = edited.indexOf("steps.") + "steps.".length;
    const line = edited.slice(0, at).split("\n").length - 1;
    const character = at - (edited.lastIndexOf("\n", at - 1) + 1);
    t = performance.now();
    await conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: { line, character } });
    completions.push(performance.now() - t);
  }
  console.log(`${String(n).padEnd(6)} ${String(text.length).padEnd(9)} ${open.toFixed(0).padStart(8)} ms       ${median(edits).toFixed(0).padStart(8)} ms       ${median(completions).toFixed(1).padStart(8)} ms`);
}
await conn.sendRequest("shutdown");
await conn.sendNotification("exit");
