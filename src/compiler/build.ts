/**
 * Stage 4: build IR nodes from resolved steps — needs, tools, risk, defaults,
 * durations, success criteria, loops — and collect every expression for checking.
 */
import type { Ajv } from "ajv";
import type { IRNode, Risk, RetryPolicy, StepKind, SuccessCriterion, ToolSpec } from "../ir.js";
import { maxRisk } from "../ir.js";
import type { Collector } from "./diagnostics.js";
import { parseDuration } from "./durations.js";
import { compileBareExpression, compileValue, type ExprSite } from "./expressions.js";
import type { Resolved, StepSite } from "./resolve.js";
import type { DocPath } from "./source.js";
import { didYouMean } from "./suggest.js";
import { loadAjv } from "./lazy.js";

type Obj = Record<string, unknown>;

export interface BuiltNode {
  node: IRNode;
  site: StepSite;
  exprs: ExprSite[];
}

let schemaChecker: Ajv | undefined;

function checkOutputSchema(schema: unknown): string | undefined {
  schemaChecker ??= new (loadAjv().Ajv)({ strict: false, allErrors: false, validateSchema: true });
  if (schemaChecker.validateSchema(schema as object)) return undefined;
  const e = schemaChecker.errors?.[0];
  if (!e) return "invalid";
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "the schema";
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
  return allowed ? `${where} must be one of ${allowed.join(", ")}` : `${where} ${e.message ?? "is invalid"}`;
}

function list(v: unknown): string[] {
  return typeof v === "string" ? [v] : Array.isArray(v) ? v.map(String) : [];
}

function retryPolicy(defaults: Obj | undefined, own: Obj | undefined): RetryPolicy | undefined {
  if (!defaults && !own) return undefined;
  const r = { ...(defaults ?? {}), ...(own ?? {}) };
  const policy: RetryPolicy = {
    backoff: (r.backoff as RetryPolicy["backoff"]) ?? "exponential",
    initialDelayMs: parseDuration(r.initial_delay) ?? 1000,
    maxDelayMs: parseDuration(r.max_delay) ?? 30_000,
  };
  if (typeof r.max_attempts === "number") policy.maxAttempts = r.max_attempts;
  return policy;
}

/** Builds the nodes; unknown ids, tools and hypotheses are reported here. */
export function buildNodes(resolved: Resolved, hypotheses: Set<string>, out: Collector): BuiltNode[] {
  const ids = new Set(resolved.steps.map((s) => s.id));
  const outputs = new Map<string, string>();
  const built: BuiltNode[] = [];
  for (const site of resolved.steps) {
    const { def, doc, path, id } = site;
    const at = (p: DocPath, part: "key" | "value" = "value") => doc.rangeOf([...path, ...p], part);
    const exprs: ExprSite[] = [];

    // needs: template instances stand for their sinks; broken instances are skipped silently.
    const dependsOn: string[] = [];
    const needsRaw = list(def.needs);
    // Needs inherited from a using step are reported where that step wrote them, once.
    const from = site.needsFrom;
    const needsDoc = from?.doc ?? doc;
    const needsAt = (p: DocPath) => (from ? from.doc.rangeOf([...from.path, ...p]) : at(p));
    const needsOf = from?.id ?? id;
    needsRaw.forEach((need, i) => {
      const p = Array.isArray(def.needs) ? ["needs", i] : ["needs"];
      if (resolved.instanceSinks.has(need)) {
        for (const s of instanceLeaves(resolved, need)) if (!dependsOn.includes(s)) dependsOn.push(s);
        return;
      }
      if (resolved.broken.has(need)) return;
      if (need === id) {
        out.report("PS112", doc.file, at(p), { id });
        return;
      }
      if (!ids.has(need)) {
        const hint = didYouMean(need, ids);
        out.report("PS111", needsDoc.file, needsAt(p), { id: need, where: `the needs of step "${needsOf}"` }, hint ? { hint } : {});
        return;
      }
      if (!dependsOn.includes(need)) dependsOn.push(need);
    });

    // tools
    const allowedTools: string[] = [];
    const toolRefs: Array<[string, DocPath]> = [];
    if (typeof def.tool === "string") toolRefs.push([def.tool, ["tool"]]);
    list(def.allowed_tools).forEach((t, i) => toolRefs.push([t, ["allowed_tools", i]]));
    let inferred: Risk = "read";
    for (const [t, p] of toolRefs) {
      // Own entries only: `tool: toString` must not find Object's method.
      const spec: ToolSpec | undefined = Object.hasOwn(resolved.tools, t) ? resolved.tools[t] : undefined;
      if (!spec) {
        const hint = didYouMean(t, Object.keys(resolved.tools));
        out.report("PS114", doc.file, at(p), { tool: t }, hint ? { hint } : {});
      } else {
        inferred = maxRisk(inferred, spec.risk);
      }
      if (!allowedTools.includes(t)) allowedTools.push(t);
    }

    const kind = def.kind as StepKind;
    const node: IRNode = {
      id,
      kind,
      goal: String(def.goal ?? ""),
      allowedTools,
      risk: (def.risk as Risk | undefined) ?? inferred,
      riskInferred: def.risk === undefined,
      dependsOn,
      consumes: [],
      success: [],
      assumes: [],
      span: spanOf(site),
    };
    if (typeof def.tool === "string") node.tool = def.tool;

    if (def.with !== undefined) node.with = compileValue(def.with, doc, [...path, "with"], "with", exprs, out) as IRNode["with"];

    if (typeof def.output === "string") {
      const other = outputs.get(def.output);
      if (other !== undefined) out.report("PS116", doc.file, at(["output"]), { output: def.output, other });
      else outputs.set(def.output, id);
      node.output = def.output;
    }
    if (def.output_schema !== undefined) {
      const problem = checkOutputSchema(def.output_schema);
      if (problem) out.report("PS137", doc.file, at(["output_schema"]), { reason: problem });
      node.outputSchema = def.output_schema as IRNode["outputSchema"];
    }

    if (Array.isArray(def.success)) {
      def.success.forEach((c: Obj, i: number) => {
        const crit: SuccessCriterion = {};
        if (typeof c.check === "string") crit.check = compileBareExpression(c.check, doc, [...path, "success", i, "check"], "check", exprs, out);
        if (Array.isArray(c.evidence)) {
          crit.evidence = c.evidence.map(String);
          crit.evidence.forEach((ref, j) => {
            const p: DocPath = [...path, "success", i, "evidence", j];
            compileBareExpression(ref, doc, p, "evidence", exprs, out);
          });
        }
        if (typeof c.judge === "string") crit.judge = c.judge;
        node.success.push(crit);
      });
    }
    if (typeof def.when === "string") node.when = compileBareExpression(def.when, doc, [...path, "when"], "when", exprs, out);

    const retry = retryPolicy(site.defaults.retry, def.retry as Obj | undefined);
    if (retry) node.retry = retry;
    const timeout = parseDuration(def.timeout ?? site.defaults.timeout);
    if (timeout !== undefined) node.timeoutMs = timeout;

    const repeat = def.repeat as Obj | undefined;
    if (repeat) {
      node.repeat = { until: compileBareExpression(String(repeat.until), doc, [...path, "repeat", "until"], "until", exprs, out) };
      if (typeof repeat.max_attempts === "number") node.repeat.maxAttempts = repeat.max_attempts;
      const delay = parseDuration(repeat.delay);
      if (delay !== undefined) node.repeat.delayMs = delay;
    }
    const forEach = def.for_each as Obj | undefined;
    if (forEach) {
      node.forEach = { items: compileBareExpression(String(forEach.items), doc, [...path, "for_each", "items"], "items", exprs, out) };
      if (typeof forEach.max_items === "number") node.forEach.maxItems = forEach.max_items;
      if (typeof forEach.concurrency === "number") node.forEach.concurrency = forEach.concurrency;
    }
    const approval = def.approval as Obj | undefined;
    if (approval) {
      node.approval = { required: approval.required === true, approvers: list(approval.approvers) };
      const t = parseDuration(approval.timeout);
      if (t !== undefined) node.approval.timeoutMs = t;
    }
    if (typeof def.idempotency_key === "string") {
      node.idempotencyKey = compileValue(def.idempotency_key, doc, [...path, "idempotency_key"], "idempotency_key", exprs, out) as IRNode["idempotencyKey"];
    }
    list(def.assumes).forEach((h, i) => {
      if (!hypotheses.has(h)) {
        const hint = didYouMean(h, hypotheses);
        out.report("PS115", doc.file, at(["assumes", i]), { id: h }, hint ? { hint } : {});
      } else node.assumes.push(h);
    });

    if (kind === "phase") {
      if (typeof def.expand !== "string") {
        out.report("PS144", doc.file, at(["kind"]), { reason: `phase step "${id}" needs \`expand: planner\` or \`expand: <template>\`` });
      } else {
        if (def.expand !== "planner" && !resolved.templates.has(def.expand)) {
          const hint = didYouMean(def.expand, ["planner", ...resolved.templates.keys()]);
          out.report("PS144", doc.file, at(["expand"]), { reason: `expand must be "planner" or an imported template, got "${def.expand}"` }, hint ? { hint } : {});
        }
        node.phase = { expand: def.expand };
        if (typeof def.max_steps === "number") node.phase.maxSteps = def.max_steps;
      }
    } else {
      for (const k of ["expand", "max_steps"] as const) {
        if (def[k] !== undefined) out.report("PS144", doc.file, at([k], "key"), { reason: `\`${k}\` is only meaningful on a step with kind: phase` });
      }
    }
    if (site.template) node.template = { ...site.template };
    built.push({ node, site, exprs });
  }
  return built;
}

/** The real steps a template instance stands for, through nested instances. */
function instanceLeaves(resolved: Resolved, id: string): string[] {
  const sinks = resolved.instanceSinks.get(id);
  return sinks ? sinks.flatMap((s) => instanceLeaves(resolved, s)) : [id];
}

function spanOf(site: StepSite): IRNode["span"] {
  const [ks] = site.doc.rangeOf(site.path, "key");
  const [, ve] = site.doc.rangeOf(site.path);
  const pos = site.doc.index.position(ks);
  return { file: site.doc.file, start: ks, end: Math.max(ks, ve), line: pos.line, col: pos.col };
}
