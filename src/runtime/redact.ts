/**
 * Secret redaction. `Scrubber` holds the secret values of a session (declared secret
 * inputs, the plan's `secrets:`, secret-looking environment variables) with their common
 * encodings, and replaces every occurrence in text and values; the redacting store
 * (redacting-store.ts) applies it to everything a run writes.
 */
import { fingerprint, newSecretSalt, type SecretSalt } from "./fingerprint.js";

/**
 * Names of credentials, as fields and environment variables spell them. Besides the words
 * anywhere: the short forms clients read as a word of the name (`MYSQL_PWD`, `DB_PASS`,
 * `CI_JOB_JWT`, `SENTRY_DSN`), passphrases, connection strings (Azure's
 * `…_CONNECTION_STRING` holds an `AccountKey=`) and webhook URLs (the secret is the path).
 * `PWD` alone is the shell's directory, `PASSENGER_*` or `BYPASS` no word `PASS`.
 */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|WEBHOOK|CONN(?:ECTION)?_?STR|(?:^|_)(?:PASS|JWT|DSN)(?:_|$)|_PWD(?:_|$)/i;
export const REDACTED = "[redacted]";

/**
 * Collects the values of secret-looking environment variables. A guess by name, so only
 * values that look like credentials count: 8 characters or more and not a plain number
 * or boolean (`AUTH_ENABLED=true` must not scrub every "true" from a run's outputs).
 * Under any name, the password of a URL-valued variable counts too.
 */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (SECRET_NAME.test(k) && looksLikeCredential(v)) out.push(v!);
    // DATABASE_URL=postgres://app:<password>@db/…: a credential by its value, whatever the name.
    else pushUrlPasswords(out, v);
  }
  // Longest first so a secret containing another is replaced whole.
  return out.sort((a, b) => b.length - a.length);
}

/** `scheme://user:password@host…`: the password of a URL's userinfo. */
const URL_PASSWORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\s:]*:([^/?#@\s]+)@/;

/** Whether an environment value is a URL with a password in it (`postgres://app:pw@db/prod`). */
export function hasUrlPassword(v: string | undefined): boolean {
  return v !== undefined && URL_PASSWORD.test(v);
}

/**
 * The password of a URL-valued variable, as written and percent-decoded; a password too
 * short to search for alone (it would scrub ordinary words) is searched as the whole value.
 */
function pushUrlPasswords(out: string[], v: string | undefined): void {
  const m = v === undefined ? null : URL_PASSWORD.exec(v);
  if (!m) return;
  const raw = m[1]!;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Not valid percent-encoding: the raw form only.
  }
  for (const pw of new Set([raw, decoded])) out.push(looksLikeCredential(pw) ? pw : v!);
}

/** Whether a value guessed to be a secret is one worth scrubbing: 8+ characters, not a plain number or boolean. */
export function looksLikeCredential(v: string | undefined): boolean {
  return v !== undefined && v.length >= 8 && !/^(\d+|true|false|yes|no)$/i.test(v);
}

/** Whether a field name should have its value hidden. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A deep copy of `value` with secret fields and secret substrings replaced. */
export function redact(value: unknown, secrets: readonly string[]): unknown {
  // No salt: `fields` never fingerprints, and a random one per call (every tool call's event) costs.
  if (secrets.length > 0) return new Scrubber(secrets, { encodings: false, salt: null }).fields(value);
  // Fields by name only (every tool call's event): one scrubber of no secrets serves them all.
  byNameOnly ??= new Scrubber([], { encodings: false, salt: null });
  return byNameOnly.fields(value);
}
let byNameOnly: Scrubber | undefined;

/**
 * The forms a secret is searched in: as is, URL-encoded, JSON-escaped, hex, and base64 /
 * base64url at each of the three byte offsets it can have inside a longer encoded text
 * (`Basic base64(user:secret)`), each cut to the characters the secret alone determines.
 */
function encodings(secret: string): string[] {
  const b = Buffer.from(secret, "utf8");
  const out = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), b.toString("hex"), b.toString("base64"), b.toString("base64url")];
  for (let k = 0; k < 3; k++) {
    const shifted = Buffer.concat([Buffer.alloc(k), b]);
    const from = Math.ceil((8 * k) / 6);
    const to = Math.floor((8 * shifted.length) / 6);
    // A short middle would match ordinary base64 by chance.
    if (to - from < 6) continue;
    for (const enc of ["base64", "base64url"] as const) out.push(shifted.toString(enc).slice(from, to));
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * V8 refuses a case-insensitive literal longer than about 32,000 characters ("Regular expression
 * too large"), which the hex form of a 16 KB secret (a CA bundle, a kubeconfig) already is. A long
 * form is written as runs of at most this many characters joined by an empty group: the same match.
 */
const LITERAL_RUN = 8192;

function literal(form: string): string {
  if (form.length <= LITERAL_RUN) return escapeRe(form);
  const runs: string[] = [];
  for (let i = 0; i < form.length; i += LITERAL_RUN) runs.push(escapeRe(form.slice(i, i + LITERAL_RUN)));
  return runs.join("(?:)");
}

/**
 * The longest secret also searched as an escaped pattern (below): a longer one (a CA
 * bundle) is searched in its fixed forms only, which keeps the pattern one V8 compiles.
 */
const ESCAPED_MAX = 1024;

/** The entity names HTML and XML escapers write (`&#39;` and `&#x27;` come as references). */
const HTML_NAMED: Readonly<Record<string, string>> = { "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" };
const JSON_SHORT: Readonly<Record<string, string>> = { "\n": "n", "\r": "r", "\t": "t", "\b": "b", "\f": "f" };
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/**
 * A secret as encoders write it that escape only some of its characters, in any mix: a
 * URL keeps `/` and `=` of a query value but encodes a space or `"`; Go's JSON writes `<`
 * as `\u003c`, Python's every non-ASCII character, PHP's `/` as `\/`. Each character but
 * a letter or digit matches itself, its UTF-8 percent-encoding, its `\uXXXX` escape, a
 * backslash escape (a space `+` too) and, for a page or fault that quotes it, its HTML/XML
 * character reference (`&#39;`, `&#x27;`) or entity (`&amp;`). Hex digits and letters
 * match in any case (flag `i`).
 */
function escapedPattern(secret: string): string {
  let out = "";
  for (const ch of secret) {
    if (/^[A-Za-z0-9]$/.test(ch)) {
      out += ch;
      continue;
    }
    const alts = [escapeRe(ch), [...Buffer.from(ch, "utf8")].map((b) => `%${hex(b, 2)}`).join(""), `\\\\${JSON_SHORT[ch] ?? escapeRe(ch)}`];
    alts.push([...Array(ch.length).keys()].map((i) => `\\\\u${hex(ch.charCodeAt(i), 4)}`).join(""));
    // Markup (HTML, XML): a character reference, decimal or hex, of any width, or its entity name.
    const cp = ch.codePointAt(0)!;
    alts.push(`&#0*${cp};`, `&#x0*${cp.toString(16)};`);
    if (HTML_NAMED[ch]) alts.push(`&${HTML_NAMED[ch]};`);
    if (ch === " ") alts.push("\\+");
    out += `(?:${alts.join("|")})`;
  }
  return out;
}

/** Whether an escaped pattern of `secret` finds more than its fixed forms: it has a character to escape, and is not too long. */
function needsEscapedPattern(secret: string): boolean {
  return secret.length <= ESCAPED_MAX && /[^A-Za-z0-9]/.test(secret);
}

/**
 * One case-insensitive pattern of every form, escaped patterns and fixed forms; longest first, by the secret's
 * length for a pattern and the form's for a literal, so a secret containing another is
 * replaced whole. Its error would quote the secrets: it says only what failed.
 */
function formsPattern(forms: readonly string[], escaped: readonly string[]): RegExp {
  const alts = [...escaped.map((s) => ({ len: s.length, src: escapedPattern(s) })), ...forms.map((f) => ({ len: f.length, src: literal(f) }))];
  alts.sort((a, b) => b.len - a.len);
  try {
    return new RegExp(alts.map((a) => a.src).join("|"), "gi");
  } catch {
    throw new Error(`the ${forms.length} forms of this session's secrets do not fit one pattern (${forms.reduce((n, f) => n + f.length, 0)} characters)`);
  }
}

/**
 * The bytes of a Node Buffer as JSON writes it (`{ "type": "Buffer", "data": [99, 111, …] }`):
 * what a tool returns when it hands back `execSync(…)` or `readFileSync(p)` without an
 * encoding. The secret's bytes are numbers there, which no text pattern finds.
 */
function bufferBytes(value: object): number[] | undefined {
  const keys = Object.keys(value);
  const data = (value as { data?: unknown }).data;
  if (keys.length !== 2 || !Array.isArray(data)) return undefined;
  for (const b of data) if (!Number.isInteger(b) || (b as number) < 0 || (b as number) > 255) return undefined;
  return data as number[];
}

export class Scrubber {
  /** Every fixed form of every secret the escaped patterns do not find, longest first so a secret containing another is replaced whole. */
  private readonly needles: string[];
  /** The forms as one case-insensitive pattern (an upper-cased key or HEX is still the key). */
  private readonly pattern: RegExp | undefined;
  /** The secret each lower-cased form is a form of (its fingerprint tags it in `tagged`). */
  private readonly secretOf = new Map<string, string>();
  /** The secrets also searched as escaped patterns, each with its pattern for a whole match (which secret `tagged` found). */
  private readonly escaped: Array<{ secret: string; whole: RegExp }>;
  /** The run's salt for those fingerprints. */
  readonly salt: SecretSalt;
  /** Whether encoded forms are searched (false: the secrets as they are). */
  private readonly encodes: boolean;

  /** `opts.salt`: the run's (see fingerprint.ts); a scrubber outside a run gets a salt of its own. */
  constructor(secrets: Iterable<string>, opts: { encodings?: boolean; salt?: SecretSalt } = {}) {
    this.salt = opts.salt === undefined ? newSecretSalt() : opts.salt;
    this.encodes = opts.encodings !== false;
    const set = new Set<string>();
    const escaped = new Map<string, RegExp>();
    for (const s of secrets) {
      if (s === "") continue;
      const whole = opts.encodings !== false && needsEscapedPattern(s) ? new RegExp(`^(?:${escapedPattern(s)})$`, "i") : undefined;
      if (whole) escaped.set(s, whole);
      for (const form of opts.encodings === false ? [s] : encodings(s)) {
        // An encoding shorter than 4 characters would scrub ordinary text.
        if (form === s || form.length >= 4) {
          // A form the escaped pattern finds (as is, URL-encoded, JSON-escaped) needs no literal of its own.
          if (!whole?.test(form)) set.add(form);
          if (!this.secretOf.has(form.toLowerCase())) this.secretOf.set(form.toLowerCase(), s);
        }
      }
    }
    this.escaped = [...escaped].map(([secret, whole]) => ({ secret, whole }));
    this.needles = [...set].sort((a, b) => b.length - a.length);
    this.pattern = this.needles.length + this.escaped.length > 0 ? formsPattern(this.needles, this.escaped.map((e) => e.secret)) : undefined;
  }

  get empty(): boolean {
    return this.pattern === undefined;
  }

  /** Built on the first cut (`cutClean`), never for a scrubber that cuts nothing (those of tool-call events). */
  private starts: SecretStarts | undefined;

  /** Where a trailing piece of `text` that could begin one of its secrets (in a form it searches) starts; `text.length` when none. */
  secretStart(text: string): number {
    this.starts ??= new SecretStarts(new Set([...this.secretOf.values(), ...this.escaped.map((e) => e.secret)]), this.encodes);
    return this.starts.start(text);
  }

  /** `text` with every secret (in any of its forms, in any case) replaced by `[redacted]`. */
  text(text: string): string {
    return this.pattern ? text.replace(this.pattern, REDACTED) : text;
  }

  /**
   * `text` with each secret replaced by its fingerprint: distinct secrets stay distinct
   * (idempotency keys). Fingerprints are computed here, not up front: scrypt is paid only
   * for secrets that reach a key, not for every secret-looking variable of the environment.
   */
  tagged(text: string): string {
    if (!this.pattern) return text;
    return text.replace(this.pattern, (m) => {
      const secret = this.secretOf.get(m.toLowerCase()) ?? this.escaped.find((e) => e.whole.test(m))?.secret;
      return secret === undefined ? REDACTED : `[secret ${fingerprint(secret, this.salt)}]`;
    });
  }

  /** A deep copy of `value` with secrets replaced in every string (keys included); other values kept. */
  value(value: unknown): unknown {
    if (this.empty) return value;
    return this.walk(value, false);
  }

  /** Like `value`, and fields whose names look secret (`token`, `api_key`) are hidden whole (event data). */
  fields(value: unknown): unknown {
    return this.walk(value, true);
  }

  /** A Buffer's JSON with its bytes scrubbed as UTF-8 text; unchanged (a copy) when no secret is in them. */
  private buffer(bytes: number[]): unknown {
    const text = Buffer.from(bytes).toString("utf8");
    const clean = this.text(text);
    return { type: "Buffer", data: clean === text ? [...bytes] : [...Buffer.from(clean, "utf8")] };
  }

  private walk(value: unknown, byName: boolean): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v, byName));
    if (value !== null && typeof value === "object") {
      if ((value as { type?: unknown }).type === "Buffer") {
        const bytes = bufferBytes(value);
        if (bytes !== undefined) return this.buffer(bytes);
      }
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        // defineProperty: a "__proto__" key from parsed JSON stays a key, not a prototype.
        Object.defineProperty(out, this.text(k), { value: byName && isSecretName(k) ? REDACTED : this.walk(v, byName), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return value;
  }
}

/** The alternatives `escapedPattern` allows for each character of `secret`, lower-cased (fixed strings; `&#0…` padding aside). */
function escapedAlternatives(secret: string): string[][] {
  const out: string[][] = [];
  for (const ch of secret) {
    if (/^[A-Za-z0-9]$/.test(ch)) {
      out.push([ch.toLowerCase()]);
      continue;
    }
    const cp = ch.codePointAt(0)!;
    const alts = [ch, [...Buffer.from(ch, "utf8")].map((b) => `%${hex(b, 2)}`).join(""), `\\${JSON_SHORT[ch] ?? ch}`, [...Array(ch.length).keys()].map((i) => `\\u${hex(ch.charCodeAt(i), 4)}`).join(""), `&#${cp};`, `&#x${cp.toString(16)};`];
    if (HTML_NAMED[ch]) alts.push(`&${HTML_NAMED[ch]};`);
    if (ch === " ") alts.push("+");
    out.push(alts.map((a) => a.toLowerCase()));
  }
  return out;
}

/** Whether `n` characters of `text` from `at` on (all the rest by default) equal `form`'s first (case-insensitively: the scrubber's pattern is). */
function beginsAt(text: string, at: number, form: string, n = text.length - at): boolean {
  for (let i = 0; i < n; i++) {
    const a = text[at + i]!;
    const b = form[i]!;
    if (a !== b && a.toLowerCase() !== b) return false;
  }
  return true;
}

/**
 * The beginnings of a set of secrets, in every form the scrubber searches: where a text
 * ends with a piece that a secret could continue. Of any length: a cut already loses the
 * text after it, so dropping a few characters more that merely look like a secret's start
 * costs little, while a minimum of 4 would leave 3 characters of an 8-character password.
 */
class SecretStarts {
  /** Fixed forms, lower-cased, each with its prefix function (Knuth–Morris–Pratt): a text's end is matched in linear time. */
  private readonly forms: Array<{ form: string; fail: Int32Array }> = [];
  /** Per secret with characters an encoder escapes: each character's alternatives. */
  private readonly escaped: string[][][] = [];
  private readonly longest: number;

  constructor(secrets: Iterable<string>, encoded: boolean) {
    let longest = 0;
    for (const s of secrets) {
      for (const form of encoded ? encodings(s) : [s]) {
        if (form !== s && form.length < 4) continue;
        const lower = form.toLowerCase();
        this.forms.push({ form: lower, fail: prefixFunction(lower) });
        longest = Math.max(longest, form.length);
      }
      if (encoded && needsEscapedPattern(s)) {
        const alts = escapedAlternatives(s);
        this.escaped.push(alts);
        longest = Math.max(longest, alts.reduce((n, a) => n + Math.max(...a.map((x) => x.length)), 0));
      }
    }
    this.longest = longest;
  }

  start(text: string): number {
    let end = text.length;
    // The longest end of the text that begins a fixed form (shorter than the form: a whole one is the scrubber's).
    for (const { form, fail } of this.forms) {
      const from = Math.max(0, text.length - form.length + 1);
      let q = 0;
      for (let i = from; i < text.length; i++) {
        const c = text[i]!.toLowerCase();
        while (q > 0 && form[q] !== c) q = fail[q - 1]!;
        if (form[q] === c) q++;
        if (q === form.length) q = fail[q - 1]!;
      }
      if (q > 0) end = Math.min(end, text.length - q);
    }
    for (let k = Math.max(0, text.length - this.longest + 1); k < end; k++) {
      if (this.escaped.some((alts) => escapedBegins(text, k, alts, 0))) return k;
    }
    return end;
  }
}

/** The prefix function of `p`: for each i, the length of the longest proper prefix of p[0..i] that is also its suffix. */
function prefixFunction(p: string): Int32Array {
  const fail = new Int32Array(p.length);
  for (let i = 1, k = 0; i < p.length; i++) {
    while (k > 0 && p[i] !== p[k]) k = fail[k - 1]!;
    if (p[i] === p[k]) k++;
    fail[i] = k;
  }
  return fail;
}

/** Whether `text` from `at` on is a proper beginning of a match of a secret's escaped pattern, from its character `i` on. */
function escapedBegins(text: string, at: number, alts: readonly string[][], i: number): boolean {
  if (at === text.length) return i < alts.length;
  if (i === alts.length) return false;
  for (const a of alts[i]!) {
    if (text.length - at < a.length) {
      if (beginsAt(text, at, a)) return true;
    } else if (beginsAt(text, at, a, a.length) && escapedBegins(text, at + a.length, alts, i + 1)) return true;
  }
  return false;
}

/** The scrubbers of the sessions running in this process (`withSessionSecrets`): what `cutClean` keeps clear of. */
const sessions = new Set<Scrubber>();

/** Runs `body` with `scrub` among the sessions' scrubbers `cutClean` consults. */
export async function withSessionSecrets<T>(scrub: Scrubber, body: () => Promise<T>): Promise<T> {
  if (scrub.empty || sessions.has(scrub)) return body();
  sessions.add(scrub);
  try {
    return await body();
  } finally {
    sessions.delete(scrub);
  }
}

/**
 * `text` cut to at most `max` characters with no piece of a secret left at its end, for
 * every place that cuts a value it quotes or keeps (exec's capture, a message quoting a
 * path or an input): cut exactly (not inside a surrogate pair), then the trailing piece that
 * could begin a secret is dropped as well. A secret cut in two is a piece the scrubber
 * cannot recognise later; whole secrets before the cut are the scrubber's. The secrets are
 * those of the sessions running in this process and the process environment's
 * secret-looking variables (`secretValues`; a message made before any session, as an input
 * error, knows only those). `more`: `text` is already the beginning of a longer text.
 */
export function cutClean(text: string, max: number, more = false): string {
  if (text.length <= max && !more) return text;
  let cut = text.length > max ? text.slice(0, max) : text;
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  let end = new SecretStarts(secretValues(process.env), true).start(cut);
  for (const s of sessions) end = Math.min(end, s.secretStart(cut));
  return cut.slice(0, end);
}
