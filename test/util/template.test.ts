/**
 * The one `{{name}}` filler: what the four copies it replaced did — lint messages (spaces
 * allowed, a missing name kept), compiler messages, the `template.render` tool (dotted
 * names, objects as JSON, a missing name as ""), and `<name>` in code descriptions.
 */
import { describe, expect, it } from "vitest";
import { Collector } from "../../src/compiler/diagnostics.js";
import { renderTemplate } from "../../src/runtime/tools/builtins.js";
import { fillTemplate, templateParts } from "../../src/util/template.js";

describe("fillTemplate", () => {
  it("fills names with or without spaces inside the braces, and keeps a name the data lacks", () => {
    expect(fillTemplate('step "{{step}}" retries {{ attempts }} times; {{missing}}', { step: "send", attempts: 3 })).toBe('step "send" retries 3 times; {{missing}}');
    expect(fillTemplate("no placeholders")).toBe("no placeholders");
    expect(fillTemplate("{{constructor}} {{a}}{{a}}", { a: "x" })).toBe("{{constructor}} xx");
  });

  it("leaves what is not a placeholder alone: an expression, an empty pair of braces", () => {
    expect(fillTemplate("unterminated ${{ expression: add }} {{}} {{ a b }}", { expression: "no" })).toBe("unterminated ${{ expression: add }} {{}} {{ a b }}");
  });

  it("takes a function: <name> for code descriptions", () => {
    expect(fillTemplate('key "{{key}}" is reserved', (name) => `<${name}>`)).toBe('key "<key>" is reserved');
  });

  it("splits a template into text and placeholders, text first and last", () => {
    expect(templateParts("a {{ b }} c")).toEqual(["a ", { name: "b", raw: "{{ b }}" }, " c"]);
    expect(templateParts("{{x}}")).toEqual(["", { name: "x", raw: "{{x}}" }, ""]);
  });

  it("stays right past its cache bound (templates users write do not pile up)", () => {
    for (let i = 0; i < 3000; i++) expect(fillTemplate(`${i}: {{v}}`, { v: i })).toBe(`${i}: ${i}`);
  });

  it("fills compiler messages and the template.render tool as before", () => {
    const out = new Collector();
    out.report("PS141", "p.plan.yaml", [0, 0], { key: "__expr" });
    expect(out.list[0]!.message).toBe('key "__expr" is reserved for compiled expressions');
    expect(renderTemplate("Hi {{ user.name }}, {{ n }} rows: {{rows}}; {{ nope }}.", { user: { name: "Ann" }, n: 2, rows: [1] })).toBe("Hi Ann, 2 rows: [\n  1\n]; .");
  });
});
