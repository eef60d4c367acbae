// Writes evals/dailylifeapis/tools.catalog.yaml: node scripts/gen-dailylifeapis-catalog.mjs > evals/dailylifeapis/tools.catalog.yaml (after npm run build).
import { readFileSync } from "node:fs";
import { stringify } from "yaml";
const { dailyLifeTools, dailyLifeToolEntry } = await import("../dist/eval/taskbench/dailylifeapis.js");
const tools = dailyLifeTools(JSON.parse(readFileSync(new URL("../examples/taskbench/dailylifeapis/tool_desc.json", import.meta.url), "utf8")));
const out = { planspec: 1, description: "TaskBench dailylifeapis: 40 tools, each with its reviewed risk (docs/evals.md#dailylifeapis) and typed parameters.", tools: Object.fromEntries(tools.map((t) => [t.id, dailyLifeToolEntry(t)])) };
process.stdout.write("# yaml-language-server: $schema=../../schemas/planspec.schema.json\n# Generated from examples/taskbench/dailylifeapis/tool_desc.json by dailyLifeToolEntry (src/eval/taskbench/dailylifeapis.ts).\n" + stringify(out, { lineWidth: 0 }));
