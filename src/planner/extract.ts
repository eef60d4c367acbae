/**
 * Getting a JSON document out of a model's answer: leading `<think>` blocks dropped,
 * then the whole text, else the fenced blocks, else each balanced `{…}` span in turn
 * until one parses as an object (prose may hold braces of its own). A failure says why
 * in terms the model can act on (cut off, prose around it, not an object), and
 * `readAnswer` adds what the user is told (a refusal, a limit to raise).
 */
import type { Completion } from "../llm/provider.js";

export type Extracted = { ok: true; value: Record<string, unknown>; note?: string } | { ok: false; message: string };

const FENCES = /```[a-zA-Z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/g;
const THINK = /^<(think|thinking|reasoning)>[\s\S]*?<\/\1>/i;
const OPEN_THINK = /^<(think|thinking|reasoning)>/i;
/** Characters scanned per character of answer, at most, over all brace spans: an answer of nothing but `{` stays linear. */
const SCAN_FACTOR = 40;

function tryParse(s: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(s) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
/** Both plan documents and refinement answers have `steps`: an object with it is the answer, not an example in prose. */
const looksLikeAnswer = (v: Record<string, unknown>) => "steps" in v;

/** Parses the answer's JSON object; `truncated` is the provider's own word that it hit the limit. */
export function extractJson(text: string, truncated = false): Extracted {
  let t = text.trim();
  let thought = false;
  for (let m = THINK.exec(t); m; m = THINK.exec(t)) {
    t = t.slice(m[0].length).trim();
    thought = true;
  }
  if (OPEN_THINK.test(t))
    return { ok: false, message: truncated ? "the answer was cut off while still reasoning (<think> never closed); think less and answer with the plan as one JSON object" : "the answer is all reasoning (<think> never closed); answer with the plan as one JSON object" };
  if (t === "") return { ok: false, message: "the answer was empty; answer with the plan as one JSON object" };
  const with_ = (value: Record<string, unknown>, note?: string): Extracted => {
    const n = [thought ? "a <think> block before the JSON was ignored" : "", note ?? ""].filter(Boolean).join("; ");
    return n ? { ok: true, value, note: n } : { ok: true, value };
  };

  const whole = tryParse(t);
  if (whole.error === undefined) {
    if (!isObject(whole.value)) return { ok: false, message: "the answer is JSON but not an object; answer with the plan document as one JSON object" };
    return with_(whole.value);
  }
  let fallback: Record<string, unknown> | undefined;
  let fallbackNote = "";
  for (const m of t.matchAll(FENCES)) {
    const r = tryParse(m[1]!.trim());
    if (!isObject(r.value)) continue;
    if (looksLikeAnswer(r.value)) return with_(r.value, "the JSON was inside a code fence");
    if (!fallback) [fallback, fallbackNote] = [r.value, "the JSON was inside a code fence"];
  }
  const span = braceSpans(t);
  if (span.found) return with_(span.found, "prose around the JSON was ignored");
  if (fallback) return with_(fallback, fallbackNote);
  if (span.first) return with_(span.first, "prose around the JSON was ignored");
  const cut = truncated || span.unclosed || unbalanced(t);
  return {
    ok: false,
    message: cut
      ? `the answer is not complete JSON (it stops before the document closes: ${whole.error}); answer again with a shorter, complete plan`
      : `the answer is not valid JSON (${whole.error}); answer with the plan as one JSON object and nothing else`,
  };
}

/**
 * Tries each `{` in turn: the span up to its matching `}` (strings respected) is parsed.
 * `found` is the first object that looks like the answer; `first` the first object at
 * all, unless an earlier `{` never closed (then later objects are pieces of a cut-off
 * document, and taking one would hide the cut).
 */
function braceSpans(t: string): { found?: Record<string, unknown>; first?: Record<string, unknown>; unclosed: boolean } {
  let first: Record<string, unknown> | undefined;
  let unclosed = false;
  let budget = SCAN_FACTOR * t.length + 100_000;
  for (let i = t.indexOf("{"); i >= 0 && budget > 0; ) {
    const end = matchingBrace(t, i);
    budget -= (end < 0 ? t.length : end + 1) - i;
    if (end < 0) {
      unclosed = true;
      i = t.indexOf("{", i + 1);
      continue;
    }
    const r = tryParse(t.slice(i, end + 1));
    if (isObject(r.value)) {
      if (looksLikeAnswer(r.value)) return first ? { found: r.value, first, unclosed } : { found: r.value, unclosed };
      if (!first && !unclosed) first = r.value;
      i = t.indexOf("{", end + 1);
    } else i = t.indexOf("{", i + 1);
  }
  return first ? { first, unclosed } : { unclosed };
}

/** The index of the `}` closing the `{` at `start`, or -1. */
function matchingBrace(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
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

/** An answer read for the loop: the document, or what to tell the model and the user, and whether asking again can help. */
export type ReadAnswer = { ok: true; value: Record<string, unknown>; note?: string } | { ok: false; model: string; user: string; final: boolean };

/** Reads a completion: a refusal ends the loop; a cut-off or reasoning-only answer says which limit to raise; else the JSON is extracted. */
export function readAnswer(c: Completion): ReadAnswer {
  if (c.refusal) return { ok: false, model: "", user: `the model refused: ${c.refusal}`, final: true };
  if (c.reasoningOnly || (OPEN_THINK.test(c.text.trim()) && !/<\/(think|thinking|reasoning)>/i.test(c.text))) {
    return c.truncated
      ? {
          ok: false,
          model: "you spent all your output tokens on reasoning and wrote no plan; reason briefly and answer with the plan as one JSON object",
          user: "the model spent all its output tokens on reasoning and wrote no answer: raise --max-tokens",
          final: false,
        }
      : { ok: false, model: "you reasoned but wrote no plan; answer with the plan as one JSON object", user: "the model reasoned but wrote no answer", final: false };
  }
  if (c.truncated) {
    const model = "the answer is not complete JSON: it was cut off at the output token limit; answer again with a shorter, complete plan";
    return { ok: false, model, user: "the answer was cut off at the output token limit: raise --max-tokens (or ask for a smaller plan)", final: false };
  }
  const parsed = extractJson(c.text);
  return parsed.ok ? parsed : { ok: false, model: parsed.message, user: parsed.message, final: false };
}
