/**
 * The expression AST and its error shape. Every node carries absolute `[start, end)`
 * offsets (offsets in the containing file) so diagnostics can point inside a string.
 */

export type BinaryOp = "&&" | "||" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/" | "%";
export type UnaryOp = "!" | "-";

export type Expr =
  | { type: "literal"; value: null | boolean | number | string; start: number; end: number }
  | { type: "list"; items: Expr[]; start: number; end: number }
  /** A bare root name: `inputs`, `steps`, `output`, `run`, `item`, ... */
  | { type: "ident"; name: string; start: number; end: number }
  | { type: "member"; object: Expr; property: string; start: number; end: number }
  | { type: "index"; object: Expr; index: Expr; start: number; end: number }
  | { type: "call"; callee: string; args: Expr[]; start: number; end: number }
  | { type: "unary"; op: UnaryOp; operand: Expr; start: number; end: number }
  | { type: "binary"; op: BinaryOp; left: Expr; right: Expr; start: number; end: number };

export interface ExprError {
  kind: "syntax" | "unknown-function" | "arity";
  message: string;
  start: number;
  end: number;
  hint?: string;
}

/** Thrown by evaluation; `start`/`end` locate the node that failed, when known. */
export class ExprEvalError extends Error {
  constructor(
    message: string,
    readonly start?: number,
    readonly end?: number,
  ) {
    super(message);
    this.name = "ExprEvalError";
  }
}
