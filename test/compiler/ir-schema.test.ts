/**
 * The IR JSON Schema (schemas/plan-ir.schema.json) is the contract every IR consumer
 * and the LLM planner rely on: it must accept exactly the shape of `PlanIR` in src/ir.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { compileFile } from "../../src/compiler/index.js";
import { COMPLEXITIES, IR_VERSION, RISKS, STEP_KINDS, type IRNode, type PlanIR } from "../../src/ir.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const schemaPath = join(root, "schemas/plan-ir.schema.json");
const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as Record<string, any>;
// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

const HASH = "a".repeat(64);
const span = { file: "plan.yaml", start: 10, end: 42, line: 3, col: 3 };

function minimalNode(): IRNode {
  return {
    id: "read_csv",
    kind: "read",
    goal: "Read the CSV",
    allowedTools: [],
    risk: "read",
    riskInferred: true,
    dependsOn: [],
    consumes: [],
    success: [],
    assumes: [],
    span,
  };
}

function minimalIR(): PlanIR {
  return {
    irVersion: IR_VERSION,
    name: "tiny",
    goal: "Do one thing",
    deliverables: [],
    source: { file: "plan.yaml", sha256: HASH },
    inputs: {},
    tools: {},
    limits: {},
    hypotheses: {},
    nodes: [minimalNode()],
    order: ["read_csv"],
    planHash: HASH,
  };
}

/** Every optional field of the IR set at least once, typed against PlanIR so the type and schema stay in step. */
function fullIR(): PlanIR {
  const send: IRNode = {
    id: "publish.send",
    kind: "external",
    goal: "Send the report",
    tool: "send_email",
    allowedTools: ["send_email", "fs.read"],
    risk: "external",
    riskInferred: false,
    dependsOn: ["read_csv"],
    consumes: ["read_csv"],
    with: {
      to: { $expr: "inputs.recipient" },
      subject: { $template: ["Report ", { $expr: "run.id" }] },
      nested: { list: [1, "two", null, true, { $expr: "item.id" }] },
    },
    output: "receipt",
    outputSchema: { type: "object", properties: { id: { type: "string" } } },
    success: [{ check: "output.id != null" }, { evidence: ["steps.read_csv"] }, { judge: "the email reads well" }],
    when: "steps.read_csv.output.rows > 0",
    retry: { maxAttempts: 3, backoff: "exponential", initialDelayMs: 1000, maxDelayMs: 30000 },
    timeoutMs: 120000,
    repeat: { until: "output.ok", maxAttempts: 5 },
    forEach: { items: "steps.read_csv.output.rows", maxItems: 100, concurrency: 4 },
    approval: { required: true, approvers: ["ops-lead"], timeoutMs: 86_400_000 },
    idempotencyKey: { $template: [{ $expr: "run.id" }, ":send"] },
    assumes: ["tz_bug"],
    phase: { expand: "planner", maxSteps: 8 },
    template: { name: "blog-publish", instance: "publish" },
    span,
  };
  return {
    ...minimalIR(),
    deliverables: ["receipt"],
    complexity: "moderate",
    inputs: {
      recipient: { type: "string", description: "who gets it", default: "ops@example.com", required: false },
      csv_path: { type: "string", required: true },
    },
    tools: {
      send_email: { risk: "external", description: "send mail", inputSchema: { type: "object" }, outputSchema: true },
      "fs.read": { risk: "read" },
    },
    limits: { runTimeoutMs: 1_800_000, maxToolCalls: 100, maxSteps: 12 },
    hypotheses: { tz_bug: { statement: "dates lack a zone", verifyBy: ["read_csv"] } },
    nodes: [minimalNode(), send],
    order: ["read_csv", "publish.send"],
  };
}

let validate: ValidateFunction;

beforeAll(() => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  validate = ajv.compile(schema);
});

function errorsOf(ir: unknown): string[] {
  return validate(ir) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}

describe("plan-ir.schema.json", () => {
  it("is a draft-07 schema with the published $id", () => {
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.$id).toBe("https://planspec.dev/schemas/plan-ir.schema.json");
  });

  it("takes its enums from the constants in src/ir.ts", () => {
    expect(schema.properties.irVersion.const).toBe(IR_VERSION);
    expect(schema.definitions.node.properties.kind.enum).toEqual([...STEP_KINDS]);
    expect(schema.definitions.risk.enum).toEqual([...RISKS]);
    expect(schema.properties.complexity.enum).toEqual([...COMPLEXITIES]);
  });

  it("accepts a minimal hand-written IR", () => {
    expect(errorsOf(minimalIR())).toEqual([]);
  });

  it("accepts an IR that sets every optional field", () => {
    expect(errorsOf(fullIR())).toEqual([]);
  });

  const mutations: Array<[string, (ir: any) => void, string]> = [
    ["a node without id", (ir) => delete ir.nodes[0].id, "/nodes/0"],
    ["an unknown risk", (ir) => (ir.nodes[0].risk = "dangerous"), "/nodes/0/risk"],
    ["an unknown step kind", (ir) => (ir.nodes[0].kind = "think"), "/nodes/0/kind"],
    ["an extra top-level key", (ir) => (ir.extra = 1), ""],
    ["an extra node key", (ir) => (ir.nodes[0].needs = []), "/nodes/0"],
    ["an extra key in a span", (ir) => (ir.nodes[0].span.offset = 0), "/nodes/0/span"],
    ["irVersion 2", (ir) => (ir.irVersion = 2), "/irVersion"],
    ["a planHash that is not sha256 hex", (ir) => (ir.planHash = "ABC"), "/planHash"],
    ["a missing planHash", (ir) => delete ir.planHash, ""],
    ["an unknown complexity", (ir) => (ir.complexity = "huge"), "/complexity"],
    ["a success criterion with two keys", (ir) => (ir.nodes[0].success = [{ check: "x", judge: "y" }]), "/nodes/0/success/0"],
    ["an empty success criterion", (ir) => (ir.nodes[0].success = [{}]), "/nodes/0/success/0"],
    ["an input without required", (ir) => (ir.inputs.x = { type: "string" }), "/inputs/x"],
    ["a tool with an unknown risk", (ir) => (ir.tools.t = { risk: "none" }), "/tools/t/risk"],
    ["a zero retry bound", (ir) => (ir.nodes[0].retry = { maxAttempts: 0, backoff: "none", initialDelayMs: 0, maxDelayMs: 0 }), "/nodes/0/retry/maxAttempts"],
    ["a negative timeout", (ir) => (ir.nodes[0].timeoutMs = -1), "/nodes/0/timeoutMs"],
    ["a fractional limit", (ir) => (ir.limits = { maxToolCalls: 1.5 }), "/limits/maxToolCalls"],
    ["duplicate dependencies", (ir) => (ir.nodes[0].dependsOn = ["a", "a"]), "/nodes/0/dependsOn"],
    ["an expression with an extra key", (ir) => (ir.nodes[0].with = { a: { $expr: "x", note: "y" } }), "/nodes/0/with/a"],
    ["a template part that is a number", (ir) => (ir.nodes[0].with = { a: { $template: ["a", 1] } }), "/nodes/0/with/a"],
    ["an approval without approvers", (ir) => (ir.nodes[0].approval = { required: true }), "/nodes/0/approval"],
    ["a hypothesis in DSL spelling", (ir) => (ir.hypotheses.h = { statement: "s", verify_by: [] }), "/hypotheses/h"],
    ["a limit in DSL spelling", (ir) => (ir.limits = { run_timeout: "30m" }), "/limits"],
  ];

  it.each(mutations)("rejects %s", (_label, mutate, pointer) => {
    const ir = structuredClone(minimalIR()) as any;
    mutate(ir);
    const errors = errorsOf(ir);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.some((e) => e.startsWith(`${pointer} `) || e.startsWith(`${pointer}/`))).toBe(true);
  });
});

/** Plan files shipped as examples or as compile cases: each must compile clean. */
function shippedPlans(): string[] {
  const dirs = ["specs/examples", "specs/compile/ok"];
  return dirs.flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((f) => /\.plan\.(ya?ml|json)$/.test(f))
      .map((f) => `${dir}/${f}`),
  );
}

describe("IR of every shipped plan", () => {
  it("covers the examples and the compile cases", () => {
    const plans = shippedPlans();
    expect(plans.filter((p) => p.startsWith("specs/examples/")).length).toBeGreaterThanOrEqual(5);
    expect(plans.filter((p) => p.startsWith("specs/compile/ok/")).length).toBeGreaterThanOrEqual(8);
  });

  it.each(shippedPlans())("%s compiles without diagnostics to a schema-valid IR", (plan) => {
    const result = compileFile(plan, { cwd: root });
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.message} [${d.code}]`)).toEqual([]);
    expect(result.ir).toBeDefined();
    expect(errorsOf(result.ir)).toEqual([]);
    // What a schema cannot say (SPEC §2 invariants): every edge names a node, `order` is topological.
    const ir = result.ir!;
    const position = new Map(ir.order.map((id, i) => [id, i]));
    expect([...position.keys()].sort()).toEqual(ir.nodes.map((n) => n.id).sort());
    for (const node of ir.nodes) {
      for (const dep of node.dependsOn) {
        expect(position.has(dep), `${node.id} depends on unknown node ${dep}`).toBe(true);
        expect(position.get(dep)!).toBeLessThan(position.get(node.id)!);
      }
    }
  });
});
