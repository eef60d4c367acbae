/** `planspec diff OLD NEW [--run RUN]`: what changed between two plans, and whether a run can move to NEW. */
import type { Command } from "commander";
import type { CompileResult } from "../compiler/index.js";
import type { PlanIR } from "../ir.js";
import type { ActionContext } from "./main.js";
import { useColor } from "./color.js";
import { type CliIO, UsageError, write, userError } from "./io.js";
import { compileOrExit, loadIR } from "./shared.js";

const FORMATS = ["text", "md", "json"] as const;

const HELP = `
Compares two compiled plans: steps added, removed and changed (field by field), edges,
deliverables, effective risk, approval gates, and success criteria removed or loosened.
OLD and NEW are plan files (*.plan.yaml, *.plan.json) or compiled IR (*.ir.json).

With --run, also says what moving that run to NEW means: which done steps stay valid,
which run again, which side effects would happen again, and whether \`planspec revise\`
would accept the revision (nothing is written).

Exit codes: 0 printed, 1 with --run when revise would refuse, 2 usage or input error.

Examples:
  $ planspec diff v1.plan.yaml v2.plan.yaml
  $ planspec diff main.plan.yaml pr.plan.yaml --format md > comment.md
  $ planspec diff v1.plan.yaml v2.plan.yaml --run nightly-1 --format json
`;

export function registerDiff(program: Command, ctx: ActionContext): void {
  program
    .command("diff")
    .description("compare two plans step by step; with --run, whether a live run can move to the new one")
    .argument("<old>", "the plan before")
    .argument("<new>", "the plan after")
    .option("-f, --format <name>", `output format: ${FORMATS.join(", ")}`, "text")
    .option("--run <run>", "a run directory or run id: judge moving it to NEW")
    .addHelpText("after", HELP)
    .action(ctx.action((oldFile: string, newFile: string, opts: { format: string; run?: string }) => runDiff(oldFile, newFile, opts, program, ctx.io)));
}

async function runDiff(oldFile: string, newFile: string, opts: { format: string; run?: string }, program: Command, io: CliIO): Promise<number> {
  if (!(FORMATS as readonly string[]).includes(opts.format)) throw new UsageError(`unknown format "${opts.format}"; use one of ${FORMATS.join(", ")}`);
  const color = useColor(program, io, "stderr");
  const runDir = opts.run ? (await import("./runs.js")).resolveRunDir(opts.run, io.cwd) : undefined;
  const oldPlan = await planOf(oldFile, io, color);
  if (typeof oldPlan === "number") return oldPlan;
  const compiled = await planOf(newFile, io, color);
  if (typeof compiled === "number") return compiled;
  const [{ diffPlanIR }, { formatDiff }] = await Promise.all([import("../diff/plan-diff.js"), import("../diff/format.js")]);
  const diff = diffPlanIR(oldPlan.ir, compiled.ir);
  let verdict;
  if (runDir) {
    const [{ openRun, loadRun }, { runVerdict }] = await Promise.all([import("../runtime/load.js"), import("../diff/run-verdict.js")]);
    try {
      const store = openRun(runDir);
      const { state, plan } = await loadRun(store);
      verdict = await runVerdict({
        runId: state.runId,
        state,
        runPlan: plan,
        oldPlan: oldPlan.ir,
        newCompiled: compiled,
        idempotency: await store.readIdempotency(),
        artifact: (ref) => store.getArtifact(ref),
      });
    } catch (err) {
      // A torn or hand-edited state file is bad input, not a crash.
      if (err instanceof SyntaxError) throw new UsageError(`${runDir}/state.json is not valid JSON (${err.message}); the run cannot be judged`);
      return userError(err);
    }
  }
  await write(io.stdout, formatDiff(diff, verdict, opts.format as "text" | "md" | "json"));
  return verdict && !verdict.revise.accepted ? 1 : 0;
}

/** A compiled plan (from a plan file or an IR file), or the exit code: 2, since a plan that does not compile is bad input here. */
async function planOf(file: string, io: CliIO, color: boolean): Promise<(CompileResult & { ir: PlanIR }) | number> {
  if (/\.ir\.json$/i.test(file)) {
    const ir = await loadIR(file, io, color);
    if (typeof ir === "number") return 2;
    return { ir, kind: "plan", diagnostics: [], sources: new Map(), origins: new Map() };
  }
  const result = await compileOrExit(file, io, color);
  if (typeof result === "number") return 2;
  if (!result.ir) throw new UsageError(`${file} is a ${result.kind}, not a plan`);
  return result as CompileResult & { ir: PlanIR };
}
