/**
 * A hand-written reader for well-formed expressions: the same grammar as the chevrotain
 * parser in parser.ts, building the same AST with the same offsets, but only for input
 * that lexes and parses without a single error. Anything else (a syntax error, a bad
 * escape, an unknown function or wrong arity, very deep nesting) makes it give up and
 * return undefined, and the chevrotain grammar reads the expression and words the error.
 *
 * Why: a 10,000-step plan holds ~30,000 expressions. Building chevrotain's lexer and
 * running its parser on them was the compiler's largest single cost after YAML parsing,
 * and a plan without mistakes never needs them. A property test (test/compiler/expr.test.ts)
 * holds this reader and the grammar equal on generated input.
 */
import type { BinaryOp, Expr, UnaryOp } from "./ast.js";
import { checkCall } from "./functions.js";
import { decodeString } from "./strings.js";

// Token kinds. Operators of one precedence level share nothing but their level (below).
const EOF = 0;
const NUM = 1;
const STR = 2;
const IDENT = 3;
const DOT = 4;
const COMMA = 5;
const LPAREN = 6;
const RPAREN = 7;
const LBRACKET = 8;
const RBRACKET = 9;
const BANG = 10;
const OP = 11; // a binary operator; `tokOp` says which (`-` is also unary minus)

/** Thrown to give the expression to the grammar; never escapes this module. */
const GIVE_UP = new Error("not a well-formed expression");

// Deeper nesting than this is left to the grammar, which has always handled (or reported)
// it; the limit keeps this reader's recursion far from the end of the stack.
const MAX_DEPTH = 200;

// Binding strength of each binary operator: higher binds tighter. All are left-associative.
const PRECEDENCE: Record<string, number> = {
  "||": 1,
  "&&": 2,
  "==": 3,
  "!=": 3,
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
  "%": 6,
};

// The reader's state: one expression at a time, one token of lookahead.
let src = "";
let base = 0;
let pos = 0;
let depth = 0;
let tok = EOF;
let tokStart = 0;
let tokEnd = 0;
let tokOp: BinaryOp = "+";

/**
 * The AST of `text` (offsets shifted by `at`) when it is a well-formed expression without
 * semantic errors, else undefined.
 */
export function parseWellFormed(text: string, at = 0): Expr | undefined {
  src = text;
  base = at;
  pos = 0;
  depth = 0;
  try {
    advance();
    if (tok === EOF) return undefined; // empty: the grammar words it
    const e = binary(1);
    return tok === EOF ? e : undefined;
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  } finally {
    src = "";
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNamePart(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

// The lexer skips /\s+/: JavaScript's white space and line terminators (one UTF-16 unit each).
const SPACE = /\s/;
function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c >= 0xa0 && SPACE.test(String.fromCharCode(c));
}

/** Reads the next token into `tok`, `tokStart`, `tokEnd` (and `tokOp`); gives up on what the lexer would reject. */
function advance(): void {
  while (pos < src.length && isSpace(src.charCodeAt(pos))) pos++;
  tokStart = pos;
  if (pos >= src.length) {
    tok = EOF;
    tokEnd = pos;
    return;
  }
  const c = src.charCodeAt(pos);
  const next = src.charCodeAt(pos + 1);
  if (isNameStart(c)) return readName();
  if (isDigit(c)) return readNumber();
  if (c === 39 || c === 34) return readString(c);
  if (c === 124 /* | */ || c === 38 /* & */ || c === 61 /* = */) {
    if (next !== c) throw GIVE_UP; // a lone `|`, `&` or `=`: the grammar hints at `||`, `&&`, `==`
    return operator(c === 124 ? "||" : c === 38 ? "&&" : "==", 2);
  }
  if (c === 33 /* ! */) return next === 61 ? operator("!=", 2) : single(BANG);
  if (c === 60 /* < */) return next === 61 ? operator("<=", 2) : operator("<", 1);
  if (c === 62 /* > */) return next === 61 ? operator(">=", 2) : operator(">", 1);
  switch (c) {
    case 43:
      return operator("+", 1);
    case 45:
      return operator("-", 1);
    case 42:
      return operator("*", 1);
    case 47:
      return operator("/", 1);
    case 37:
      return operator("%", 1);
    case 46:
      return single(DOT);
    case 44:
      return single(COMMA);
    case 40:
      return single(LPAREN);
    case 41:
      return single(RPAREN);
    case 91:
      return single(LBRACKET);
    case 93:
      return single(RBRACKET);
  }
  throw GIVE_UP;
}

function single(kind: number): void {
  tok = kind;
  pos++;
  tokEnd = pos;
}

function operator(op: BinaryOp, length: number): void {
  tok = OP;
  tokOp = op;
  pos += length;
  tokEnd = pos;
}

/** `[A-Za-z_][A-Za-z0-9_]*`; right after a `.` also `-x` parts (`steps.read-csv`), as the lexer reads them. */
function readName(): void {
  pos++;
  while (pos < src.length && isNamePart(src.charCodeAt(pos))) pos++;
  if (tokStart > 0 && src.charCodeAt(tokStart - 1) === 46) {
    while (src.charCodeAt(pos) === 45 && isNamePart(src.charCodeAt(pos + 1))) {
      pos += 2;
      while (pos < src.length && isNamePart(src.charCodeAt(pos))) pos++;
    }
  }
  tok = IDENT;
  tokEnd = pos;
}

/** `\d+(\.\d+)?([eE][+-]?\d+)?` */
function readNumber(): void {
  while (isDigit(src.charCodeAt(pos))) pos++;
  if (src.charCodeAt(pos) === 46 && isDigit(src.charCodeAt(pos + 1))) {
    pos++;
    while (isDigit(src.charCodeAt(pos))) pos++;
  }
  const e = src.charCodeAt(pos);
  if (e === 101 || e === 69) {
    const sign = src.charCodeAt(pos + 1);
    const at = sign === 43 || sign === 45 ? pos + 2 : pos + 1;
    if (isDigit(src.charCodeAt(at))) {
      pos = at;
      while (isDigit(src.charCodeAt(pos))) pos++;
    }
  }
  tok = NUM;
  tokEnd = pos;
}

/** A quoted string on one line; an escape takes the next character unless it ends a line. */
function readString(quote: number): void {
  pos++;
  for (;;) {
    if (pos >= src.length) throw GIVE_UP; // unterminated
    const c = src.charCodeAt(pos);
    if (c === quote) break;
    if (c === 10) throw GIVE_UP;
    if (c === 92 /* \ */) {
      const e = src.charCodeAt(pos + 1);
      // `.` in the lexer's pattern matches no line terminator (nor the end of input).
      if (Number.isNaN(e) || e === 10 || e === 13 || e === 0x2028 || e === 0x2029) throw GIVE_UP;
      pos += 2;
      continue;
    }
    pos++;
  }
  pos++;
  tok = STR;
  tokEnd = pos;
}

// A call, not a comparison, so TypeScript does not keep `tok` narrowed across `advance()`.
function at(kind: number): boolean {
  return tok === kind;
}

function expect(kind: number): number {
  if (tok !== kind) throw GIVE_UP;
  const end = tokEnd;
  advance();
  return end;
}

function enter(): void {
  if (++depth > MAX_DEPTH) throw GIVE_UP;
}

/** Precedence climbing over left-associative levels: the tree the grammar's `next (op next)*` levels build. */
function binary(minPrecedence: number): Expr {
  let left = unary();
  while (tok === OP) {
    const op = tokOp;
    const p = PRECEDENCE[op]!;
    if (p < minPrecedence) break;
    advance();
    const right = binary(p + 1);
    left = { type: "binary", op, left, right, start: left.start, end: right.end };
  }
  return left;
}

function unary(): Expr {
  if (tok === BANG || (tok === OP && tokOp === "-")) {
    const op: UnaryOp = tok === BANG ? "!" : "-";
    const start = base + tokStart;
    enter();
    advance();
    const operand = unary();
    depth--;
    return { type: "unary", op, operand, start, end: operand.end };
  }
  return postfix();
}

function postfix(): Expr {
  let e = primary();
  for (;;) {
    if (tok === DOT) {
      advance();
      if (!at(IDENT)) throw GIVE_UP;
      const property = src.slice(tokStart, tokEnd);
      const end = base + tokEnd;
      advance();
      e = { type: "member", object: e, property, start: e.start, end };
    } else if (tok === LBRACKET) {
      enter();
      advance();
      const index = binary(1);
      const end = base + expect(RBRACKET);
      depth--;
      e = { type: "index", object: e, index, start: e.start, end };
    } else {
      return e;
    }
  }
}

function primary(): Expr {
  const start = base + tokStart;
  const end = base + tokEnd;
  switch (tok) {
    case NUM: {
      const value = Number(src.slice(tokStart, tokEnd));
      advance();
      return { type: "literal", value, start, end };
    }
    case STR: {
      const errors: never[] = [];
      const value = decodeString(src.slice(tokStart, tokEnd), start, errors);
      if (errors.length) throw GIVE_UP;
      advance();
      return { type: "literal", value, start, end };
    }
    case IDENT:
      return nameOrCall(start, end);
    case LBRACKET: {
      enter();
      advance();
      const items = listItems(RBRACKET);
      const close = base + expect(RBRACKET);
      depth--;
      return { type: "list", items, start, end: close };
    }
    case LPAREN: {
      enter();
      advance();
      const inner = binary(1);
      const close = base + expect(RPAREN);
      depth--;
      // The parentheses belong to the node so `(a).b` starts at "(" (as in the grammar).
      return { ...inner, start, end: close };
    }
  }
  throw GIVE_UP;
}

/** Comma-separated expressions up to (not including) `close`; none is fine, a trailing comma is not. */
function listItems(close: number): Expr[] {
  const items: Expr[] = [];
  if (tok === close) return items;
  items.push(binary(1));
  while (tok === COMMA) {
    advance();
    items.push(binary(1));
  }
  return items;
}

function nameOrCall(start: number, nameEnd: number): Expr {
  const name = src.slice(tokStart, tokEnd);
  advance();
  if (tok === LPAREN) {
    enter();
    advance();
    const args = listItems(RPAREN);
    const end = base + expect(RPAREN);
    depth--;
    if (checkCall(name, args.length, start, nameEnd, end)) throw GIVE_UP; // unknown function or arity: the grammar reports it
    return { type: "call", callee: name, args, start, end };
  }
  if (name === "true") return { type: "literal", value: true, start, end: nameEnd };
  if (name === "false") return { type: "literal", value: false, start, end: nameEnd };
  if (name === "null") return { type: "literal", value: null, start, end: nameEnd };
  return { type: "ident", name, start, end: nameEnd };
}
