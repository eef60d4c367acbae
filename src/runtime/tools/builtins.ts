/**
 * The built-in tools. Risks: reading the workspace is `read`; writing it, or running a
 * program (`exec`, which can do anything a shell can in the workspace), is `write`;
 * talking to the network (`http.request`, whatever the method) is `external`.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { parseCsv, toRecords } from "./csv.js";
import { killTree, processMark } from "./process-tree.js";
import { llmComplete } from "./llm.js";
import { ToolError, type ToolContext, type ToolImpl } from "./types.js";
import { type Confinement, confinedDir, listConfined, readConfined, tooLarge, writeConfined } from "./workspace.js";
import { fillTemplate } from "../../util/template.js";
import { programEnv } from "../secrets.js";
import { cutClean } from "../redact.js";

const MAX_CAPTURE = 1 << 20;

function str(args: Record<string, unknown>, name: string, tool: string): string {
  const v = args[name];
  if (typeof v !== "string") throw new ToolError(`${tool}: argument "${name}" must be a string`);
  return v;
}

const fsRead: ToolImpl = {
  risk: "read",
  description: "Read a text file in the workspace: { path } -> { path, content, bytes }",
  async run(args, ctx) {
    const content = await readConfined(confinement(ctx), args.path, ctx.signal, ctx.maxOutputBytes);
    return { path: str(args, "path", "fs.read"), content, bytes: Buffer.byteLength(content) };
  },
};

/** Where a step's fs built-ins may go: its workspace without the run records inside it. */
function confinement(ctx: ToolContext): Confinement {
  return { workspace: ctx.workspace, ...(ctx.guarded ? { guarded: ctx.guarded } : {}) };
}

const fsList: ToolImpl = {
  risk: "read",
  description: "List a directory in the workspace: { path? } -> { path, entries: [{ name, type }] }",
  async run(args, ctx) {
    const path = typeof args.path === "string" ? args.path : ".";
    const entries = (await listConfined(confinement(ctx), path))
      .map((e) => ({ name: e.name, type: e.isDirectory() ? "dir" : e.isFile() ? "file" : "other" }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { path, entries };
  },
};

const fsWrite: ToolImpl = {
  risk: "write",
  description: "Write (or append to) a file in the workspace: { path, content, append? } -> { path, bytes }",
  async run(args, ctx) {
    const content = typeof args.content === "string" ? args.content : JSON.stringify(args.content ?? null, null, 2);
    const path = await writeConfined(confinement(ctx), args.path, content, args.append === true);
    return { path, bytes: Buffer.byteLength(content) };
  },
};

const csvRead: ToolImpl = {
  risk: "read",
  description: "Read a CSV file (RFC 4180, first row is the header): { path, delimiter? } -> { path, header, rows, records }",
  async run(args, ctx) {
    const text = await readConfined(confinement(ctx), args.path, ctx.signal, ctx.maxOutputBytes);
    const delimiter = typeof args.delimiter === "string" ? args.delimiter : ",";
    let parsed: ReturnType<typeof toRecords>;
    try {
      parsed = toRecords(parseCsv(text, delimiter));
    } catch (err) {
      throw new ToolError(`csv.read: ${(err as Error).message}`);
    }
    return { path: str(args, "path", "csv.read"), header: parsed.header, rows: parsed.records.length, records: parsed.records };
  },
};

const exec: ToolImpl = {
  risk: "write",
  description: "Run a program in the workspace: { command, args?, cwd?, env? } -> { exitCode, stdout, stderr }; without args the command goes through the shell",
  async run(args, ctx: ToolContext) {
    const command = str(args, "command", "exec");
    const argv = Array.isArray(args.args) ? args.args.map(String) : undefined;
    // The program can reach anything a shell can (hence risk write); its start directory is still checked.
    const cwd = await confinedDir(confinement(ctx), typeof args.cwd === "string" ? args.cwd : ".");
    // The operator's credentials stay out unless the plan lists them (or passes one in `env`).
    const env = { ...(ctx.env ?? programEnv(undefined, process.env)), ...((args.env as Record<string, string> | undefined) ?? {}) };
    // Every process the program starts inherits the mark, also one that leaves the tree (a daemon).
    const mark = processMark();
    env[mark.name] = "1";
    const signal = ctx.signal;
    return new Promise((resolve, reject) => {
      const child = spawn(command, argv ?? [], { cwd, env, shell: argv === undefined, stdio: ["ignore", "pipe", "pipe"] });
      // A timeout or the run's end kills the program and everything it started, at once: a SIGTERM to
      // the shell alone left a script that ignores it (or its curl) to do its effect after the step had
      // failed as timed out, and beside the retry; a daemon (setsid and a fork) it started, after the run had ended.
      const onAbort = () => killTree(child.pid, mark);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      child.on("exit", () => signal.removeEventListener("abort", onAbort));
      // Decoded across chunks: a character cut between two (one of a secret's) is not two U+FFFDs the scrubber cannot match.
      child.stdout.setEncoding("utf8");
      child.stderr.setEncoding("utf8");
      const stdout = capture(child.stdout);
      const stderr = capture(child.stderr);
      child.on("error", (err) => reject(signal.aborted ? signal.reason : new ToolError(`exec: ${err.message}`)));
      child.on("close", (code, sig) => resolve({ exitCode: code ?? (sig ? 128 : 1), stdout: stdout(), stderr: stderr() }));
    });
  },
};

/**
 * A program's output, kept up to MAX_CAPTURE characters: cut there exactly, not after the
 * pipe chunk that crosses it, and without a trailing piece of a secret (`cutClean`): a
 * secret across the cut would otherwise leave its first characters, which the scrubber
 * cannot recognise as a secret's.
 */
function capture(stream: NodeJS.ReadableStream): () => string {
  let text = "";
  let more = false;
  stream.on("data", (d: string) => {
    if (text.length <= MAX_CAPTURE) text += d;
    else more = true;
  });
  return () => (more || text.length > MAX_CAPTURE ? cutClean(text, MAX_CAPTURE, true) : text);
}

const httpRequest: ToolImpl = {
  risk: "external",
  description: "An HTTP request: { url, method?, headers?, body? } -> { status, headers, body } (body parsed when JSON)",
  async run(args, ctx) {
    const url = str(args, "url", "http.request");
    const method = typeof args.method === "string" ? args.method.toUpperCase() : "GET";
    const headers = { ...((args.headers as Record<string, string> | undefined) ?? {}) };
    // The step's key goes with the call, as an MCP call's `_meta` does: an API that dedupes by it
    // (Stripe, the IETF Idempotency-Key header) applies a retried or re-run request once.
    if (ctx.idempotencyKey !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "idempotency-key")) {
      headers["idempotency-key"] = headerKey(ctx.idempotencyKey);
    }
    let body: string | undefined;
    if (args.body !== undefined && args.body !== null) {
      body = typeof args.body === "string" ? args.body : JSON.stringify(args.body);
      if (typeof args.body !== "string" && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
        headers["content-type"] = "application/json";
      }
    }
    const res = await fetchWithinOrigin(url, { method, headers, body, signal: ctx.signal });
    const text = await bodyText(res, url, ctx.maxOutputBytes);
    let parsed: unknown = text;
    if ((res.headers.get("content-type") ?? "").includes("json")) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Keep the text.
      }
    }
    return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: parsed };
  },
};

/**
 * A key as a header value: its sha256, always a valid value (64 characters, under Stripe's
 * 255) and the same for the same key, and saying nothing of what the key was built from
 * (an input, a secret) to the host it goes to.
 */
function headerKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/**
 * fetch, following redirects only within the request's origin (or from http to https on
 * the same host). fetch itself follows any redirect, dropping only `Authorization` and
 * `Cookie` on the way to another origin: every other header (an API key from `secrets:`)
 * and, for 307/308, the body went to a host nobody approved, and a redirect to a metadata
 * address made its answer the step's output. A redirect elsewhere comes back as the
 * result (its status and `location`) for the plan to decide on.
 */
async function fetchWithinOrigin(url: string, init: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal }): Promise<Response> {
  let current = new URL(url);
  let { method, body } = init;
  const headers = { ...init.headers };
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { method, headers, body, signal: init.signal, redirect: "manual" });
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || location === null) return res;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return res;
    }
    if (!sameOrigin(current, next)) return res;
    if (hop >= MAX_REDIRECTS) throw new ToolError(`http.request: more than ${MAX_REDIRECTS} redirects from ${url}`);
    await res.body?.cancel();
    // As fetch does: 303, and 301/302 after a POST, go on as a GET without the body.
    if ((res.status === 303 && method !== "GET" && method !== "HEAD") || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      for (const h of Object.keys(headers)) if (/^content-(type|encoding|language|location)$/i.test(h)) delete headers[h];
    }
    current = next;
  }
}

/** The same origin, or the same host going from http to https (its default ports). */
function sameOrigin(from: URL, to: URL): boolean {
  if (from.origin === to.origin) return true;
  return from.protocol === "http:" && to.protocol === "https:" && from.hostname === to.hostname && from.port === "" && to.port === "";
}

/** A response body as text, refused (and the connection dropped) as soon as it passes `max` bytes. */
async function bodyText(res: Response, url: string, max = Infinity): Promise<string> {
  if (!res.body) return "";
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop by the throw cancels the stream.
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > max) throw new ToolError(tooLarge(`the response body of ${url}`, max));
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}

function lookup(values: unknown, path: string): unknown {
  let cur = values;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Fills `{{ name }}` / `{{ a.b }}` placeholders; objects render as JSON, missing names as "". */
export function renderTemplate(template: string, values: unknown): string {
  return fillTemplate(template, (name) => {
    const v = lookup(values, name);
    if (v === undefined || v === null) return "";
    return typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v, null, 2) : String(v);
  });
}

const templateRender: ToolImpl = {
  risk: "read",
  description: "Fill {{name}} placeholders: { template | path, values } -> the rendered string",
  async run(args, ctx) {
    let template: string;
    if (typeof args.template === "string") template = args.template;
    else if (typeof args.path === "string") template = await readConfined(confinement(ctx), args.path, ctx.signal, ctx.maxOutputBytes);
    else throw new ToolError('template.render: give "template" (text) or "path" (a file in the workspace)');
    return renderTemplate(template, args.values ?? {});
  },
};

/** The built-in tools by name. */
export function builtinTools(): Map<string, ToolImpl> {
  return new Map<string, ToolImpl>([
    ["fs.read", fsRead],
    ["fs.list", fsList],
    ["fs.write", fsWrite],
    ["csv.read", csvRead],
    ["exec", exec],
    ["http.request", httpRequest],
    ["template.render", templateRender],
    ["llm.complete", llmComplete],
  ]);
}
