/**
 * `planspec graph --format svg`: the picture opened in headless Chromium, checked for
 * what a reader sees — every step, colours by risk, marks, labels, no overlapping boxes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../runtime/helpers.js";
import { planspec, ROOT } from "../cli/run-helpers.js";
import { Browser, SKIP_BROWSER, overlaps, screenshot, screenshotDir, type Box } from "./browser.js";
import { generatedPlan } from "./plans.js";

const EXAMPLE = join(ROOT, "specs/examples/csv-anomalies.plan.yaml");

let browser: Browser;
beforeAll(async () => {
  if (!SKIP_BROWSER) browser = await Browser.launch();
});
afterAll(async () => {
  await browser?.close();
});

function svgOf(planFile: string, dir: string): string {
  const out = join(dir, "plan.svg");
  const r = planspec(dir, ["graph", planFile, "--format", "svg", "-o", out]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe("");
  return out;
}

describe.skipIf(SKIP_BROWSER)("planspec graph --format svg", () => {
  it("draws every step of the example, filled by risk, with the approval badge and the outputs on the edges", async () => {
    const dir = tempDir("planspec-svg-");
    const file = svgOf(EXAMPLE, dir);
    const { page, errors, requests } = await browser.open(file);
    await screenshot(page, join(screenshotDir(), "csv-anomalies-plan.png"));

    const steps = await page.$$eval("g.node", (gs) => gs.map((g) => ({ id: g.getAttribute("data-id"), text: g.textContent, risk: g.getAttribute("data-risk"), fill: getComputedStyle(g.querySelector(".shape")!).fill })));
    const ir = join(dir, "plan.ir.json");
    expect(planspec(dir, ["compile", EXAMPLE, "-o", ir]).code).toBe(0);
    const plan = JSON.parse(readFileSync(ir, "utf8")) as { nodes: Array<{ id: string; dependsOn: string[] }> };
    expect(steps.map((s) => s.id).sort()).toEqual(plan.nodes.map((n) => n.id).sort());
    for (const s of steps) expect(s.text).toContain(s.id!);
    // The fill a reader sees is the one the legend gives for the step's risk.
    const legend = await page.$$eval("g.legend-item", (gs) => Object.fromEntries(gs.map((g) => [g.getAttribute("data-key"), g.querySelector(".swatch") ? getComputedStyle(g.querySelector(".swatch")!).fill : null])));
    for (const s of steps) expect(s.fill, s.id!).toBe(legend[`risk-${s.risk}`]);
    expect(new Set(steps.map((s) => s.fill)).size).toBe(3);
    expect(steps.find((s) => s.id === "send")!.risk).toBe("external");

    const badges = await page.$$eval("g.node", (gs) => gs.filter((g) => g.querySelector(".approval-badge")).map((g) => g.getAttribute("data-id")));
    expect(badges).toEqual(["send"]);
    const label = await page.$eval('g.edge-label[data-from="read_csv"][data-to="validate_fields"]', (g) => g.textContent);
    expect(label).toBe("orders");
    const shapes = await page.$$eval("g.node", (gs) => Object.fromEntries(gs.map((g) => [g.getAttribute("data-id"), g.querySelector(".shape")!.tagName])));
    expect(shapes.write_report).toBe("path"); // a cylinder
    expect(shapes.send).toBe("polygon");
    const edgeCount = plan.nodes.reduce((k, n) => k + n.dependsOn.length, 0);
    expect(await page.$$eval("g.edge path[marker-end]", (ps) => ps.length)).toBe(edgeCount);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
  });

  it("lays out a 60-step plan with no overlapping boxes or labels, and every step drawn", async () => {
    const dir = tempDir("planspec-svg60-");
    const plan = join(dir, "big.plan.yaml");
    writeFileSync(plan, generatedPlan(60));
    const file = svgOf(plan, dir);
    const { page, errors } = await browser.open(file);
    await screenshot(page, join(screenshotDir(), "generated-60.png"));

    const nodes: Box[] = await page.$$eval("g.node", (gs) => gs.map((g) => ({ id: g.getAttribute("data-id")!, ...g.getBoundingClientRect().toJSON() })));
    expect(nodes).toHaveLength(60);
    const ids = await page.$$eval("g.node text.id", (ts) => ts.map((t) => t.textContent));
    for (const n of nodes) expect(ids).toContain(n.id);
    const labels: Box[] = await page.$$eval("g.edge-label", (gs) => gs.map((g, i) => ({ id: `label ${i} ${g.textContent}`, ...g.getBoundingClientRect().toJSON() })));
    expect(labels.length).toBeGreaterThan(30);
    expect(overlaps([...nodes, ...labels])).toEqual([]);
    // Every label of a step stays inside its outline.
    const spill = await page.$$eval("g.node", (gs) =>
      gs.flatMap((g) => {
        const shape = g.querySelector(".shape")!.getBoundingClientRect();
        return [...g.querySelectorAll("text.id, text.sub, text.tool")]
          .map((t) => t.getBoundingClientRect())
          .filter((r) => r.left < shape.left || r.right > shape.right || r.top < shape.top || r.bottom > shape.bottom)
          .map(() => g.getAttribute("data-id"));
      }),
    );
    expect(spill).toEqual([]);
    expect(await page.$$eval("g.node rect.rim, g.node .rim", (r) => r.length)).toBeGreaterThan(0);
    const phase = await page.$eval('g.node[data-kind="phase"]', (g) => g.querySelectorAll("rect").length);
    expect(phase).toBe(2); // the double border
    expect(errors).toEqual([]);
  });

  it("escapes text from the plan, so a goal holding markup stays text", async () => {
    const dir = tempDir("planspec-svgxss-");
    const plan = join(dir, "x.plan.yaml");
    writeFileSync(
      plan,
      readFileSync(EXAMPLE, "utf8").replace("goal: Count the anomalies by rule and by customer", `goal: "Count </title><script>window.pwned=1</script> & <b>bold</b>"`),
    );
    const file = svgOf(plan, dir);
    const { page, errors } = await browser.open(file);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.$$eval("script, b", (e) => e.length)).toBe(0);
    const title = await page.$eval('g.node[data-id="summarize"] > title', (t) => t.textContent);
    expect(title).toContain("</title><script>window.pwned=1</script> & <b>bold</b>");
    expect(errors).toEqual([]);
  });

  it("writes SVG to stdout without -o, and keeps Mermaid as the default", () => {
    const dir = tempDir("planspec-svgout-");
    const svg = planspec(dir, ["graph", EXAMPLE, "--format", "svg"]);
    expect(svg.code).toBe(0);
    expect(svg.stdout).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(planspec(dir, ["graph", EXAMPLE]).stdout).toMatch(/^flowchart TD/);
    const bad = planspec(dir, ["graph", EXAMPLE, "--format", "svg", "-o", join(dir, "no/such/dir/p.svg")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^planspec: cannot write .*no\/such\/dir\/p.svg: ENOENT/);
    expect(bad.stderr.split("\n")).toHaveLength(2);
  });
});
