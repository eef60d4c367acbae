/**
 * The code a run's calls execute besides planspec: its tool modules (`--tools`) and the
 * files its stdio MCP servers start from. The fs tools refuse these files (run.ts), and an
 * approval is bound to their content (binding.ts): an approved call must not run code that
 * was swapped (`resume --tools other.mjs`) or edited since the approval.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { PlanIR } from "../ir.js";
import { sha256 } from "../compiler/canonical.js";

/**
 * The files a stdio MCP server of the plan is started from: its command when it is a path,
 * and each argument that names an existing file (resolved as the pool resolves them, from
 * the server's `cwd`).
 */
export function serverPrograms(plan: PlanIR, baseDir: string): string[] {
  const out: string[] = [];
  for (const spec of Object.values(plan.mcp ?? {})) {
    if (spec.transport === "http") continue;
    const cwd = resolve(baseDir, spec.cwd ?? ".");
    const candidates = [...(spec.command.includes("/") ? [spec.command] : []), ...spec.args.filter((a) => !a.startsWith("-"))];
    for (const c of candidates) {
      const p = resolve(cwd, c);
      if (statSync(p, { throwIfNoEntry: false })?.isFile()) out.push(p);
    }
  }
  return out;
}

/** JavaScript modules, whose relative imports are followed. */
const MODULE = /\.(?:mjs|cjs|js|mts|cts|ts)$/;
/** `import … from "./x"`, `export … from "./x"`, `import "./x"`, `import("./x")`, `require("./x")`: a relative specifier. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*["'`](\.{1,2}\/[^"'`\n]+)["'`]/g;
/** `new URL("./x.mjs", import.meta.url)`: a file beside the module, handed to `import()` or a worker. */
const URL_IMPORT = /\bnew\s+URL\s*\(\s*["'`](\.{1,2}\/[^"'`\n]+)["'`]\s*,\s*import\.meta\.url/g;
/** Enough for any tool module's own code; past it the rest is not digested (and said so in the digest). */
const MAX_CODE_FILES = 1000;

/**
 * The files of the run's code: the tool modules and server programs, and every file their
 * JavaScript imports by a relative path (statically or with a literal `import()`), followed
 * through the files it reaches. An edit to `lib/send.mjs` that `tools.mjs` imports is an edit
 * to the code an approval was given for. Packages (`import "pg"`) are not followed: they are
 * the installed dependencies, not the run's code; an import whose path is computed cannot be.
 */
export function codeFiles(modules: readonly string[], programs: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...modules.map((m) => resolve(m)), ...programs];
  while (queue.length > 0 && seen.size < MAX_CODE_FILES) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!MODULE.test(file)) continue;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    // `createRequire(import.meta.url)` gives a require under another name: `load("./x.cjs")`.
    const requires = [...text.matchAll(/\b([A-Za-z_$][\w$]*)\s*=\s*(?:\w+\.)?createRequire\s*\(/g)].map((m) => m[1]!);
    const calls = requires.length === 0 ? [] : [...text.matchAll(new RegExp(`\\b(?:${requires.map((r) => r.replace(/\$/g, "\\$")).join("|")})\\s*\\(\\s*["'\`](\\.{1,2}\\/[^"'\`\\n]+)["'\`]`, "g"))];
    for (const m of [...text.matchAll(RELATIVE_IMPORT), ...text.matchAll(URL_IMPORT), ...calls]) {
      const spec = m[1]!;
      // `import(\`./lib/${name}.mjs\`)`, `import("./lib/" + name)`: a computed path; every file
      // of the folder its literal part names is code the run may load.
      const computed = spec.includes("${") || /^\s*\+/.test(text.slice(m.index + m[0].length));
      if (computed) {
        for (const f of filesUnder(resolve(dirname(file), spec.slice(0, spec.includes("${") ? spec.indexOf("${") : spec.length).replace(/[^/]*$/, "")))) if (!seen.has(f)) queue.push(f);
        continue;
      }
      const target = resolveImport(dirname(file), spec);
      if (target !== undefined && !seen.has(target)) queue.push(target);
    }
  }
  return [...seen];
}

/** The module files under a folder (not `node_modules`), at most MAX_CODE_FILES. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= MAX_CODE_FILES) return;
      const p = join(d, e.name);
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) walk(p);
      else if (MODULE.test(e.name) || /\.json$/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** A relative specifier as Node (or a TypeScript loader) finds it: the file, or with an extension, or its index. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(from, spec.replace(/[?#].*$/, ""));
  for (const candidate of [base, ...[".js", ".mjs", ".cjs", ".ts", ".mts", "/index.js", "/index.mjs", "/index.ts"].map((e) => base + e)]) {
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
  }
  // Missing now: digested as missing, so creating it later changes the digest.
  return base;
}

/** A digest of the run's code (`codeFiles`): each file by path and content (a missing file counts as missing). */
export function codeDigest(files: readonly string[]): string {
  const parts = files.map((f) => {
    let content: string;
    try {
      content = sha256(readFileSync(f, "utf8"));
    } catch {
      content = "missing";
    }
    return `${f}\n${content}`;
  });
  return sha256(parts.join("\n"));
}

/** Where a run's relative MCP paths are resolved from: its plan file's directory, else `cwd`. */
export function planDir(cwd: string, planFile: string | undefined): string {
  return planFile ? dirname(resolve(cwd, planFile)) : cwd;
}
