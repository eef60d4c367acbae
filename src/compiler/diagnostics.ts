/**
 * The one catalogue of compiler diagnostics (`PS1xx`): code, default message template
 * and docs anchor. `docs/diagnostics.md` documents each; a test keeps the two in step.
 */
import type { Diagnostic, Severity } from "../diagnostic.js";
import { LineIndex, locate } from "../diagnostic.js";
import type { SourceDoc } from "./source.js";
import { fillTemplate } from "../util/template.js";

export const catalogue = {
  PS100: { title: "file-unreadable", message: "cannot read {{file}}: {{reason}}" },
  PS101: { title: "syntax-error", message: "{{reason}}" },
  PS102: { title: "duplicate-key", message: 'duplicate key "{{key}}"' },
  PS103: { title: "missing-key", message: '{{where}} is missing required key "{{key}}"' },
  PS104: { title: "unknown-key", message: 'unknown key "{{key}}" in {{where}}' },
  PS105: { title: "wrong-type", message: "{{where}} must be {{expected}}, got {{actual}}" },
  PS106: { title: "invalid-value", message: "{{where}} must be one of {{allowed}}, got {{actual}}" },
  PS107: { title: "invalid-format", message: "{{where}} {{reason}}" },
  PS108: { title: "out-of-range", message: "{{where}} {{reason}}" },
  PS109: { title: "unsupported-version", message: "unsupported planspec version {{actual}}; this compiler reads planspec: 1" },
  PS110: { title: "invalid-duration", message: 'invalid duration "{{value}}": write a number with ms, s, m, h or d, e.g. 30s' },
  PS111: { title: "unknown-step", message: 'unknown step "{{id}}" in {{where}}' },
  PS112: { title: "self-dependency", message: 'step "{{id}}" needs itself' },
  PS113: { title: "dependency-cycle", message: "dependency cycle: {{path}}" },
  PS114: { title: "unknown-tool", message: 'unknown tool "{{tool}}": it is not in the plan\'s tool catalogue' },
  PS115: { title: "unknown-hypothesis", message: 'unknown hypothesis "{{id}}"' },
  PS116: { title: "duplicate-output", message: 'output "{{output}}" is already produced by step "{{other}}"' },
  PS117: { title: "import-failed", message: "cannot import {{file}}: {{reason}}" },
  PS118: { title: "invalid-catalogue", message: "{{file}} is not a tool catalogue: {{reason}}" },
  PS119: { title: "unknown-template", message: 'unknown template "{{name}}"' },
  PS120: { title: "template-cycle", message: "template cycle: {{path}}" },
  PS121: { title: "missing-param", message: 'template "{{template}}" needs parameter "{{param}}"' },
  PS122: { title: "unknown-param", message: 'template "{{template}}" has no parameter "{{param}}"' },
  PS123: { title: "param-type", message: 'parameter "{{param}}" of template "{{template}}" must be {{expected}}, got {{actual}}' },
  PS124: { title: "expression-syntax", message: "{{reason}}" },
  PS125: { title: "unknown-function", message: 'unknown function "{{name}}"' },
  PS126: { title: "function-arity", message: "{{reason}}" },
  PS127: { title: "not-an-ancestor", message: 'step "{{step}}" reads steps.{{ref}} but does not need it (directly or transitively)' },
  PS128: { title: "unknown-step-reference", message: 'reference to unknown step "{{ref}}"' },
  PS129: { title: "undeclared-input", message: 'input "{{name}}" is not declared in inputs' },
  PS130: { title: "path-not-in-schema", message: 'output of step "{{step}}" has no property "{{path}}" in its output_schema' },
  PS131: { title: "output-out-of-scope", message: "`output` can only be used in success checks and repeat.until (the step's own result)" },
  PS132: { title: "item-out-of-scope", message: "`item` can only be used in a step with for_each" },
  PS133: { title: "unknown-reference", message: 'unknown name "{{name}}": expressions can read {{allowed}}' },
  PS134: { title: "no-output", message: 'step "{{ref}}" declares no output to read' },
  PS135: { title: "invalid-evidence", message: 'evidence "{{ref}}" must be a reference like steps.<id> or steps.<id>.output.<path>' },
  PS136: { title: "conflicting-keys", message: "{{reason}}" },
  PS137: { title: "invalid-output-schema", message: "output_schema is not a valid JSON Schema: {{reason}}" },
  PS138: { title: "empty-plan", message: "the plan has no steps" },
  PS139: { title: "wrong-document", message: "{{reason}}" },
  PS140: { title: "unterminated-expression", message: "unterminated ${{ expression: add }}" },
  PS141: { title: "reserved-key", message: 'key "{{key}}" is reserved for compiled expressions' },
  PS142: { title: "input-default-type", message: 'default of input "{{name}}" must be {{expected}}, got {{actual}}' },
  PS143: { title: "unknown-verify-step", message: 'hypothesis "{{id}}" is verified by unknown step "{{step}}"' },
  PS144: { title: "phase-expand", message: "{{reason}}" },
  PS145: { title: "self-reference", message: 'step "{{step}}" reads its own result through steps.{{step}}' },
  PS146: { title: "undeclared-env-reference", message: "${{{name}}} in {{where}} sends an environment variable the plan does not list in secrets: add {{name}} to secrets (its value is then redacted) or write the value" },
  PS147: { title: "prototype-key", message: 'key "__proto__" is not allowed: JavaScript reads it as the object\'s prototype, so what runs would not be what the file says' },
  PS150: { title: "ir-schema", message: "{{reason}}" },
  PS151: { title: "ir-invariant", message: "{{reason}}" },
} as const satisfies Record<string, { title: string; message: string }>;

export type Code = keyof typeof catalogue;

export function diagnosticsDocsUrl(code: string): string {
  return `https://github.com/planspec/planspec/blob/main/docs/diagnostics.md#${code.toLowerCase()}`;
}

/** Collects positioned compiler diagnostics for one compilation. */
export class Collector {
  readonly list: Diagnostic[] = [];
  private readonly indexes = new Map<string, LineIndex | (() => LineIndex)>();
  /** Every document parsed in this compilation, by file. */
  readonly sources = new Map<string, SourceDoc>();

  /** Registers a file's line index (or a thunk that builds it on first use). */
  addSource(file: string, index: LineIndex | (() => LineIndex)): void {
    this.indexes.set(file, index);
  }

  private indexOf(file: string): LineIndex | undefined {
    let index = this.indexes.get(file);
    if (typeof index === "function") {
      index = index();
      this.indexes.set(file, index);
    }
    return index;
  }

  report(
    code: Code,
    file: string,
    range: [number, number],
    data: Record<string, string | number> = {},
    extra: { hint?: string; severity?: Severity } = {},
  ): void {
    const d: Omit<Diagnostic, "line" | "col" | "endLine" | "endCol"> = {
      code,
      severity: extra.severity ?? "error",
      message: fillTemplate(catalogue[code].message, data),
      file,
      range,
      docsUrl: diagnosticsDocsUrl(code),
    };
    if (extra.hint) d.hint = extra.hint;
    this.list.push(locate(this.indexOf(file), d));
  }

  get hasErrors(): boolean {
    return this.list.some((d) => d.severity === "error");
  }
}
