import { it } from "vitest";
import { rule } from "../../src/lint/rules/over-planning.js";
import { lintCase, plan } from "./rules-tester.js";
it("scratch", () => {
  const code = plan(`
  a: { kind: read, goal: Read the login client source, tool: fs.read, output: a }
`, "complexity: simple");
  console.log(code);
  console.log(lintCase(rule, { code, options: { simple: 0 } }));
});
