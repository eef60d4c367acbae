/**
 * Getting a JSON document out of a model's answer: the whole text, else the first
 * fenced block, else the outermost braces. A failure says why in terms the model can
 * act on (truncated, prose around it, not an object).
 */

export type Extracted = { ok: true; value: Record<string, unknown>; note?: string } | { ok: false; message: string };

const FENCE = /```[a-zA-Z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/;

function tryParse(s: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(s) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Parses the answer's JSON object; `truncated` is the provider's own word that it hit the limit. */
export function extractJson(text: string, truncated = false): Extracted {
  const t = text.trim();
  if (t === "") return { ok: false, message: "the answer was empty; answer with the plan as one JSON object" };
  const candidates: Array<{ src: string; note?: string }> = [{ src: t }];
  const fence = FENCE.exec(t);
  if (fence) candidates.push({ src: fence[1]!.trim(), note: "the JSON was inside a code fence" });
  const open = t.indexOf("{");
  const close = t.lastIndexOf("}");
  if (open >= 0 && close > open) candidates.push({ src: t.slice(open, close + 1), note: "prose around the JSON was ignored" });
  let firstError = "";
  for (const c of candidates) {
    const r = tryParse(c.src);
    if (r.error !== undefined) {
      firstError ||= r.error;
      continue;
    }
    if (!r.value || typeof r.value !== "object" || Array.isArray(r.value))
      return { ok: false, message: "the answer is JSON but not an object; answer with the plan document as one JSON object" };
    return c.note ? { ok: true, value: r.value as Record<string, unknown>, note: c.note } : { ok: true, value: r.value as Record<string, unknown> };
  }
  const cut = truncated || (open >= 0 && close < open) || unbalanced(t);
  return {
    ok: false,
    message: cut
      ? `the answer is not complete JSON (it stops before the document closes: ${firstError}); answer again with a shorter, complete plan`
      : `the answer is not valid JSON (${firstError}); answer with the plan as one JSON object and nothing else`,
  };
}

/** True when brackets opened outside strings are not all closed: the usual sign of a cut-off answer. */
function unbalanced(s: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") depth--;
  }
  return depth > 0 || inString;
}
