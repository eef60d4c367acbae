import { describe, expect, it } from "vitest";
import { loadState } from "../../src/runtime/migrations.js";

const HASH = "a".repeat(64);
const state = (nodes: unknown, head: Record<string, unknown> = {}) => ({
  schemaVersion: 2,
  stateVersion: 3,
  runId: "r1",
  planHash: HASH,
  revision: 0,
  status: "running",
  createdAt: "2026-12-03T10:00:00.000Z",
  updatedAt: "2026-12-03T10:00:01.000Z",
  budget: { toolCalls: 1, startedAt: "2026-12-03T10:00:00.000Z", elapsedMs: 5 },
  inputs: {},
  nodes,
  ...head,
});
const good = { status: "done", attempts: 1, outputRef: "inline:1", outputHash: HASH };

describe("loading a state checks every node and names the first bad one", () => {
  it("accepts a valid state", async () => {
    const { state: s } = await loadState(state({ a: good, b: { status: "pending", attempts: 0 } }));
    expect(Object.keys(s.nodes)).toEqual(["a", "b"]);
  });

  it.each([
    ["an output outside artifacts/", { a: good, b: { ...good, outputRef: "../../etc/passwd" } }, '/nodes/b/outputRef must match pattern "^(artifacts/[0-9a-f]{64}\\.json|inline:.+)$"'],
    ["an unknown key", { a: { ...good, injected: true } }, "/nodes/a must NOT have additional properties"],
    ["a missing status", { a: good, b: { attempts: 0 } }, "/nodes/b must have required property 'status'"],
    ["a bad status", { a: { ...good, status: "ok" } }, "/nodes/a/status must be equal to one of the allowed values"],
    ["a nested decision", { a: { ...good, decision: { decision: "approved", by: "x", at: "t", binding: "zz" } } }, '/nodes/a/decision/binding must match pattern "^[0-9a-f]{64}$"'],
    ["a node that is no object", { a: good, "x/y~z": "done" }, "/nodes/x~1y~0z must be object"],
  ])("%s", async (_name, nodes, message) => {
    await expect(loadState(state(nodes))).rejects.toThrow(`state.json is invalid: ${message}`);
  });

  it("checks the head of a state with valid nodes, and nodes that are not an object", async () => {
    await expect(loadState(state({ a: good }, { planHash: "nope" }))).rejects.toThrow('state.json is invalid: /planHash must match pattern "^[0-9a-f]{64}$"');
    await expect(loadState(state({ a: good }, { extra: 1 }))).rejects.toThrow("state.json is invalid: (root) must NOT have additional properties");
    await expect(loadState(state([good]))).rejects.toThrow("state.json is invalid: /nodes must be object");
    await expect(loadState(state(null))).rejects.toThrow("state.json is invalid: /nodes must be object");
  });

  it("a bad head is reported before a bad node, as the whole schema orders them", async () => {
    await expect(loadState(state({ a: { attempts: 0 } }, { runId: "-bad" }))).rejects.toThrow('state.json is invalid: /runId must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]*$"');
  });
});
