/**
 * What an approval approves: a hash of what the step will do — its definition, tool,
 * evaluated `with`, idempotency key, the inputs it reads, the results of the steps it
 * consumes, what the plan hands its calls (catalogue entries, MCP servers, `secrets:`), and
 * the content of the code they run (tool modules, MCP server programs). `approve` records it with the decision; the gate recomputes it before the
 * call, and a decision whose binding differs (new inputs, a revision, a resume with
 * `--input`) is void: the run asks again.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import type { IRNode, PlanIR, Value } from "../ir.js";
import { canonicalJson, sha256 } from "../compiler/canonical.js";
import { evaluateValue, type EvalEnv } from "../compiler/expr/index.js";
import { fingerprint, type SecretSalt } from "./fingerprint.js";
import { evaluateKey } from "./keys.js";
import type { RunState } from "./store.js";

const INPUT_REF = /\binputs\s*\.\s*([A-Za-z_][\w-]*)|\binputs\s*\[\s*\\?["']([^"'\\]+)/g;

/** The inputs a node's expressions mention; undefined when it reads them in a way a name cannot be seen (all count). */
export function inputsRead(node: IRNode): Set<string> | undefined {
  const text = JSON.stringify([node.with, node.when, node.idempotencyKey, node.forEach, node.repeat, node.success]);
  const refs = [...text.matchAll(INPUT_REF)];
  // `inputs[name]` with a computed name, or `inputs` passed whole: every input counts.
  if ((text.match(/\binputs\b/g)?.length ?? 0) > refs.length) return undefined;
  return new Set(refs.map((m) => m[1] ?? m[2] ?? ""));
}

function attempt<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    // A `with` that needs `item` (for_each) is bound through its definition and inputs.
    return null;
  }
}

/**
 * What the plan around a step hands its calls: the catalogue entries of the tools it may
 * call, the MCP servers behind them (command, args, env, url, headers), and the names the
 * plan lists in `secrets:` (programs and servers get those variables). A revision that
 * changes any of them changes what an approved call does, though no step changed.
 */
function callContext(plan: PlanIR, node: IRNode): unknown {
  const tools = Object.fromEntries(node.allowedTools.map((t) => [t, plan.tools[t] ?? null]));
  const servers = Object.fromEntries(
    node.allowedTools.flatMap((t) => {
      const server = t.slice(0, Math.max(0, t.indexOf(".")));
      return server && plan.mcp && Object.hasOwn(plan.mcp, server) ? [[server, plan.mcp[server]]] : [];
    }),
  );
  return { tools, servers, secrets: [...(plan.secrets ?? [])].sort() };
}

/** The most words of a step's arguments looked at as file names, and the largest file digested. */
const NAMED_MAX = 256;
const NAMED_FILE_MAX = 16 << 20;

/**
 * Files of the workspace a step's evaluated arguments name (`sh ./deploy.sh`, `args:
 * [migrate.sql]`, `path: payload.json`), each by its content: what the call runs, applies or
 * sends is in them, not in its arguments; and the files such a file sources (`. ./lib.sh`), one level
 * down, resolved as its words are. A word counts when it is a regular file inside
 * the workspace (by its real path); others are left out (a file made later is not named by
 * an approval given before it existed, and is not what was approved: the binding then differs).
 */
export function namedFiles(args: unknown, workspace: string, sourcedNames?: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return out;
  }
  const words: string[] = [];
  const stack = [args];
  while (stack.length > 0 && words.length < NAMED_MAX) {
    const v = stack.pop();
    if (typeof v === "string") pushWords(words, v);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) stack.push(x);
  }
  // A program's words are relative to its start directory (`exec`'s `cwd`), else to the workspace.
  const cwd = args !== null && typeof args === "object" && typeof (args as { cwd?: unknown }).cwd === "string" ? resolve(root, (args as { cwd: string }).cwd) : root;
  const bases = cwd === root ? [root] : [cwd, root];
  // The files a named script sources (`. ./lib.sh`, `source lib.sh`), one level down: what it runs is in them too.
  const sourced: string[] = [];
  for (const [list, deeper] of [[words.slice(0, NAMED_MAX), true], [sourced, false]] as const) {
    for (const w of list) {
      for (const base of bases) {
        try {
          const real = realpathSync(resolve(base, w));
          const rel = relative(root, real);
          if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) || Object.hasOwn(out, rel)) continue;
          const st = statSync(real);
          if (!st.isFile()) continue;
          if (st.size > NAMED_FILE_MAX) {
            out[rel] = statBinding(st);
            continue;
          }
          const bytes = readFileSync(real);
          // Bytes, not text: a binary's changed bytes could decode to the same replacement characters.
          out[rel] = createHash("sha256").update(bytes).digest("hex");
          if (!deeper || st.size > SOURCING_MAX || sourced.length >= NAMED_MAX) continue;
          for (const m of bytes.toString("utf8").matchAll(SOURCES)) {
            sourced.push(m[2]!);
            // A name without a slash is looked up through PATH first (sh, bash): `namedPrograms` binds what it finds there.
            if (!m[2]!.includes("/")) sourcedNames?.push(m[2]!);
          }
        } catch {
          // Not a file of the workspace.
        }
      }
    }
  }
  return out;
}

/** The largest named file read for the files it sources. */
const SOURCING_MAX = 1 << 20;

/**
 * A shell's `.` or `source` of a file named as it is (quoted or not), where a command starts: a line's start, after
 * `;`, `&`, `|`, `(`, `{`, `then`, `do`, `else`. A name built from variables (`. "$DIR/lib.sh"`) is not read.
 */
const SOURCES = /(?:^|[;&|({]|\b(?:then|do|else))[ \t]*(?:\.|source)[ \t]+(["']?)([^\s"'`$;&|()<>]+)\1(?=[\s;&|)]|$)/gm;

/**
 * Programs up to this size are bound by their content (kubectl, 50 MB, and node, 100 MB,
 * are hashed in ≈ 0.1–0.2 s); a larger one by `statBinding`.
 */
const PROGRAM_DIGEST_MAX = 256 << 20;

/**
 * A file bound without its content: its size and its modification and change times. The
 * change time too: the owner can set a file's modification time back (`touch -r`) after a
 * rewrite of the same size, not its change time, which every write and rename moves.
 */
function statBinding(st: Stats): string {
  return `size ${st.size} mtime ${st.mtimeMs} ctime ${st.ctimeMs}`;
}

/** The sha256 of a file's bytes, read a MiB at a time. */
function fileDigest(file: string): string {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, "r");
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/**
 * The programs a step's command runs: each word of its `command` and
 * `args` that names an executable file, a bare word through the PATH the program gets
 * (`env.PATH` of its arguments, else `path`, the session's), a word with a slash from its
 * start directory; each by its real path and content (by size and modification time past
 * PROGRAM_DIGEST_MAX). Every word, not only the first: a command position is not known
 * without a shell's reading (`sh -c 'kubectl …'`, `env kubectl`, `timeout 5 kubectl`,
 * `xargs kubectl`), and a word no program is named by binds nothing (a PATH that makes it
 * one differs). The interpreter a found script's `#!` line names counts too (`#!/usr/bin/env
 * bash` through PATH). A program inside the workspace counts too (`PATH=./bin:…`): `namedFiles`
 * binds only the words it names from the start directory.
 */
export function namedPrograms(args: unknown, workspace: string, path: string | undefined, sourced: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  if (args === null || typeof args !== "object") return out;
  const a = args as { command?: unknown; args?: unknown; cwd?: unknown; env?: unknown };
  const words: string[] = [];
  if (typeof a.command === "string") pushWords(words, a.command);
  if (Array.isArray(a.args)) for (const x of a.args.slice(0, NAMED_MAX)) if (typeof x === "string") pushWords(words, x);
  if (words.length === 0 && sourced.length === 0) return out;
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return out;
  }
  const cwd = typeof a.cwd === "string" ? resolve(root, a.cwd) : root;
  // The PATH the program gets: its own `env.PATH`, else the session's (an empty entry is the start directory, as for the shell).
  const own = a.env !== null && typeof a.env === "object" ? (a.env as Record<string, unknown>).PATH : undefined;
  const dirs = (typeof own === "string" ? own : (path ?? "")).split(":").map((d) => resolve(cwd, d));
  const onPath = (name: string, executable = true) => dirs.reduce<[string, string] | undefined>((hit, d) => hit ?? program(resolve(d, name), executable), undefined);
  const reals: string[] = [];
  for (const w of words.slice(0, NAMED_MAX)) {
    if (w.startsWith("-") || Object.hasOwn(out, w)) continue;
    const found = w.includes("/") ? program(resolve(cwd, w)) : onPath(w);
    if (found === undefined) continue;
    out[w] = found[1];
    reals.push(found[0]);
  }
  // The interpreter a found script's `#!` line names (`#!/usr/bin/env bash` looks bash up through PATH), one level.
  for (const real of reals) {
    const line = firstLine(real);
    const m = line === undefined ? null : /^#!\s*(\S+)(.*)$/.exec(line);
    if (!m) continue;
    const name = basename(m[1]!) === "env" ? m[2]!.trim().split(/\s+/).find((x) => x !== "" && !x.startsWith("-") && !x.includes("=")) : undefined;
    const found = name !== undefined ? onPath(name) : program(m[1]!);
    if (found !== undefined) out[`#! ${name ?? m[1]}`] = found[1];
  }
  // Files a named script sources by a bare name (`. lib.sh`): the shell reads the first one on PATH, executable or not.
  for (const w of sourced.slice(0, NAMED_MAX)) {
    const found = onPath(w, false);
    if (found !== undefined) out[`source ${w}`] = found[1];
  }
  return out;
}

/** The shell Node starts `exec`'s command line with (`spawn(…, { shell: true })`: `/bin/sh` by its path), when it has no `args`. */
export const EXEC_SHELL = "/bin/sh";

/** `exec`'s shell as a bound program (`"shell /bin/sh": "<real path> <sha256>"`) when the step's command line goes through it; else nothing. */
export function execShell(node: Pick<IRNode, "tool">, args: unknown): Record<string, string> {
  if (node.tool !== "exec" || args === null || typeof args !== "object") return {};
  const a = args as { command?: unknown; args?: unknown };
  if (typeof a.command !== "string" || Array.isArray(a.args)) return {};
  const found = program(EXEC_SHELL);
  return found === undefined ? {} : { [`shell ${EXEC_SHELL}`]: found[1] };
}

/** The first line of `file` (its first 256 bytes), or undefined. */
function firstLine(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, 256, 0);
    return buf.subarray(0, n).toString("latin1").split("\n")[0];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The real path and binding of one program file: `<real path> <sha256>` (or `statBinding`'s); undefined when `file` is no regular file, or not executable when `executable` (a sourced file need not be). */
function program(file: string, executable = true): [real: string, binding: string] | undefined {
  try {
    // Most words name nothing on most PATH entries: no exception for those (256 words × 12 entries took 160 ms with one each).
    const st = statSync(file, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile() || (executable && (st.mode & 0o111) === 0)) return undefined;
    const real = realpathSync(file);
    return [real, `${real} ${st.size > PROGRAM_DIGEST_MAX ? statBinding(st) : fileDigest(real)}`];
  } catch {
    return undefined;
  }
}

/** The words of a command line or value that could name a file: split at spaces, quotes, `=` and shell operators. */
function pushWords(words: string[], text: string): void {
  for (const w of text.split(/[\s'"`=,;|&<>()]+/)) if (w !== "" && w !== "." && w.length < 4096 && !w.includes("\0")) words.push(w);
}

/**
 * The environment variables that change what a program does without a word of its command
 * changing: files a shell runs first (`BASH_ENV`, `ENV`), its options and functions
 * (`SHELLOPTS`, `BASH_FUNC_name%%`), libraries the loader puts in (`LD_*`, `DYLD_*`,
 * `GCONV_PATH`), code an interpreter loads first or finds modules in (node, Python, Perl, Ruby,
 * Java), where a client goes and whose keys it trusts (kubectl, docker, git, the clouds,
 * terraform, proxies, CA files). PATH is bound through the programs it finds (`namedPrograms`).
 */
export const BOUND_VARIABLES: readonly string[] = [
  "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "IFS", "CDPATH", "GLOBIGNORE",
  "GCONV_PATH",
  "NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED",
  "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONWARNINGS", "PYTHONBREAKPOINT", "PYTHONINSPECT",
  "PERL5LIB", "PERLLIB", "PERL5OPT", "PERL5DB",
  "RUBYOPT", "RUBYLIB", "GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE",
  "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
  "KUBECONFIG", "DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG",
  "AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_ENDPOINT_URL", "CLOUDSDK_CONFIG", "CLOUDSDK_CORE_PROJECT", "AZURE_CONFIG_DIR",
  "TF_CLI_CONFIG_FILE",
  "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy",
  "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
];
/** Whole families: exported bash functions, the loaders' variables, git's (`GIT_SSH_COMMAND`, `GIT_CONFIG_*`, `GIT_EXEC_PATH`…), terraform's extra arguments. */
export const BOUND_PREFIXES: readonly string[] = ["BASH_FUNC_", "LD_", "DYLD_", "GIT_", "TF_CLI_ARGS"];
const BOUND_SET = new Set(BOUND_VARIABLES);

/**
 * The variables of the bound list as a program gets them: `programEnv`'s (the session's
 * environment less the operator's credentials), under the step's own `env`.
 */
export function boundVariables(session: Readonly<Record<string, string>>, own?: unknown): Record<string, string> {
  const merged: Record<string, unknown> = { ...session, ...(own !== null && typeof own === "object" ? (own as Record<string, unknown>) : {}) };
  const out: Record<string, string> = {};
  for (const name of Object.keys(merged).sort()) {
    const v = merged[name];
    if (typeof v !== "string" || !(BOUND_SET.has(name) || BOUND_PREFIXES.some((p) => name.startsWith(p)))) continue;
    out[name] = v;
  }
  return out;
}

/** The most pieces of the bound values looked at as file names. */
const VARIABLE_FILES_MAX = 64;

/**
 * The files the bound values name by an absolute path (`BASH_ENV=/home/op/.bashenv`,
 * `KUBECONFIG=/a:/b`, `NODE_OPTIONS=--require /x/hook.cjs`: pieces between spaces, `:` and
 * `=`), each by content (`statBinding` past PROGRAM_DIGEST_MAX): the same value
 * naming a rewritten file is not what was approved.
 */
function variableFiles(vars: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const v of Object.values(vars)) {
    for (const piece of v.split(/[\s:=]+/)) {
      if (!piece.startsWith("/") || Object.hasOwn(out, piece) || piece.includes("\0") || piece.length >= 4096) continue;
      if (++n > VARIABLE_FILES_MAX) return out;
      const found = program(piece, false);
      if (found !== undefined) out[piece] = found[1];
    }
  }
  return out;
}

/** What programs a step starts get, for its binding: `programEnv(plan, …)` and the run's salt (the bound values are fingerprinted under it). */
export interface ProgramContext {
  env: Readonly<Record<string, string>>;
  salt: SecretSalt;
}

/**
 * The binding of `node` of `plan` in `env` (the environment its call would be evaluated in), under the run's `code`
 * digest (code.ts); with `workspace`, also the content of the workspace files its arguments name (`namedFiles`) and
 * of the programs outside it their command's words resolve to through the PATH its programs get (`namedPrograms`); with
 * `programs`, also the values of the bound variables (`boundVariables`) as one fingerprint under the run's salt: a value
 * may be a credential (`GIT_CONFIG_VALUE_0=Authorization: …`), and the binding is written to the run's events.
 */
export function actionBinding(plan: PlanIR, node: IRNode, env: EvalEnv, state: RunState, code?: string, workspace?: string, programs?: ProgramContext): string {
  const path = programs?.env.PATH;
  const { span: _span, ...definition } = node;
  const read = inputsRead(node);
  const inputs = Object.fromEntries(Object.entries(state.inputs).filter(([k]) => read === undefined || read.has(k)));
  const upstream = Object.fromEntries(node.consumes.map((id) => [id, state.nodes[id]?.outputHash ?? null]));
  const args = node.with ? attempt(() => evaluateValue(node.with as Value, env)) : null;
  const key = attempt(() => evaluateKey(node, env) ?? null);
  const sourced: string[] = [];
  const files = workspace === undefined ? {} : namedFiles(args, workspace, sourced);
  const named = workspace === undefined ? {} : { ...namedPrograms(args, workspace, path, sourced), ...execShell(node, args) };
  // Only for `exec`, the tool that starts the programs they steer: a tool module runs in planspec's own process,
  // whose environment took effect before any check (and binding it voided every approval given from another shell).
  const vars = programs === undefined || node.tool !== "exec" ? {} : boundVariables(programs.env, args !== null && typeof args === "object" ? (args as { env?: unknown }).env : undefined);
  // Only when some file, program or bound variable is there: a binding without them stays what older planspecs recorded.
  return sha256(
    canonicalJson({
      definition,
      tool: node.tool ?? null,
      args,
      key,
      inputs,
      upstream,
      context: callContext(plan, node),
      code: code ?? null,
      ...(Object.keys(files).length > 0 ? { files } : {}),
      ...(Object.keys(named).length > 0 ? { programs: named } : {}),
      ...(Object.keys(vars).length > 0 ? { environment: fingerprint(canonicalJson({ values: vars, files: variableFiles(vars) }), programs!.salt) } : {}),
    }),
  );
}

/**
 * What a session's approvals are bound to besides each step: its code (code.ts) and the
 * values of the plan's `secrets:`, which its calls read (a URL, a key, a target) and its
 * programs get, though `approve` sees none of them. A resume with other values (another
 * webhook, another account's key) is not what was approved. The values count as one
 * fingerprint under the run's salt (scrypt, about 30 ms: this digest is in the session's
 * first event), paid only by a session with a `gated` step still to run (an approval to ask
 * for or to check) in a plan that lists secrets; the session that asks is such a session.
 */
export function sessionBinding(code: string, secrets: Readonly<Record<string, string>>, salt: SecretSalt, gated: boolean): string {
  const names = Object.keys(secrets).sort();
  if (names.length === 0 || !gated) return code;
  return sha256(`${code}\n${fingerprint(canonicalJson(Object.fromEntries(names.map((n) => [n, secrets[n]!]))), salt)}`);
}
