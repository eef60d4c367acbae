/**
 * The expression parser: a chevrotain embedded-actions parser that builds the AST
 * directly (no CST), instantiated once per process and re-fed for every expression.
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import type { BinaryOp, Expr, ExprError, UnaryOp } from "./ast.js";
import { chevrotain } from "./chevrotain.js";
import { checkCall } from "./functions.js";
import { parseWellFormed } from "./hand-parser.js";
import { decodeString } from "./strings.js";
import { lexer, tokens } from "./tokens.js";

function describe(tok: IToken): string {
  return tok.tokenType === chevrotain().EOF ? "end of expression" : JSON.stringify(tok.image);
}

function expectedText(expected: TokenType, ruleName: string, previous: IToken): string {
  const t = tokens();
  const afterOpen = previous.tokenType === t.LParen || previous.tokenType === t.LBracket;
  if (expected === t.Identifier) return 'a property name after "."';
  if (expected === t.RParen && ruleName === "identOrCall") return afterOpen ? 'an argument or ")"' : 'an operator, "," or ")"';
  if (expected === t.RBracket && ruleName === "list") return afterOpen ? 'a list item or "]"' : 'an operator, "," or "]"';
  if (expected === t.RParen || expected === t.RBracket) return `an operator or ${expected.LABEL ?? expected.name}`;
  return expected.LABEL ?? expected.name;
}

// Chevrotain's default messages dump token type names; users get one sentence in our words.
const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual, previous, ruleName }) =>
    `unexpected ${describe(actual)} : expected ${expectedText(expected, ruleName, previous)}`,
  buildNotAllInputParsedMessage: ({ firstRedundant }) =>
    `unexpected ${describe(firstRedundant)} : expected an operator or the end of the expression`,
  buildNoViableAltMessage: ({ actual }) => `unexpected ${actual[0] ? describe(actual[0]) : "end of expression"} : expected an operand`,
  buildEarlyExitMessage: ({ actual }) => `unexpected ${actual[0] ? describe(actual[0]) : "end of expression"} : expected an operand`,
};

const operatorHints: Record<string, string> = {
  "=": 'use "==" to compare',
  "&": 'use "&&" for "and"',
  "|": 'use "||" for "or"',
  and: 'use "&&" for "and"',
  or: 'use "||" for "or"',
  not: 'use "!" for "not"',
};

/** The grammar's parser; the class is made on first use, since its base class is chevrotain's. */
function createParser() {
  const t = tokens();
  const { EmbeddedActionsParser } = chevrotain();
  class ExprParser extends EmbeddedActionsParser {
    base = 0;
    semantic: ExprError[] = [];

    constructor() {
      super(t.allTokens, { recoveryEnabled: false, maxLookahead: 1, errorMessageProvider: messages });
      this.performSelfAnalysis();
    }

    private start(tok: IToken): number {
      return this.base + tok.startOffset;
    }

    // The lexer tracks only start offsets (`onlyOffset`), so the end comes from the image.
    private end(tok: IToken): number {
      return this.base + tok.startOffset + tok.image.length;
    }

    /** One left-associative precedence level: `next (op next)*`. */
    private level(name: string, op: TokenType, next: () => (idx?: number) => Expr) {
      return this.RULE(name, (): Expr => {
        let left = this.SUBRULE(next());
        this.MANY(() => {
          const tok = this.CONSUME(op);
          const right = this.SUBRULE2(next());
          left = { type: "binary", op: tok.image as BinaryOp, left, right, start: left.start, end: right.end };
        });
        return left;
      });
    }

    expression = this.RULE("expression", (): Expr => this.SUBRULE(this.orExpr));

    private orExpr: (idx?: number) => Expr = this.level("orExpr", t.Or, () => this.andExpr);
    private andExpr: (idx?: number) => Expr = this.level("andExpr", t.And, () => this.equality);
    private equality: (idx?: number) => Expr = this.level("equality", t.EqualityOp, () => this.comparison);
    private comparison: (idx?: number) => Expr = this.level("comparison", t.RelationalOp, () => this.additive);
    private additive: (idx?: number) => Expr = this.level("additive", t.AdditiveOp, () => this.multiplicative);
    private multiplicative: (idx?: number) => Expr = this.level("multiplicative", t.MultiplicativeOp, () => this.unary);

    private unary: (idx?: number) => Expr = this.RULE("unary", (): Expr =>
      this.OR([
        {
          ALT: () => {
            const op = this.OR2([{ ALT: () => this.CONSUME(t.Bang) }, { ALT: () => this.CONSUME(t.Minus) }]);
            const operand = this.SUBRULE(this.unary);
            return { type: "unary", op: op.image as UnaryOp, operand, start: this.start(op), end: operand.end };
          },
        },
        { ALT: () => this.SUBRULE(this.postfix) },
      ]),
    );

    private postfix = this.RULE("postfix", (): Expr => {
      let e = this.SUBRULE(this.primary);
      this.MANY(() =>
        this.OR([
          {
            ALT: () => {
              this.CONSUME(t.Dot);
              const name = this.CONSUME(t.Identifier);
              e = { type: "member", object: e, property: name.image, start: e.start, end: this.end(name) };
            },
          },
          {
            ALT: () => {
              this.CONSUME(t.LBracket);
              const index = this.SUBRULE(this.expression);
              const close = this.CONSUME(t.RBracket);
              e = { type: "index", object: e, index, start: e.start, end: this.end(close) };
            },
          },
        ]),
      );
      return e;
    });

    private primary = this.RULE("primary", (): Expr =>
      this.OR([
        {
          ALT: () => {
            const tok = this.CONSUME(t.NumberLit);
            return { type: "literal", value: Number(tok.image), start: this.start(tok), end: this.end(tok) };
          },
        },
        {
          ALT: () => {
            const tok = this.CONSUME(t.StringLit);
            const value = this.ACTION(() => decodeString(tok.image, this.start(tok), this.semantic));
            return { type: "literal", value, start: this.start(tok), end: this.end(tok) };
          },
        },
        { ALT: () => this.SUBRULE(this.identOrCall) },
        { ALT: () => this.SUBRULE(this.list) },
        {
          ALT: () => {
            const open = this.CONSUME(t.LParen);
            const inner = this.SUBRULE(this.expression);
            const close = this.CONSUME(t.RParen);
            // The parentheses belong to the node so `(a).b` starts at "(".
            return { ...inner, start: this.start(open), end: this.end(close) };
          },
        },
      ]),
    );

    private list = this.RULE("list", (): Expr => {
      const open = this.CONSUME(t.LBracket);
      const items: Expr[] = [];
      this.MANY_SEP({ SEP: t.Comma, DEF: () => items.push(this.SUBRULE(this.expression)) });
      const close = this.CONSUME(t.RBracket);
      return { type: "list", items, start: this.start(open), end: this.end(close) };
    });

    private identOrCall = this.RULE("identOrCall", (): Expr => {
      const name = this.CONSUME(t.Identifier);
      let args: Expr[] | undefined;
      let close: IToken | undefined;
      this.OPTION(() => {
        this.CONSUME(t.LParen);
        args = [];
        this.MANY_SEP({ SEP: t.Comma, DEF: () => args!.push(this.SUBRULE(this.expression)) });
        close = this.CONSUME(t.RParen);
      });
      return this.ACTION((): Expr => {
        const start = this.start(name);
        if (args && close) {
          const call: Expr = { type: "call", callee: name.image, args, start, end: this.end(close) };
          const err = checkCall(name.image, args.length, start, this.end(name), call.end);
          if (err) this.semantic.push(err);
          return call;
        }
        const end = this.end(name);
        if (name.image === "true") return { type: "literal", value: true, start, end };
        if (name.image === "false") return { type: "literal", value: false, start, end };
        if (name.image === "null") return { type: "literal", value: null, start, end };
        return { type: "ident", name: name.image, start, end };
      });
    });
  }

  return new ExprParser();
}

// Built on first use, like the lexer: the grammar analysis costs ~10 ms at start-up.
let parser: ReturnType<typeof createParser> | undefined;

/**
 * Parses one expression (the text between `${{` and `}}`, or a bare check string). `base` is
 * added to all offsets. Well-formed expressions are read by hand; the grammar reads the rest.
 */
export function parseExpression(src: string, base = 0): { ast?: Expr; errors: ExprError[] } {
  const ast = parseWellFormed(src, base);
  return ast ? { ast, errors: [] } : parseWithGrammar(src, base);
}

/** The full grammar: every expression the hand-written reader (hand-parser.ts) gives up on, and every error. */
export function parseWithGrammar(src: string, base = 0): { ast?: Expr; errors: ExprError[] } {
  const { tokens: toks, errors: lexErrors } = lexer().tokenize(src);
  const bad = lexErrors[0];
  if (bad) {
    const ch = String.fromCodePoint(src.codePointAt(bad.offset) ?? 0);
    const start = base + bad.offset;
    return { errors: [{ kind: "syntax", message: `unexpected character ${JSON.stringify(ch)}`, start, end: start + ch.length }] };
  }
  if (toks.length === 0) {
    return { errors: [{ kind: "syntax", message: "empty expression", start: base, end: base + src.length }] };
  }
  for (const tok of toks) {
    if (tok.tokenType === tokens().UnterminatedString) {
      const start = base + tok.startOffset;
      return { errors: [{ kind: "syntax", message: "unterminated string", start, end: start + 1, hint: `close it with ${tok.image[0]}` }] };
    }
  }
  parser ??= createParser();
  parser.base = base;
  parser.semantic = [];
  parser.input = toks;
  const ast = parser.expression();
  const failure = parser.errors[0];
  if (failure) {
    const tok = failure.token;
    const atEnd = tok.tokenType === chevrotain().EOF || Number.isNaN(tok.startOffset);
    const start = base + (atEnd ? src.length : tok.startOffset);
    const end = atEnd ? start : start + tok.image.length;
    const error: ExprError = { kind: "syntax", message: failure.message, start, end };
    const hint = atEnd ? undefined : operatorHints[tok.image];
    if (hint) error.hint = hint;
    return { errors: [error] };
  }
  const errors = parser.semantic;
  if (errors.some((e) => e.kind === "syntax")) return { errors };
  return { ast, errors };
}
