import { describe, expect, it } from "vitest";
import { type Diagnostic, LineIndex } from "../../src/diagnostic.js";
import { escapeData, escapeProperty } from "../../src/lint/format/github.js";
import { formats, summaryLine, type FormatOptions } from "../../src/lint/format/index.js";
import { formatLoaders } from "../../src/lint/format/loaders.js";

const d1: Diagnostic = {
  code: "write-without-evidence",
  severity: "error",
  message: 'step "send" writes, with 100% confidence, without evidence: none',
  file: "plans/a.plan.yaml",
  range: [40, 44],
  line: 3,
  col: 3,
  endLine: 3,
  endCol: 7,
  hint: "need a read step\nfirst",
  confidence: "medium",
  docsUrl: "https://example.test/rules.md#write-without-evidence",
};
const d2: Diagnostic = {
  code: "unused-output",
  severity: "warning",
  message: 'output "x" <is> & "unused"',
  file: "plans/a.plan.yaml",
  range: [50, 51],
  line: 5,
  col: 9,
  endLine: 5,
  endCol: 10,
  docsUrl: "https://example.test/rules.md#unused-output",
};
const d3: Diagnostic = { ...d2, code: "PS101", severity: "info", message: "odd", file: "plans/dir with space/b.plan.json", docsUrl: "https://example.test/d#ps101" };

const options: FormatOptions = {
  cwd: "/repo",
  files: ["plans/a.plan.yaml", "plans/clean.plan.yaml", "plans/dir with space/b.plan.json"],
  rules: [
    { id: "write-without-evidence", description: "Writes need evidence. Read first.", defaultSeverity: "error", docsUrl: "https://example.test/rules.md#write-without-evidence" },
    { id: "unused-output", description: "Outputs must be used.", defaultSeverity: "warning", docsUrl: "https://example.test/rules.md#unused-output" },
  ],
  version: "0.1.0",
};

describe("formatLoaders", () => {
  it("loads, by the same names, the same functions as formats", async () => {
    expect(Object.keys(formatLoaders)).toEqual(Object.keys(formats));
    for (const [name, load] of Object.entries(formatLoaders)) expect(await load()).toBe(formats[name]);
  });
});

describe("json", () => {
  it("prints an array of diagnostics with keys in the documented order", () => {
    const out = formats.json!([d1, d2], options);
    const parsed = JSON.parse(out) as Diagnostic[];
    // A diagnostic without a confidence (a compiler fact) shows as high.
    expect(parsed).toEqual([d1, { ...d2, confidence: "high" }]);
    expect(Object.keys(parsed[0]!)).toEqual(["code", "severity", "confidence", "message", "file", "range", "line", "col", "endLine", "endCol", "hint", "docsUrl"]);
    expect(Object.keys(parsed[1]!)).not.toContain("hint");
    expect(formats.json!([], options)).toBe("[]\n");
  });
});

describe("sarif", () => {
  it("writes a SARIF 2.1.0 log with rules, indexed results and relative locations", () => {
    const log = JSON.parse(formats.sarif!([d1, d2, d3], options));
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    const driver = log.runs[0].tool.driver;
    expect(driver).toMatchObject({ name: "planspec", version: "0.1.0" });
    expect(driver.informationUri).toMatch(/^https:\/\//);
    expect(driver.rules.map((r: { id: string }) => r.id)).toEqual(["write-without-evidence", "unused-output", "PS101"]);
    expect(driver.rules[0]).toEqual({
      id: "write-without-evidence",
      shortDescription: { text: "Writes need evidence." },
      fullDescription: { text: "Writes need evidence. Read first." },
      helpUri: "https://example.test/rules.md#write-without-evidence",
      defaultConfiguration: { level: "error" },
    });
    const results = log.runs[0].results;
    expect(results.map((r: { ruleId: string; ruleIndex: number; level: string }) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ["write-without-evidence", 0, "error"],
      ["unused-output", 1, "warning"],
      ["PS101", 2, "note"],
    ]);
    for (const r of results) expect(driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    expect(results[0].message.text).toBe(`${d1.message}\n${d1.hint}`);
    expect(results.map((r: { properties: { confidence: string } }) => r.properties.confidence)).toEqual(["medium", "high", "high"]);
    expect(results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "plans/a.plan.yaml" },
      region: { startLine: 3, startColumn: 3, endLine: 3, endColumn: 7 },
    });
    expect(results[2].locations[0].physicalLocation.artifactLocation.uri).toBe("plans/dir%20with%20space/b.plan.json");
  });

  it("makes absolute paths relative to cwd", () => {
    const log = JSON.parse(formats.sarif!([{ ...d2, file: "/repo/x/y.plan.yaml" }], options));
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe("x/y.plan.yaml");
  });
});

describe("github", () => {
  it("escapes data and properties as the Actions runner expects", () => {
    expect(escapeData("100% a\r\nb")).toBe("100%25 a%0D%0Ab");
    expect(escapeProperty("a:b,c%")).toBe("a%3Ab%2Cc%25");
  });

  it("writes one workflow command per finding, by severity", () => {
    const lines = formats.github!([d1, d2, d3], options).trimEnd().split("\n");
    expect(lines).toEqual([
      "::error file=plans/a.plan.yaml,line=3,col=3,endLine=3,endColumn=7,title=write-without-evidence::step \"send\" writes, with 100%25 confidence, without evidence: none%0Aneed a read step%0Afirst",
      '::warning file=plans/a.plan.yaml,line=5,col=9,endLine=5,endColumn=10,title=unused-output::output "x" <is> & "unused"',
      "::notice file=plans/dir with space/b.plan.json,line=5,col=9,endLine=5,endColumn=10,title=PS101::odd",
    ]);
    expect(formats.github!([], options)).toBe("");
  });
});

/** A small XML reader: checks nesting and returns the elements with their attributes. */
function readXml(xml: string): Array<{ name: string; attrs: Record<string, string>; text: string }> {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, "");
  const tag = /<(\/?)([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  const stack: string[] = [];
  const out: Array<{ name: string; attrs: Record<string, string>; text: string }> = [];
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(body))) {
    const between = body.slice(last, m.index);
    expect(between).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos|#\d+);)/);
    if (out.length && stack.length) out[out.length - 1]!.text += between;
    last = m.index + m[0].length;
    if (m[1]) {
      expect(stack.pop()).toBe(m[2]);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3]!.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = a[2]!;
    out.push({ name: m[2]!, attrs, text: "" });
    if (!m[4]) stack.push(m[2]!);
  }
  expect(stack).toEqual([]);
  expect(body.slice(last).trim()).toBe("");
  return out;
}

describe("junit", () => {
  it("writes a suite per file, a failing testcase per finding and a passing one per clean file", () => {
    const xml = formats.junit!([d1, d2, d3], options);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const els = readXml(xml);
    expect(els[0]).toMatchObject({ name: "testsuites", attrs: { tests: "4", failures: "3" } });
    const suites = els.filter((e) => e.name === "testsuite");
    expect(suites.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures])).toEqual([
      ["plans/a.plan.yaml", "2", "2"],
      ["plans/clean.plan.yaml", "1", "0"],
      ["plans/dir with space/b.plan.json", "1", "1"],
    ]);
    expect(els.filter((e) => e.name === "testcase")).toHaveLength(4);
    const failures = els.filter((e) => e.name === "failure");
    expect(failures.map((f) => f.attrs.type)).toEqual(["error", "warning", "info"]);
    expect(failures[1]!.attrs.message).toBe("output &quot;x&quot; &lt;is&gt; &amp; &quot;unused&quot;");
    expect(failures[0]!.text).toContain("plans/a.plan.yaml:3:3: step &quot;send&quot;");
  });

  it("drops characters XML cannot carry", () => {
    const xml = formats.junit!([{ ...d2, message: "bell\u0007here" }], { cwd: "/" });
    expect(xml).toContain('message="bellhere"');
    expect(readXml(xml).filter((e) => e.name === "testcase")).toHaveLength(1);
  });
});

describe("stylish", () => {
  it("prints code frames and ends with a summary line", () => {
    const text = "planspec: 1\nname: x\n  send:\n    kind: external\n    output: x\n";
    const out = formats.stylish!([d1, d2], { ...options, sources: new Map([["plans/a.plan.yaml", { index: new LineIndex(text) }]]), color: false });
    expect(out).toContain("plans/a.plan.yaml:3:3: " + d1.message + " [write-without-evidence]");
    expect(out).toMatch(/send:\n.*\^~~~\n/);
    expect(out.endsWith("\n2 problems (1 error, 1 warning) in 3 files\n")).toBe(true);
  });

  it("summarises counts with singulars and infos", () => {
    expect(summaryLine([], 1)).toBe("0 problems in 1 file\n");
    expect(summaryLine([d1], 2)).toBe("1 problem (1 error, 0 warnings) in 2 files\n");
    expect(summaryLine([d1, d2, d3], 2)).toBe("3 problems (1 error, 1 warning, 1 info) in 2 files\n");
    expect(formats.stylish!([], { cwd: "/", files: ["a", "b"] })).toBe("0 problems in 2 files\n");
  });
});
