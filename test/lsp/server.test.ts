/**
 * `planspec lsp --stdio` driven by a real client over the child's stdio: diagnostics as the
 * CLI reports them (codes, ranges, docs links, the workspace config), cleared by an edit;
 * completion, hover, definition, and a code action whose edit clears its finding.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, repoRoot } from "../helpers.js";
import { type LspDiagnostic, LspSession, type TextEdit, applyEdits, positionOf } from "./session.js";

const BROKEN = `planspec: 1
name: page-oncall
goal: Page the on-call engineer when the error rate is too high.
inputs:
  service: { type: string, default: login }
tools: { metrics.query: { risk: read }, pager.send: { risk: external } }
limits: { run_timeout: 10m }
defaults: { timeout: 1m }
steps:
  read_rate:
    kind: read
    goal: Query the error rate of the service
    tool: metrics.query
    with: { query: "\${{ inputs.service }}" }
    output: rate
    output_schema:
      type: object
      properties:
        value: { type: number }
        window: { type: string }
    success:
      - check: "\${{ output.value >= 0 }}"
  page:
    kind: external
    needs: [read_rte]
    goal: Page the on-call engineer with the current error rate
    tool: pager.send
    with: { rate: "\${{ steps.read_rate.output.value }}", service: "\${{ inputs.service }}" }
    approval: { required: true, approvers: [sre-lead], timeout: 15m }
    success:
      - check: "\${{ exists(output.incident_id) }}"
`;
const FIXED = BROKEN.replace("needs: [read_rte]", "needs: [read_rate]");
const CONFIG = "rules:\n  side-effect-without-idempotency-key: warning\n";

/** The CLI's JSON findings for a file, in the LSP's shape. */
function cliDiagnostics(dir: string, file: string): LspDiagnostic[] {
  const r = cli(["lint", file, "--format", "json"], { cwd: dir });
  const list = JSON.parse(r.stdout) as Array<{ code: string; severity: string; message: string; hint?: string; line: number; col: number; endLine: number; endCol: number; docsUrl: string }>;
  return list.map((d) => ({
    range: { start: { line: d.line - 1, character: d.col - 1 }, end: { line: d.endLine - 1, character: d.endCol - 1 } },
    severity: { error: 1, warning: 2, info: 3 }[d.severity]!,
    code: d.code,
    codeDescription: { href: d.docsUrl },
    source: "planspec",
    message: d.hint ? `${d.message}\n${d.hint}` : d.message,
  }));
}

let session: LspSession | undefined;
afterEach(() => {
  session?.child.kill("SIGKILL");
  session = undefined;
});

describe("planspec lsp --stdio", () => {
  it("publishes the CLI's diagnostics, clears them on edit, completes, hovers, jumps and fixes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-lsp-"));
    writeFileSync(join(dir, "planspec.config.yaml"), CONFIG);
    writeFileSync(join(dir, "page.plan.yaml"), BROKEN);
    const s = (session = new LspSession(dir));
    const init = await s.initialize();
    expect(init.capabilities).toMatchObject({ hoverProvider: true, definitionProvider: true });
    const uri = s.uri("page.plan.yaml");

    // A broken plan: the unknown step, at the same range and with the same docs link as the CLI.
    await s.open("page.plan.yaml", BROKEN);
    const broken = await s.diagnostics(uri);
    expect(broken.map((d) => d.code)).toContain("PS111");
    const ps111 = broken.find((d) => d.code === "PS111")!;
    expect(ps111.range).toEqual({ start: positionOf(BROKEN, "read_rte"), end: positionOf(BROKEN, "read_rte", "read_rte".length) });
    expect(ps111.codeDescription?.href).toBe("https://github.com/planspec/planspec/blob/main/docs/diagnostics.md#ps111");
    expect(broken).toEqual(cliDiagnostics(dir, "page.plan.yaml"));

    // Completion works on the broken text: step ids in needs (not the step itself).
    const needs = await s.request<Array<{ label: string }>>("textDocument/completion", "page.plan.yaml", { position: positionOf(BROKEN, "needs: [", "needs: [".length) });
    expect(needs.map((i) => i.label)).toEqual(["read_rate"]);

    // The edit fixes the typo: PS111 clears; the lint finding comes at the workspace config's severity.
    await s.change("page.plan.yaml", FIXED);
    const fixed = await s.diagnostics(uri, (list) => !list.some((d) => d.code === "PS111"));
    writeFileSync(join(dir, "page.plan.yaml"), FIXED);
    expect(fixed).toEqual(cliDiagnostics(dir, "page.plan.yaml"));
    expect(fixed.map((d) => [d.code, d.severity])).toEqual([["side-effect-without-idempotency-key", 2]]);

    // Expressions: step ids, output paths from output_schema, input names.
    const at = (needle: string, delta: number) => s.request<Array<{ label: string }>>("textDocument/completion", "page.plan.yaml", { position: positionOf(FIXED, needle, delta) });
    expect((await at("steps.read_rate.output.value", "steps.".length)).map((i) => i.label)).toEqual(["read_rate"]);
    expect((await at("steps.read_rate.output.value", "steps.read_rate.output.".length)).map((i) => i.label)).toEqual(["value", "window"]);
    expect((await at("inputs.service }}\" }\n    approval", "inputs.".length)).map((i) => i.label)).toEqual(["service"]);
    expect((await at("tool: pager.send", "tool: ".length)).map((i) => i.label)).toEqual(["metrics.query", "pager.send"]);

    // Hover: kind, declared and effective risk; the rule's docs on its finding.
    const hover = await s.request<{ contents: { value: string } }>("textDocument/hover", "page.plan.yaml", { position: positionOf(FIXED, "  page:", 3) });
    expect(hover.contents.value).toContain("**step `page`**: external");
    expect(hover.contents.value).toContain("effective risk: external");
    expect(hover.contents.value).toContain("**side-effect-without-idempotency-key**: An external step without an idempotency_key.");
    expect(hover.contents.value).toContain("docs/rules.md#side-effect-without-idempotency-key");

    // Definition: the `read_rate` in needs and in an expression jump to the step's key.
    const def = await s.request<{ uri: string; range: unknown }>("textDocument/definition", "page.plan.yaml", { position: positionOf(FIXED, "needs: [read_rate", 10) });
    const key = { start: positionOf(FIXED, "  read_rate:", 2), end: positionOf(FIXED, "  read_rate:", 2 + "read_rate".length) };
    expect(def).toEqual({ uri, range: key });
    const fromExpr = await s.request<{ uri: string; range: unknown }>("textDocument/definition", "page.plan.yaml", { position: positionOf(FIXED, "steps.read_rate.output", 8) });
    expect(fromExpr).toEqual({ uri, range: key });

    // A code action for the finding; its edit, applied and sent back, clears the diagnostics.
    const finding = fixed[0]!;
    const actions = await s.request<Array<{ title: string; kind: string; edit: { changes: Record<string, TextEdit[]> } }>>("textDocument/codeAction", "page.plan.yaml", {
      range: finding.range,
      context: { diagnostics: [finding], only: ["quickfix"] },
    });
    expect(actions.map((a) => a.title)).toEqual(['Fix: add idempotency_key to step "page"']);
    const after = applyEdits(FIXED, actions[0]!.edit.changes[uri]!);
    expect(after).toContain('    tool: pager.send\n    idempotency_key: "${{ run.id }}:page"\n');
    await s.change("page.plan.yaml", after);
    expect(await s.diagnostics(uri, (list) => list.length === 0)).toEqual([]);

    expect(await s.close()).toBe(0);
    expect(s.stderr.join("")).toBe("");
  }, 60_000);

  it("templates: completes a template's params, jumps to the template, and debounces rapid edits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-lsp-"));
    cpSync(join(repoRoot, "specs/examples"), dir, { recursive: true });
    const text = readFileSync(join(dir, "blog-post.plan.yaml"), "utf8").replace('with: { post: "${{ inputs.post }}" }', 'with: { post: "${{ inputs.post }}", }');
    const s = (session = new LspSession(dir, 300));
    await s.initialize();
    const uri = s.uri("blog-post.plan.yaml");
    await s.open("blog-post.plan.yaml", text);
    await s.diagnostics(uri);

    const params = await s.request<Array<{ label: string; detail?: string }>>("textDocument/completion", "blog-post.plan.yaml", { position: positionOf(text, '}}", }', 5) });
    expect(params.map((i) => [i.label, i.detail])).toEqual([["site_dir", "string"]]);
    const uses = await s.request<Array<{ label: string }>>("textDocument/completion", "blog-post.plan.yaml", { position: positionOf(text, "uses: blog-publish", "uses: ".length) });
    expect(uses.map((i) => i.label)).toEqual(["blog-publish"]);

    const template = readFileSync(join(dir, "templates/blog-publish.template.yaml"), "utf8");
    const def = await s.request<{ uri: string; range: unknown }>("textDocument/definition", "blog-post.plan.yaml", { position: positionOf(text, "uses: blog-publish", 8) });
    expect(def).toEqual({ uri: s.uri("templates/blog-publish.template.yaml"), range: { start: positionOf(template, "template: blog-publish", 10), end: positionOf(template, "template: blog-publish", 22) } });
    const hover = await s.request<{ contents: { value: string } }>("textDocument/hover", "blog-post.plan.yaml", { position: positionOf(text, "uses: blog-publish", 8) });
    expect(hover.contents.value).toContain("**template `blog-publish`**: Check a post's front matter");

    // Five edits within the debounce window: one analysis, of the last text.
    const before = s.published.length;
    const edited = (i: number) => text.replace("needs: [publish_post]", `needs: [publish_post, nope${i}]`);
    for (let i = 0; i < 5; i++) await s.change("blog-post.plan.yaml", edited(i));
    const last = await s.diagnostics(uri, (list) => list.some((d) => d.message.includes("nope4")));
    expect(last.filter((d) => d.code === "PS111").map((d) => d.range.start)).toEqual([positionOf(edited(4), "nope4")]);
    await new Promise((r) => setTimeout(r, 500));
    expect(s.published.slice(before).filter((p) => p.uri === uri).map((p) => p.version)).toEqual([6]);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it("leaves other YAML alone, and re-checks open plans when the config is saved", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-lsp-"));
    writeFileSync(join(dir, "planspec.config.yaml"), CONFIG);
    const s = (session = new LspSession(dir));
    await s.initialize();
    const workflow = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n";
    await s.open("ci.yml", workflow);
    await s.open("page.plan.yaml", FIXED);
    const uri = s.uri("page.plan.yaml");
    expect((await s.diagnostics(uri)).map((d) => [d.code, d.severity])).toEqual([["side-effect-without-idempotency-key", 2]]);
    expect(s.published.filter((p) => p.uri === s.uri("ci.yml"))).toEqual([]);

    await s.open("planspec.config.yaml", CONFIG);
    writeFileSync(join(dir, "planspec.config.yaml"), "rules:\n  side-effect-without-idempotency-key: off\n");
    await s.connection.sendNotification("textDocument/didSave", { textDocument: { uri: s.uri("planspec.config.yaml") } });
    expect(await s.diagnostics(uri, (list) => list.length === 0)).toEqual([]);
    expect(s.published.filter((p) => p.uri === s.uri("ci.yml") || p.uri === s.uri("planspec.config.yaml"))).toEqual([]);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it("answers under the client's own spelling of the URI (VS Code writes @ as %40)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec lsp @ws-"));
    writeFileSync(join(dir, "page.plan.yaml"), FIXED);
    const s = (session = new LspSession(dir));
    await s.initialize();
    const uri = s.uri("page.plan.yaml").replace(/@/g, "%40");
    expect(uri).toContain("%40");
    await s.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text: FIXED } });
    const list = await s.diagnostics(uri);
    expect(list.map((d) => d.code)).toEqual(["side-effect-without-idempotency-key"]);
    const actions = await s.connection.sendRequest("textDocument/codeAction", { textDocument: { uri }, range: list[0]!.range, context: { diagnostics: list } });
    expect((actions as Array<{ edit: { changes: Record<string, unknown> } }>).map((a) => Object.keys(a.edit.changes))).toEqual([[uri], [uri]]);
    expect(s.published.every((p) => p.uri === uri)).toBe(true);
    expect(await s.close()).toBe(0);
  }, 60_000);

  it("exits when the editor goes away without shutdown (stdin closed)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "planspec-lsp-"));
    const s = (session = new LspSession(dir));
    await s.initialize();
    await s.open("page.plan.yaml", BROKEN);
    await s.diagnostics(s.uri("page.plan.yaml"));
    const exited = new Promise<number | null>((resolve) => s.child.once("exit", (code) => resolve(code)));
    s.child.stdin.end();
    // No shutdown request came first: exit code 1, as the protocol says.
    expect(await exited).toBe(1);
  }, 30_000);

  it("refuses to start without --stdio, in one line", () => {
    expect(cli(["lsp"])).toMatchObject({ status: 2, stdout: "", stderr: "planspec: lsp needs --stdio (the only transport); e.g. planspec lsp --stdio\n" });
  });
});
