/**
 * Effective risk of one step, as a reviewer reads it: compiled by the real compiler and
 * judged by the real EffectiveRisk. Shared by the effective-risk tables and the red-team
 * rows kept in files of their own.
 */
import { EffectiveRisk } from "../../src/lint/effective-risk.js";
import { PlanGraph } from "../../src/graph.js";
import { compileYaml } from "./rules-tester.js";

export function stepRisk(tools: string, step: string) {
  const result = compileYaml(`planspec: 1\nname: case\ngoal: One step.\ntools: ${tools}\nsteps:\n  s:\n${step.replace(/^/gm, "    ")}\n`);
  const ir = result.ir!;
  const risk = new EffectiveRisk(ir, new PlanGraph(ir));
  const node = ir.nodes[0]!;
  const s = risk.of(node);
  return { risk: s.risk, destructive: s.destructive, reasons: s.signals.map((g) => g.reason), impacts: s.impacts.map((i) => i.impact), cause: risk.cause(node, s.risk) };
}

export const SQL_TOOL = "{ db.query: { risk: read, description: Run a SQL statement against the warehouse } }";
export const SHELL = "{ shell.run: { risk: read, description: Run a diagnostic shell command } }";
/** A statement run through a SQL tool catalogued read. */
export const runSql = (sql: string) => stepRisk(SQL_TOOL, `kind: read\ngoal: Run the statement\ntool: db.query\nwith: { sql: ${JSON.stringify(sql)} }`);
/** A command line run through a shell tool catalogued read. */
export const runCommand = (command: string) => stepRisk(SHELL, `kind: read\ngoal: Run the command\ntool: shell.run\nwith: { command: ${JSON.stringify(command)} }`);
/** A command's verdict through a read-labelled shell step: `[risk, destructive]`. */
export const commandVerdict = (command: string) => {
  const r = runCommand(command);
  return [r.risk, r.destructive];
};
