/**
 * The lexer of the expression language. Built once per process: the compiler lexes
 * one expression per `${{ }}` and a 10k-step plan holds tens of thousands of them.
 */
import type { CustomPatternMatcherReturn } from "chevrotain";
import { chevrotain } from "./chevrotain.js";

const { Lexer, createToken } = chevrotain;

// Operator groups are token categories so the parser consumes "any additive operator" in
// one step instead of an alternation per operator.
export const EqualityOp = createToken({ name: "EqualityOp", pattern: Lexer.NA });
export const RelationalOp = createToken({ name: "RelationalOp", pattern: Lexer.NA });
export const AdditiveOp = createToken({ name: "AdditiveOp", pattern: Lexer.NA });
export const MultiplicativeOp = createToken({ name: "MultiplicativeOp", pattern: Lexer.NA });

export const Or = createToken({ name: "Or", pattern: "||", label: '"||"' });
export const And = createToken({ name: "And", pattern: "&&", label: '"&&"' });
export const Eq = createToken({ name: "Eq", pattern: "==", categories: [EqualityOp] });
export const NotEq = createToken({ name: "NotEq", pattern: "!=", categories: [EqualityOp] });
export const LtEq = createToken({ name: "LtEq", pattern: "<=", categories: [RelationalOp] });
export const GtEq = createToken({ name: "GtEq", pattern: ">=", categories: [RelationalOp] });
export const Lt = createToken({ name: "Lt", pattern: "<", categories: [RelationalOp] });
export const Gt = createToken({ name: "Gt", pattern: ">", categories: [RelationalOp] });
export const Bang = createToken({ name: "Bang", pattern: "!" });
export const Plus = createToken({ name: "Plus", pattern: "+", categories: [AdditiveOp] });
export const Minus = createToken({ name: "Minus", pattern: "-", categories: [AdditiveOp] });
export const Star = createToken({ name: "Star", pattern: "*", categories: [MultiplicativeOp] });
export const Slash = createToken({ name: "Slash", pattern: "/", categories: [MultiplicativeOp] });
export const Percent = createToken({ name: "Percent", pattern: "%", categories: [MultiplicativeOp] });
export const Dot = createToken({ name: "Dot", pattern: ".", label: '"."' });
export const Comma = createToken({ name: "Comma", pattern: ",", label: '","' });
export const LParen = createToken({ name: "LParen", pattern: "(", label: '"("' });
export const RParen = createToken({ name: "RParen", pattern: ")", label: '")"' });
export const LBracket = createToken({ name: "LBracket", pattern: "[", label: '"["' });
export const RBracket = createToken({ name: "RBracket", pattern: "]", label: '"]"' });

export const NumberLit = createToken({ name: "NumberLit", pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, label: "a number" });
export const StringLit = createToken({
  name: "StringLit",
  pattern: /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/,
  label: "a string",
});
// Matched only when StringLit failed, i.e. the closing quote is missing; the parser turns
// it into an "unterminated string" error at the opening quote.
export const UnterminatedString = createToken({
  name: "UnterminatedString",
  pattern: /'(?:[^'\\\n]|\\.)*\\?|"(?:[^"\\\n]|\\.)*\\?/,
});

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const HYPHEN_TAIL = /(?:-[A-Za-z0-9_]+)*/y;

/**
 * Step ids and input names may contain `-` (the DSL identifier is `[A-Za-z_][A-Za-z0-9_-]*`),
 * so a name right after `.` swallows `-x` parts: `steps.read-csv.output`. Anywhere else `-`
 * stays subtraction, so `len(x)-1` and `a -b` mean what they look like.
 */
function matchIdentifier(text: string, offset: number): CustomPatternMatcherReturn | null {
  NAME.lastIndex = offset;
  const m = NAME.exec(text);
  if (!m) return null;
  if (offset === 0 || text.charCodeAt(offset - 1) !== 46 /* . */) return [m[0]];
  HYPHEN_TAIL.lastIndex = NAME.lastIndex;
  const tail = HYPHEN_TAIL.exec(text);
  return [tail ? m[0] + tail[0] : m[0]];
}

const identStart = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"];

export const Identifier = createToken({
  name: "Identifier",
  pattern: { exec: matchIdentifier },
  start_chars_hint: identStart,
  line_breaks: false,
  label: "a name",
});

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /\s+/, group: Lexer.SKIPPED });

// Stray ASCII punctuation becomes a token of its own so the parser can say `unexpected "}"`
// with what it expected there. The set is spelled out (not `[^...]`) because chevrotain's
// first-char optimisation cannot analyse negated classes; other characters are lexer
// errors, reported as "unexpected character".
export const Unknown = createToken({ name: "Unknown", pattern: /[{}=&|@#$^~`?:;\\]/ });

export const allTokens = [
  WhiteSpace,
  Or,
  And,
  Eq,
  NotEq,
  LtEq,
  GtEq,
  Lt,
  Gt,
  Bang,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Dot,
  Comma,
  LParen,
  RParen,
  LBracket,
  RBracket,
  NumberLit,
  StringLit,
  UnterminatedString,
  Identifier,
  Unknown,
  EqualityOp,
  RelationalOp,
  AdditiveOp,
  MultiplicativeOp,
];

let instance: InstanceType<typeof Lexer> | undefined;

/**
 * The one lexer instance, built on first use (plans whose expressions are all plain
 * references never need it); `onlyOffset` skips line/column tracking we never read.
 */
export function lexer(): InstanceType<typeof Lexer> {
  return (instance ??= new Lexer(allTokens, { positionTracking: "onlyOffset", ensureOptimizations: true }));
}
