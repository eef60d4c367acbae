/**
 * A credential written into a plan ends up in the repository, the IR, the run directory
 * and every LLM prompt that sees the plan. Secrets belong in inputs or the tool's
 * environment.
 */
import { defineRule } from "../rule.js";
import { FORMATS, SUSPECT } from "../secret-formats.js";
import { literalStrings } from "../text.js";

// Argument names that hold secrets (`password`, `db_password`, `api_key`, `client_secret`).
const SECRET_NAME = /(?:^|[_-])(?:pass(?:word|wd)?|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)$/i;
// Values that stand in for a secret rather than being one.
const PLACEHOLDER = /^(?:<[^>]*>|\*+|x+|\.\.\.|changeme|placeholder|redacted|none|null|env:.*|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)$/i;

export const rule = defineRule({
  id: "secret-in-arguments",
  meta: {
    description: "A literal argument that looks like an API key, token or password.",
    defaultSeverity: "error",
    messages: {
      secret:
        'argument "{{arg}}" of step "{{step}}" holds what looks like a {{what}}; pass it through an input or the tool\'s environment',
    },
  },
  check(ctx) {
    for (const node of ctx.ir.nodes) {
      if (!node.with) continue;
      for (const [key, value] of Object.entries(node.with)) {
        const seen = new Set<string>();
        literalStrings(value, ["with", key], (s, path, part) => {
          const arg = path.slice(1).join(".");
          if (seen.has(arg)) return;
          const what = classify(s, path, part);
          if (!what) return;
          seen.add(arg);
          // A known token format is a fact; a value under a secret-sounding name is a guess.
          ctx.report({ messageId: "secret", node: node.id, path, data: { step: node.id, arg, what }, confidence: what === "secret" ? "medium" : "high" });
        });
      }
    }
  },
});

function classify(s: string, path: ReadonlyArray<string | number>, part: boolean): string | undefined {
  if (s.length >= 8 && SUSPECT.test(s)) for (const [re, what] of FORMATS) if (re.test(s)) return what;
  // The name test only applies to a whole literal value: in a template such as
  // "Bearer ${{ inputs.token }}" the secret is the expression, which is fine.
  const name = path[path.length - 1];
  if (part || typeof name !== "string" || !SECRET_NAME.test(name)) return undefined;
  const v = s.trim();
  return v.length >= 4 && !PLACEHOLDER.test(v) ? "secret" : undefined;
}
