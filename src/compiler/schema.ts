/**
 * Stage 2: validate a document against the DSL JSON Schema with ajv (all errors) and
 * turn each ajv error into one readable, positioned diagnostic.
 */
import { readFileSync } from "node:fs";
import type { ErrorObject } from "ajv";
import type { Collector } from "./diagnostics.js";
import * as generated from "./generated/dsl-validators.js";
import type { SourceDoc } from "./source.js";
import { didYouMean } from "./suggest.js";

export type DocKind = "plan" | "template" | "catalog";

interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Precompiled by scripts/gen-validators.mjs: no schema compilation at start-up. */
const validators: Record<DocKind, Validator> = {
  plan: generated.plan as Validator,
  template: generated.template as Validator,
  catalog: generated.catalog as Validator,
};

function validatorFor(kind: DocKind): Validator {
  return validators[kind];
}

let schemaJson: Record<string, unknown> | undefined;

/** The DSL JSON Schema itself, for the planner's structured-output requests and for docs. */
export function dslSchema(): unknown {
  return JSON.parse(readFileSync(new URL("../../schemas/planspec.schema.json", import.meta.url), "utf8"));
}

type SchemaNode = Record<string, unknown>;

/** The DSL schema node that describes the value at `path` in a document of `kind` (for hints). */
function schemaAt(kind: DocKind, path: ReadonlyArray<string | number>): SchemaNode | undefined {
  schemaJson ??= dslSchema() as SchemaNode;
  const defs = schemaJson.definitions as Record<string, SchemaNode>;
  const deref = (n: SchemaNode | undefined): SchemaNode | undefined => {
    const ref = n?.$ref;
    return typeof ref === "string" ? defs[ref.replace("#/definitions/", "")] : n;
  };
  let node = deref(defs[kind]);
  for (const seg of path) {
    if (!node) return undefined;
    const variants = (node.anyOf as SchemaNode[] | undefined) ?? [node];
    const pick = variants.find((v) => (typeof seg === "number" ? v.items : v.properties || v.additionalProperties)) ?? node;
    const props = pick.properties as Record<string, SchemaNode> | undefined;
    if (typeof seg === "number") node = deref(pick.items as SchemaNode);
    else if (props && seg in props) node = deref(props[seg]);
    else if (pick.additionalProperties && typeof pick.additionalProperties === "object") node = deref(pick.additionalProperties as SchemaNode);
    else return undefined;
  }
  return node;
}

function valueAt(data: unknown, path: ReadonlyArray<string | number>): unknown {
  let v = data;
  for (const seg of path) v = v && typeof v === "object" ? (v as Record<string, unknown>)[seg as string] : undefined;
  return v;
}

/** Which kind of document this is, by its top-level keys. */
export function documentKind(data: unknown): DocKind {
  if (data && typeof data === "object" && !Array.isArray(data)) {
    if ("template" in data) return "template";
    if ("steps" in data || "name" in data || "goal" in data) return "plan";
    if ("tools" in data) return "catalog";
  }
  return "plan";
}

/** Validates `doc` as `kind`; reports every problem and returns true when it is valid. */
export function checkSchema(doc: SourceDoc, kind: DocKind, out: Collector): boolean {
  const validate = validatorFor(kind);
  if (validate(doc.data)) return true;
  for (const e of collapse(validate.errors ?? [])) report(doc, kind, e, out);
  return false;
}

function segments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Keeps the one error that explains an anyOf failure, and drops `if` bookkeeping errors. */
function collapse(errors: ErrorObject[]): ErrorObject[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === "anyOf").map((e) => e.instancePath));
  return errors.filter((e) => {
    if (e.keyword === "if" || e.keyword === "propertyNames") return false;
    if (e.keyword !== "anyOf" && anyOfPaths.has(e.instancePath) && e.schemaPath.includes("/anyOf/")) return false;
    return true;
  });
}

/** Human name of a place in the document: `step "read_csv" retry.max_attempts`. */
export function describePath(path: ReadonlyArray<string | number>, kind: DocKind = "plan"): string {
  const root = kind === "template" ? "the template" : kind === "catalog" ? "the catalogue" : "the plan";
  if (path.length === 0) return root;
  const [a, b, ...rest] = path;
  const tail = (xs: ReadonlyArray<string | number>) => (xs.length ? " " + xs.join(".") : "");
  if (a === "steps" && b !== undefined) return `step "${b}"${tail(rest)}`;
  if (a === "tools" && b !== undefined) return `tool "${b}"${tail(rest)}`;
  if (a === "inputs" && b !== undefined) return `input "${b}"${tail(rest)}`;
  if (a === "params" && b !== undefined) return `parameter "${b}"${tail(rest)}`;
  if (a === "hypotheses" && b !== undefined) return `hypothesis "${b}"${tail(rest)}`;
  return path.join(".");
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  if (typeof v === "string") return `a string`;
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a number";
  return `a ${typeof v}`;
}

function expectedName(t: string | string[]): string {
  const names: Record<string, string> = {
    object: "a map",
    array: "a list",
    string: "a string",
    integer: "an integer",
    number: "a number",
    boolean: "true or false",
    null: "null",
  };
  return (Array.isArray(t) ? t : [t]).map((x) => names[x] ?? x).join(" or ");
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 40 ? s.slice(0, 37) + "..." : s;
}

function report(doc: SourceDoc, kind: DocKind, e: ErrorObject, out: Collector): void {
  const path = segments(e.instancePath);
  const data = valueAt(doc.data, path);
  const where = describePath(path, kind);
  const at = (p: ReadonlyArray<string | number>, part: "key" | "value" = "value") => doc.rangeOf(p, part);
  const file = doc.file;
  const p = e.params as Record<string, unknown>;
  if (e.propertyName !== undefined) {
    const name = e.propertyName;
    const what = path[0] === "steps" && path.length === 1 ? "step id" : `key in ${where}`;
    const reason =
      e.keyword === "pattern"
        ? `must be an identifier (letters, digits and _, not starting with a digit), got ${show(name)}`
        : "must not be empty";
    out.report("PS107", file, at([...path, name], "key"), { where: what, reason });
    return;
  }
  switch (e.keyword) {
    case "additionalProperties": {
      const key = String(p.additionalProperty);
      const allowed = Object.keys((schemaAt(kind, path)?.properties as object | undefined) ?? {});
      const hint = didYouMean(key, allowed) ?? (allowed.length ? `allowed keys: ${allowed.join(", ")}` : undefined);
      out.report("PS104", file, at([...path, key], "key"), { key, where }, hint ? { hint } : {});
      return;
    }
    case "required": {
      const key = String(p.missingProperty);
      const range = path.length ? at(path, "key") : firstLine(doc);
      out.report("PS103", file, range, { key, where });
      return;
    }
    case "type":
      out.report("PS105", file, at(path), { where, expected: expectedName(p.type as string), actual: typeName(data) });
      return;
    case "enum": {
      if (path.length === 1 && path[0] === "planspec") {
        out.report("PS109", file, at(path), { actual: show(data) });
        return;
      }
      const allowed = (p.allowedValues as unknown[]).map((v) => String(v));
      const hint = typeof data === "string" ? didYouMean(data, allowed) : undefined;
      out.report("PS106", file, at(path), { where, allowed: allowed.join(", "), actual: show(data) }, hint ? { hint } : {});
      return;
    }
    case "pattern": {
      const pattern = String(p.pattern);
      if (pattern.includes("ms|s|m|h|d")) {
        out.report("PS110", file, at(path), { value: String(data) });
      } else if (pattern.startsWith("^[a-z0-9]")) {
        out.report("PS107", file, at(path), { where, reason: `must be kebab-case (lowercase words joined by "-"), got ${show(data)}` });
      } else {
        out.report("PS107", file, at(path), { where, reason: `must be an identifier (letters, digits and _, not starting with a digit), got ${show(data)}` });
      }
      return;
    }
    case "propertyNames":
      return;
    case "minimum":
    case "exclusiveMinimum":
      out.report("PS108", file, at(path), { where, reason: `must be at least ${String(p.limit)}, got ${show(data)}` });
      return;
    case "minLength":
      out.report("PS108", file, at(path), { where, reason: "must not be empty" });
      return;
    case "minProperties":
    case "maxProperties":
      if (path.length === 4 && path[2] === "success") {
        out.report("PS108", file, at(path), { where, reason: "must have exactly one of check, evidence or judge" });
      } else {
        out.report("PS108", file, at(path), { where, reason: e.keyword === "minProperties" ? "must not be empty" : "has too many keys" });
      }
      return;
    case "anyOf":
      out.report("PS105", file, at(path), { where, expected: "a string or a list of strings", actual: typeName(data) });
      return;
    default:
      out.report("PS107", file, at(path), { where, reason: e.message ?? "is invalid" });
  }
}

function firstLine(doc: SourceDoc): [number, number] {
  const text = doc.text;
  let start = 0;
  // Skip leading comments and blank lines so the underline lands on the first key.
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#") || line.startsWith("---")) {
      start += line.length + 1;
      continue;
    }
    return [start, start + line.replace(/\r$/, "").length];
  }
  return [0, Math.min(1, text.length)];
}
