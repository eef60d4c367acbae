/**
 * Which files `planspec lint` reads: named files, directories searched for plan files,
 * and globs (`*`, `**`, `?`, `[...]`, `{a,b}`), since Node 20 has no fs.glob. Also the
 * matcher for the config's `ignores`.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Plan files a directory search picks up. */
export const PLAN_FILE = /\.plan\.(?:ya?ml|json)$/i;

export interface Discovery {
  /** Paths relative to cwd when inside it, else absolute; de-duplicated, in argument order. */
  files: string[];
  /** Arguments that named nothing, with why. */
  unmatched: Array<{ arg: string; reason: string }>;
}

/** True for an argument to expand as a glob rather than to open as a path. */
export function isGlob(arg: string): boolean {
  return /[*?[{]/.test(arg);
}

/** Expands lint arguments to plan files. */
export function discoverPlanFiles(args: readonly string[], cwd: string): Discovery {
  const seen = new Set<string>();
  const files: string[] = [];
  const unmatched: Discovery["unmatched"] = [];
  // A prefix test instead of path.relative per file: a corpus directory holds thousands.
  const root = resolve(cwd);
  const prefix = root.endsWith(sep) ? root : root + sep;
  const add = (abs: string) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    files.push(abs.startsWith(prefix) ? abs.slice(prefix.length) : displayPath(abs, cwd));
  };
  for (const arg of args) {
    if (isGlob(arg)) {
      const found = expandGlob(arg, cwd);
      if (found.length === 0) unmatched.push({ arg, reason: "no files match" });
      found.forEach(add);
      continue;
    }
    const abs = resolve(cwd, arg);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      unmatched.push({ arg, reason: "no such file or directory" });
      continue;
    }
    if (!isDir) {
      add(abs);
      continue;
    }
    const found: string[] = [];
    walk(abs, (file, name) => {
      if (PLAN_FILE.test(name)) found.push(file);
    });
    if (found.length === 0) unmatched.push({ arg, reason: "no *.plan.yaml, *.plan.yml or *.plan.json files in this directory" });
    found.forEach(add);
  }
  return { files, unmatched };
}

/** `abs` relative to `cwd` when inside it, else absolute: how diagnostics name files. */
export function displayPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  return rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel) ? abs : rel;
}

/** Depth-first, sorted, skipping `node_modules` and dot-directories. */
function walk(dir: string, onFile: (file: string, name: string) => void, maxDepth = Infinity): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // unreadable directories are skipped, like `find` would after its warning
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = dir.endsWith(sep) ? dir + e.name : dir + sep + e.name;
    if (e.isDirectory()) {
      if (e.name === "node_modules" || e.name.startsWith(".") || maxDepth <= 1) continue;
      walk(full, onFile, maxDepth - 1);
    } else if (e.isFile() || e.isSymbolicLink()) {
      onFile(full, e.name);
    }
  }
}

/** Files matching `pattern` (relative to cwd unless absolute), sorted. */
export function expandGlob(pattern: string, cwd: string): string[] {
  const norm = pattern.split(sep).join("/").replace(/^\.\//, "");
  const segments = norm.split("/");
  const baseSegs: string[] = [];
  while (segments.length > 1 && !isGlob(segments[0]!)) baseSegs.push(segments.shift()!);
  const base = norm.startsWith("/") ? `/${baseSegs.slice(1).join("/")}` : resolve(cwd, baseSegs.join("/") || ".");
  const re = globToRegExp(segments.join("/"));
  const depth = segments.includes("**") || segments.some((s) => s.includes("**")) ? Infinity : segments.length;
  const out: string[] = [];
  const skip = base.endsWith(sep) ? base.length : base.length + 1;
  walk(
    base,
    (file) => {
      const rel = file.slice(skip);
      if (re.test(sep === "/" ? rel : rel.split(sep).join("/"))) out.push(file);
    },
    depth,
  );
  return out;
}

/** A regular expression for a `/`-separated glob, anchored at both ends. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  let inBraces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        if (atStart && glob[i + 2] === "/") {
          re += "(?:[^/]*/)*"; // `**/`: any number of directories, including none
          i += 2;
        } else {
          re += ".*";
          i += 1;
        }
      } else {
        re += "[^/]*";
      }
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close < 0) re += "\\[";
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
        re += `[${body}]`;
        i = close;
      }
    } else if (c === "{") {
      inBraces++;
      re += "(?:";
    } else if (c === "}" && inBraces > 0) {
      inBraces--;
      re += ")";
    } else if (c === "," && inBraces > 0) re += "|";
    else re += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

const ignoreCache = new Map<string, RegExp>();

/** The matcher of one `ignores` entry, gitignore-like: a pattern without `/` matches at any depth. */
function ignoreRegExp(pattern: string): RegExp {
  let re = ignoreCache.get(pattern);
  if (!re) {
    let p = pattern.replace(/^\.\//, "").replace(/\/+$/, "");
    if (!p.includes("/")) p = `**/${p}`;
    else p = p.replace(/^\//, "");
    re = globToRegExp(p);
    ignoreCache.set(pattern, re);
  }
  return re;
}

/** True when `file` or one of its directories (relative to `baseDir`) matches an ignore pattern. */
export function isIgnored(file: string, patterns: readonly string[], baseDir: string): boolean {
  if (patterns.length === 0) return false;
  const rel = relative(baseDir, resolve(baseDir, file)).split(sep).join("/");
  if (rel.startsWith("../")) return false;
  const res = patterns.map(ignoreRegExp);
  const parts = rel.split("/");
  for (let n = parts.length; n >= 1; n--) {
    const prefix = parts.slice(0, n).join("/");
    if (res.some((r) => r.test(prefix))) return true;
  }
  return false;
}

/** Revised plans paired with the originals they revise (`--against`). */
export interface Originals {
  /** Revised file -> original file (as given, joined to the directory). */
  pairs: Map<string, string>;
  /** Revised files with no original of their name in the directory. */
  unpaired: string[];
}

/**
 * `--against FILE` pairs the one revised plan with FILE; `--against DIR` pairs each revised
 * plan with `DIR/<same file name>` (or `DIR/<case>.original.yaml`, the golden-test naming
 * for `<case>.plan.yaml`), so one CI job lints every revision. A message when it cannot.
 */
export function pairOriginals(files: readonly string[], against: string, cwd: string): Originals | string {
  let isDir = false;
  try {
    isDir = statSync(resolve(cwd, against)).isDirectory();
  } catch {
    // A missing file is reported when it is compiled, with its position.
  }
  if (!isDir) {
    if (files.length !== 1) return `--against compares one revised plan with its original; got ${files.length} plans (give a directory to pair them by file name)`;
    return { pairs: new Map([[files[0]!, against]]), unpaired: [] };
  }
  const pairs = new Map<string, string>();
  const unpaired: string[] = [];
  const byName = new Map<string, string>();
  for (const file of files) {
    const name = basename(file);
    const other = byName.get(name);
    if (other !== undefined) return `--against ${against}: ${other} and ${file} have the same file name, so neither can be paired with an original by name`;
    byName.set(name, file);
    const stem = name.replace(/\.plan\.(?:ya?ml|json)$/i, "");
    const candidates = [name, ...(stem !== name ? [`${stem}.original.yaml`, `${stem}.original.yml`, `${stem}.original.json`] : [])];
    // A directory that holds the revised plans too must not pair a plan with itself.
    const self = resolve(cwd, file);
    const found = candidates.map((c) => join(against, c)).find((c) => resolve(cwd, c) !== self && existsSync(resolve(cwd, c)));
    if (found !== undefined) pairs.set(file, found);
    else unpaired.push(file);
  }
  return { pairs, unpaired };
}
