/**
 * The `${{ }}` expression language (SPEC §1): parse, scan templates, extract references,
 * evaluate.
 */
export type { BinaryOp, Expr, ExprError, UnaryOp } from "./ast.js";
export { ExprEvalError } from "./ast.js";
export { parseExpression } from "./parser.js";
export { scanTemplate, type ScannedTemplate, type TemplatePart } from "./template.js";
export { references, type Reference } from "./references.js";
export { FUNCTIONS, suggestFunction } from "./functions.js";
export { evaluate, evaluateSource, evaluateValue, truthy, type EvalEnv } from "./eval.js";
