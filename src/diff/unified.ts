/**
 * A unified diff of two texts (`diff -u` style, 3 lines of context), for `lint --fix-dry-run`.
 * Line LCS by dynamic programming: plan files are hundreds of lines, not millions.
 */

type Op = { kind: " " | "-" | "+"; line: string };

function lines(text: string): string[] {
  const out = text.split("\n");
  if (out[out.length - 1] === "") out.pop();
  return out;
}

function diffLines(a: string[], b: string[]): Op[] {
  // Common prefix and suffix first: a fix changes a few lines of a long file.
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const n = am.length;
  const m = bm.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = am[i] === bm[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: Op[] = a.slice(0, pre).map((line) => ({ kind: " ", line }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && am[i] === bm[j]) {
      ops.push({ kind: " ", line: am[i++]! });
      j++;
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: "-", line: am[i++]! });
    else ops.push({ kind: "+", line: bm[j++]! });
  }
  for (const line of a.slice(a.length - suf)) ops.push({ kind: " ", line });
  return ops;
}

/** `--- a/file`, `+++ b/file` and `@@` hunks; empty when the texts are equal. */
export function unifiedDiff(file: string, before: string, after: string, context = 3): string {
  if (before === after) return "";
  const ops = diffLines(lines(before), lines(after));
  let out = `--- a/${file}\n+++ b/${file}\n`;
  const changed = ops.map((o, k) => (o.kind !== " " ? k : -1)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    let first = changed[k]!;
    let last = first;
    while (k + 1 < changed.length && changed[k + 1]! - last <= 2 * context + 1) last = changed[++k]!;
    k++;
    first = Math.max(0, first - context);
    const end = Math.min(ops.length - 1, last + context);
    let aStart = 1;
    let bStart = 1;
    for (let x = 0; x < first; x++) {
      if (ops[x]!.kind !== "+") aStart++;
      if (ops[x]!.kind !== "-") bStart++;
    }
    const hunk = ops.slice(first, end + 1);
    const aLen = hunk.filter((o) => o.kind !== "+").length;
    const bLen = hunk.filter((o) => o.kind !== "-").length;
    out += `@@ -${aLen ? aStart : aStart - 1},${aLen} +${bLen ? bStart : bStart - 1},${bLen} @@\n`;
    for (const o of hunk) out += `${o.kind}${o.line}\n`;
  }
  return out;
}
