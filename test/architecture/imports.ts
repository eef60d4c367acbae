/** The static import graph of src/ (value imports; `import type` is erased and cannot form a cycle at run time). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface ImportGraph {
  /** Files relative to src/, e.g. `lint/engine.ts`. */
  files: string[];
  /** file -> the files it imports (values only). */
  edges: Map<string, string[]>;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

export function importGraph(src: string): ImportGraph {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts")) files.push(relative(src, p));
    }
  };
  walk(src);
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(join(src, f), "utf8");
    const deps = new Set<string>();
    const add = (spec: string) => {
      if (!spec.startsWith(".")) return;
      deps.add(relative(src, resolve(src, dirname(f), spec.replace(/\.js$/, ".ts"))));
    };
    for (const m of text.matchAll(IMPORT)) if (!m[2] && !/^\s*import\s+type\s/.test(m[0])) add(m[3]!);
    for (const m of text.matchAll(DYNAMIC)) add(m[1]!);
    edges.set(f, [...deps]);
  }
  return { files, edges };
}

/** The stage of a file: its top folder, or its own name for a file directly in src/. */
export function stageOf(file: string): string {
  const [top, ...rest] = file.split("/");
  return rest.length === 0 ? top!.replace(/\.ts$/, "") : top!;
}

/** Strongly connected components with more than one file (Tarjan): the import cycles. */
export function cycles(g: ImportGraph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.edges.get(v) ?? []) {
      if (!g.edges.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const f of g.files) if (!idx.has(f)) visit(f);
  return out;
}
