/**
 * `planspec report RUN`: a real run of the csv-anomalies example (and a failing run),
 * reported to HTML and opened in headless Chromium: steps drawn, colours by status,
 * the timeline, step details, escaping, and nothing fetched from the network.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../runtime/helpers.js";
import { fileLines, planspec, ROOT } from "../cli/run-helpers.js";
import { Browser, SKIP_BROWSER, screenshot, screenshotDir } from "./browser.js";
import type { Page } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  if (!SKIP_BROWSER) browser = await Browser.launch();
});
afterAll(async () => {
  await browser?.close();
});

function pausedExampleRun(): { ws: string; run: string } {
  const ws = tempDir("planspec-report-");
  cpSync(join(ROOT, "examples/data"), join(ws, "examples/data"), { recursive: true });
  const run = join(ws, "run");
  const r = planspec(ws, ["run", join(ROOT, "specs/examples/csv-anomalies.plan.yaml"), "--tools", join(ROOT, "specs/examples/tools/csv-tools.mjs"), "--run-dir", run]);
  expect(r.code, r.stderr).toBe(3);
  return { ws, run };
}

function report(ws: string, run: string, name: string): string {
  const out = join(ws, name);
  const r = planspec(ws, ["report", run, "-o", out]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

/** Each step's status as the picture shows it: its fill, and the legend's fill for that status. */
async function drawnStatuses(page: Page): Promise<Array<{ id: string; status: string; fill: string; legendFill: string | null; text: string }>> {
  return page.$$eval("#graph g.node", (gs) => {
    const legend = new Map([...document.querySelectorAll("#graph g.legend-item")].map((g) => [g.getAttribute("data-key"), g.querySelector(".swatch") ? getComputedStyle(g.querySelector(".swatch")!).fill : null]));
    return gs.map((g) => {
      const status = g.getAttribute("data-status")!;
      return { id: g.getAttribute("data-id")!, status, fill: getComputedStyle(g.querySelector(".shape")!).fill, legendFill: legend.get(`status-${status}`) ?? null, text: g.textContent ?? "" };
    });
  });
}

describe.skipIf(SKIP_BROWSER)("planspec report", () => {
  it("reports a run paused at its approval gate, then the finished run after approval", async () => {
    const { ws, run } = pausedExampleRun();
    const file = report(ws, run, "paused.html");
    const html = readFileSync(file, "utf8");
    expect(html).not.toMatch(/<(link|img)\b|src="http|href="http/);

    const { page, errors, requests } = await browser.open(file);
    await screenshot(page, join(screenshotDir(), "run-paused.png"));
    const state = JSON.parse(readFileSync(join(run, "state.json"), "utf8")) as { nodes: Record<string, { status: string }> };
    const drawn = await drawnStatuses(page);
    expect(drawn.map((d) => d.id).sort()).toEqual(Object.keys(state.nodes).sort());
    for (const d of drawn) {
      expect(d.status, d.id).toBe(state.nodes[d.id]!.status);
      expect(d.fill, d.id).toBe(d.legendFill);
      expect(d.text).toContain(d.id);
    }
    expect(drawn.filter((d) => d.status !== "done").map((d) => d.id)).toEqual(["send"]);
    const send = drawn.find((d) => d.id === "send")!;
    expect(send.status).toBe("pending");
    expect(send.text).toContain("waiting: approval");
    expect(send.fill).not.toBe(drawn.find((d) => d.id === "read_csv")!.fill);

    // The timeline lists every event of events.jsonl, in order.
    const events = fileLines(join(run, "events.jsonl")).map((l) => JSON.parse(l) as { seq: number; type: string });
    const rows = await page.$$eval("tr.event", (trs) => trs.map((tr) => ({ seq: Number(tr.children[0]!.textContent), type: tr.children[2]!.textContent, step: tr.getAttribute("data-step"), text: tr.children[4]!.textContent })));
    expect(rows.map((r) => [r.seq, r.type])).toEqual(events.map((e) => [e.seq, e.type]));
    expect(rows.find((r) => r.type === "approval.requested")).toMatchObject({ step: "send", text: "waiting for approval by ops-lead" });

    const summary = await page.$eval("#summary ul.summary", (u) => u.textContent);
    expect(summary).toContain(`Done ${drawn.length - 1}/${drawn.length}`);
    expect(summary).toContain("Waiting: email the report to the recipient once ops has approved it");

    // Step details: the `with` as written, the evaluated arguments and the output.
    const readCsv = await page.$eval("#step-read_csv", (d) => d.textContent);
    expect(readCsv).toContain("${{ inputs.csv_path }}");
    expect(readCsv).toContain('"path": "examples/data/orders.csv"');
    expect(readCsv).toMatch(/"rows": 200/);
    expect(readCsv).toMatch(/… [\d,]+ more bytes/);
    expect(await page.$eval("#step-send", (d) => (d as HTMLDetailsElement).open)).toBe(true);

    // Clicking a step in the graph opens its details (on the hashchange event, which comes
    // after the click returns: under CI's load the details were read before it fired).
    expect(await page.$eval("#step-summarize", (d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.click('#graph a[href="#step-summarize"]');
    await page.waitForFunction(() => (document.getElementById("step-summarize") as HTMLDetailsElement | null)?.open === true, undefined, { timeout: 10_000 });
    // The timeline filter keeps only one step's events.
    await page.fill("#ev-step", "write_report");
    const visible = await page.$$eval("tr.event", (trs) => trs.filter((t) => (t as HTMLElement).style.display !== "none").map((t) => t.getAttribute("data-step")));
    expect(new Set(visible)).toEqual(new Set(["write_report"]));
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);

    expect(planspec(ws, ["approve", run, "send", "--by", "ops-lead", "--note", "numbers <checked>"]).code).toBe(0);
    expect(planspec(ws, ["resume", run]).code).toBe(0);
    const done = await browser.open(report(ws, run, "done.html"));
    await screenshot(done.page, join(screenshotDir(), "run-done.png"));
    const after = await drawnStatuses(done.page);
    expect(after.every((d) => d.status === "done" && d.fill === d.legendFill)).toBe(true);
    const decision = await done.page.$$eval("tr.event.cat-approval", (trs) => trs.map((t) => t.children[4]!.textContent));
    expect(decision).toContain("approval: approved by ops-lead — “numbers <checked>”");
    expect(await done.page.$eval("header .pill", (p) => p.textContent)).toBe("done");
    expect(done.errors).toEqual([]);
  });

  it("shows a failed step in the failure colour with its errors, retries and hostile output escaped", async () => {
    const ws = tempDir("planspec-report-fail-");
    writeFileSync(
      join(ws, "tools.mjs"),
      `export default {
  grab: { risk: "read", run: () => ({ html: "<img src=x onerror=\\"window.pwned=1\\">", big: "x".repeat(5000) }) },
  boom: { risk: "read", run: () => { throw new Error("bad <script>window.pwned=2</script> input"); } },
};\n`,
    );
    writeFileSync(
      join(ws, "f.plan.yaml"),
      `planspec: 1
name: failing
goal: Fetch a page and parse it
limits: { max_tool_calls: 10 }
tools: { grab: { risk: read }, boom: { risk: read } }
steps:
  fetch:
    kind: read
    goal: Fetch the page
    tool: grab
    output: page
    success: [{ check: "\${{ exists(output.html) }}" }]
  parse:
    kind: analyze
    goal: Parse the page
    needs: [fetch]
    tool: boom
    with: { html: "\${{ steps.fetch.output.html }}" }
    retry: { max_attempts: 2, backoff: fixed, initial_delay: 10ms }
    output: parsed
    success: [{ check: "\${{ exists(output) }}" }]
  use:
    kind: summarize
    goal: Summarise the parse
    needs: [parse]
    tool: grab
    output: summary
    success: [{ check: "\${{ exists(output) }}" }]
`,
    );
    const run = join(ws, "run");
    const r = planspec(ws, ["run", "f.plan.yaml", "--tools", "tools.mjs", "--run-dir", run, "--no-lint-gate"]);
    expect(r.code, r.stderr).toBe(1);
    const { page, errors } = await browser.open(report(ws, run, "failed.html"));
    await screenshot(page, join(screenshotDir(), "run-failed.png"));
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.$$eval("main img, main script", (e) => e.length)).toBe(0);

    const drawn = await drawnStatuses(page);
    const parse = drawn.find((d) => d.id === "parse")!;
    expect(parse.status).toBe("failed");
    expect(parse.fill).toBe(parse.legendFill);
    expect(parse.text).toContain("2 attempts");
    expect(drawn.find((d) => d.id === "fetch")!.status).toBe("done");
    expect(await page.$eval("#step-parse", (d) => (d as HTMLDetailsElement).open)).toBe(true);
    const errs = await page.$$eval("#step-parse ul.errors li", (lis) => lis.map((l) => l.textContent));
    expect(errs).toContain("attempt 1: boom failed: bad <script>window.pwned=2</script> input");
    expect(errs).toContain("attempt 2: boom failed: bad <script>window.pwned=2</script> input");
    const fetchOut = await page.$eval("#step-fetch", (d) => d.textContent);
    expect(fetchOut).toContain('"html": "<img src=x onerror=\\"window.pwned=1\\">"');
    expect(fetchOut).toMatch(/… 3,\d{3} more bytes/);
    const parseArgs = await page.$eval("#step-parse", (d) => d.textContent);
    expect(parseArgs).toContain("Evaluated arguments (attempt 2)");
    const types = await page.$$eval("tr.event", (trs) => trs.map((t) => t.getAttribute("data-category")));
    expect(types).toContain("retry");
    expect(types).toContain("failure");
    expect(errors).toEqual([]);
  });

  it("refuses a path that holds no run with one line and exit 2", () => {
    const ws = tempDir("planspec-report-none-");
    const r = planspec(ws, ["report", "nope", "-o", "x.html"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^planspec: no run "nope": not a run directory/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
