/**
 * TaskBench's dailylifeapis domain: the reviewed risk of each of its 40 tools, the typed
 * catalogue, and an LLM-style plan imported from it meeting the side-effect lint rules.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compileSource } from "../../src/compiler/index.js";
import { lintCompiled } from "../../src/lint/engine.js";
import { DAILYLIFE_REVIEW, dailyLifeKind, dailyLifeToolEntry, dailyLifeTools, toDailyLifePlanDoc } from "../../src/eval/taskbench/dailylifeapis.js";
import { parseTaskBenchLine } from "../../src/eval/taskbench/record.js";
import { planspec, ROOT } from "../cli/run-helpers.js";

const DESC = JSON.parse(readFileSync(join(ROOT, "examples/taskbench/dailylifeapis/tool_desc.json"), "utf8"));
const tools = dailyLifeTools(DESC)!;

describe("the dailylifeapis review", () => {
  it("gives every one of the 40 tools a risk and a reason, and nothing else", () => {
    expect(tools.map((t) => t.id)).toEqual(Object.keys(DAILYLIFE_REVIEW));
    expect(tools).toHaveLength(40);
    const by = (risk: string) => Object.entries(DAILYLIFE_REVIEW).filter(([, r]) => r.risk === risk).map(([id]) => id);
    // Counted from the table: three lookups, seven changes to the user's own devices, thirty side effects.
    expect(by("read")).toEqual(["get_weather", "get_news_for_topic", "search_by_engine"]);
    expect(by("write")).toEqual(["play_music_by_title", "play_movie_by_title", "take_note", "recording_audio", "software_management", "print_document", "set_alarm"]);
    expect(by("external")).toHaveLength(30);
    for (const t of ["book_flight", "online_banking", "pay_for_credit_card", "send_email", "stock_operation", "do_tax_return"]) expect(DAILYLIFE_REVIEW[t]!.risk).toBe("external");
    expect(Object.values(DAILYLIFE_REVIEW).every((r) => r.reason.length > 15)).toBe(true);
  });

  it("is the table docs/evals.md shows", () => {
    const doc = readFileSync(join(ROOT, "docs/evals.md"), "utf8");
    for (const [id, r] of Object.entries(DAILYLIFE_REVIEW)) expect(doc).toContain(`| \`${id}\` | ${r.risk} | ${r.reason} |`);
  });

  it("types each tool's parameters as its input_schema; the committed suite catalogue is what the code makes", () => {
    expect(dailyLifeToolEntry(tools.find((t) => t.id === "book_flight")!)).toEqual({
      risk: "external",
      description: "Book a flight for a specific date, from a specific location to a specific destination",
      input_schema: {
        type: "object",
        required: ["date", "from", "to"],
        properties: {
          date: { type: "string", description: "The date to book the flight for (a date)" },
          from: { type: "string", description: "The location to book the flight from" },
          to: { type: "string", description: "The location to book the flight to" },
        },
        additionalProperties: false,
      },
    });
    const committed = parse(readFileSync(join(ROOT, "evals/dailylifeapis/tools.catalog.yaml"), "utf8")).tools;
    expect(committed).toEqual(Object.fromEntries(tools.map((t) => [t.id, dailyLifeToolEntry(t)])));
    expect([dailyLifeKind("search_by_engine"), dailyLifeKind("get_weather"), dailyLifeKind("set_alarm"), dailyLifeKind("send_sms"), dailyLifeKind("no_such_tool")]).toEqual(["search", "read", "write", "external", "external"]);
  });
});

// Request 70608611 of user_requests.json, planned the way TaskBench's models answer: temporal links, no gates.
const PREDICTION = JSON.stringify({
  id: "70608611",
  user_request: "I need to pay my electricity bill and then send an email notification to example@example.com with the message 'Your electricity bill has been paid.'.",
  result: {
    task_steps: ["Step 1: Pay the electricity bill", "Step 2: Send the email notification"],
    task_nodes: [
      { task: "daily_bill_payment", arguments: [{ name: "bill", value: "electricity bill" }] },
      { task: "send_email", arguments: [{ name: "email_address", value: "example@example.com" }, { name: "content", value: "Your electricity bill has been paid." }] },
    ],
    task_links: [{ source: "daily_bill_payment", target: "send_email" }],
  },
});

describe("a dailylifeapis prediction, imported", () => {
  const parsed = parseTaskBenchLine(PREDICTION);
  if (!parsed.ok) throw new Error(parsed.reason);
  const { doc } = toDailyLifePlanDoc(parsed.record, new Map(tools.map((t) => [t.id, t])));

  it("takes named arguments as with and needs from task_links, and invents no deliverables", () => {
    expect(doc.steps.node_0).toMatchObject({ kind: "external", tool: "daily_bill_payment", goal: "Pay the electricity bill", with: { bill: "electricity bill" } });
    expect(doc.steps.node_1).toMatchObject({ needs: ["node_0"], with: { email_address: "example@example.com", content: "Your electricity bill has been paid." } });
    expect("deliverables" in doc).toBe(false);
    expect(doc.tools.send_email!.risk).toBe("external");
  });

  it("meets the side-effect rules: no key is an error, no gate a warning, no evidence an error", () => {
    const result = compileSource("70608611.plan.json", JSON.stringify(doc));
    expect(result.ir, JSON.stringify(result.diagnostics)).toBeDefined();
    const findings = lintCompiled(result).map((d) => `${d.code}:${d.severity}`);
    const codes = new Set(findings);
    expect(codes.has("side-effect-without-idempotency-key:error"), findings.join(", ")).toBe(true);
    expect(codes.has("external-without-approval:warning"), findings.join(", ")).toBe(true);
    expect(codes.has("write-without-evidence:error"), findings.join(", ")).toBe(true);
  });

  it("is what `planspec import taskbench` writes, the domain detected from tool_desc.json", () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-daily-"));
    const pred = join(dir, "daily.jsonl");
    writeFileSync(pred, PREDICTION + "\n");
    const r = planspec(dir, ["import", "taskbench", "daily.jsonl", "--tools", join(ROOT, "examples/taskbench/dailylifeapis/tool_desc.json"), "--out", "plans"]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(dir, "plans"))).toEqual(["70608611.plan.json"]);
    expect(JSON.parse(readFileSync(join(dir, "plans/70608611.plan.json"), "utf8"))).toEqual(JSON.parse(JSON.stringify(doc)));
    const wrong = planspec(dir, ["import", "taskbench", "daily.jsonl", "--tools", join(ROOT, "examples/taskbench/dailylifeapis/tool_desc.json"), "--out", "p2", "--domain", "travel"]);
    expect([wrong.code, wrong.stderr]).toEqual([2, 'planspec: --domain must be multimedia or dailylifeapis, got "travel"\n']);
  });
});
