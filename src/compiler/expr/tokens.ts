/**
 * The lexer of the expression language, and the token types the grammar (parser.ts)
 * consumes. Built once per process, on first use: only an expression the hand-written
 * reader gives up on (a mistake, mostly) needs chevrotain, and a clean plan never loads it.
 */
import type { CustomPatternMatcherReturn, Lexer, TokenType } from "chevrotain";
import { chevrotain } from "./chevrotain.js";

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

/** The token types, built on first use. */
export type Tokens = ReturnType<typeof buildTokens>;

function buildTokens() {
  const { Lexer, createToken } = chevrotain();
  // Operator groups are token categories so the parser consumes "any additive operator" in
  // one step instead of an alternation per operator.
  const EqualityOp = createToken({ name: "EqualityOp", pattern: Lexer.NA });
  const RelationalOp = createToken({ name: "RelationalOp", pattern: Lexer.NA });
  const AdditiveOp = createToken({ name: "AdditiveOp", pattern: Lexer.NA });
  const MultiplicativeOp = createToken({ name: "MultiplicativeOp", pattern: Lexer.NA });

  const Or = createToken({ name: "Or", pattern: "||", label: '"||"' });
  const And = createToken({ name: "And", pattern: "&&", label: '"&&"' });
  const Eq = createToken({ name: "Eq", pattern: "==", categories: [EqualityOp] });
  const NotEq = createToken({ name: "NotEq", pattern: "!=", categories: [EqualityOp] });
  const LtEq = createToken({ name: "LtEq", pattern: "<=", categories: [RelationalOp] });
  const GtEq = createToken({ name: "GtEq", pattern: ">=", categories: [RelationalOp] });
  const Lt = createToken({ name: "Lt", pattern: "<", categories: [RelationalOp] });
  const Gt = createToken({ name: "Gt", pattern: ">", categories: [RelationalOp] });
  const Bang = createToken({ name: "Bang", pattern: "!" });
  const Plus = createToken({ name: "Plus", pattern: "+", categories: [AdditiveOp] });
  const Minus = createToken({ name: "Minus", pattern: "-", categories: [AdditiveOp] });
  const Star = createToken({ name: "Star", pattern: "*", categories: [MultiplicativeOp] });
  const Slash = createToken({ name: "Slash", pattern: "/", categories: [MultiplicativeOp] });
  const Percent = createToken({ name: "Percent", pattern: "%", categories: [MultiplicativeOp] });
  const Dot = createToken({ name: "Dot", pattern: ".", label: '"."' });
  const Comma = createToken({ name: "Comma", pattern: ",", label: '","' });
  const LParen = createToken({ name: "LParen", pattern: "(", label: '"("' });
  const RParen = createToken({ name: "RParen", pattern: ")", label: '")"' });
  const LBracket = createToken({ name: "LBracket", pattern: "[", label: '"["' });
  const RBracket = createToken({ name: "RBracket", pattern: "]", label: '"]"' });

  const NumberLit = createToken({ name: "NumberLit", pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, label: "a number" });
  const StringLit = createToken({
    name: "StringLit",
    pattern: /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/,
    label: "a string",
  });
  // Matched only when StringLit failed, i.e. the closing quote is missing; the parser turns
  // it into an "unterminated string" error at the opening quote.
  const UnterminatedString = createToken({
    name: "UnterminatedString",
    pattern: /'(?:[^'\\\n]|\\.)*\\?|"(?:[^"\\\n]|\\.)*\\?/,
  });

  const identStart = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"];

  const Identifier = createToken({
    name: "Identifier",
    pattern: { exec: matchIdentifier },
    start_chars_hint: identStart,
    line_breaks: false,
    label: "a name",
  });

  const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /\s+/, group: Lexer.SKIPPED });

  // Stray ASCII punctuation becomes a token of its own so the parser can say `unexpected "}"`
  // with what it expected there. The set is spelled out (not `[^...]`) because chevrotain's
  // first-char optimisation cannot analyse negated classes; other characters are lexer
  // errors, reported as "unexpected character".
  const Unknown = createToken({ name: "Unknown", pattern: /[{}=&|@#$^~`?:;\\]/ });

  const allTokens: TokenType[] = [
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

  return {
    EqualityOp, RelationalOp, AdditiveOp, MultiplicativeOp, Or, And, Eq, NotEq, LtEq, GtEq, Lt, Gt, Bang, Plus, Minus,
    Star, Slash, Percent, Dot, Comma, LParen, RParen, LBracket, RBracket, NumberLit, StringLit, UnterminatedString,
    Identifier, WhiteSpace, Unknown, allTokens,
  };
}

let built: Tokens | undefined;

export function tokens(): Tokens {
  return (built ??= buildTokens());
}

let instance: Lexer | undefined;

/**
 * The one lexer instance, built on first use (plans whose expressions are all plain
 * references never need it); `onlyOffset` skips line/column tracking we never read.
 */
export function lexer(): Lexer {
  return (instance ??= new (chevrotain().Lexer)(tokens().allTokens, { positionTracking: "onlyOffset", ensureOptimizations: true }));
}
