/**
 * What a one-line program handed to an interpreter does (`python3 -c CODE`, `node -e`,
 * `ruby -e`, `perl -e`, `php -r`), read as a reviewer reads it: by the calls it makes.
 * Removing files (`shutil.rmtree`, `fs.rmSync`, `FileUtils.rm_rf`, `unlink`), writing them
 * (`open(p, "w")`, `writeFileSync`), sending (`requests.post`, `fetch` with a method),
 * deleting through an SDK (`.delete()`, `delete_objects`), and the commands and SQL it runs
 * (`os.system("rm -rf …")`, `subprocess.run(["kubectl", "delete", …])`, `execSync(…)`,
 * `cursor.execute("DELETE …")`), handed back to the shell reader and read as SQL. Calls are matched in the
 * code with its strings and comments blanked, so `print("never call shutil.rmtree")` reads.
 */
import type { Risk } from "../ir.js";
import { BARE_SHELL } from "./foreign-code.js";
import { closing, sqlEffects } from "./risk-sql.js";

export interface CodeEffect {
  risk: Risk;
  destructive: boolean;
  /** The call a reviewer would quote: "shutil.rmtree". */
  what: string;
}

/** The languages, by interpreter, and the option that takes the program text. */
const INTERPRETERS: ReadonlyArray<{ program: RegExp; code: RegExp; language: Language }> = [
  { program: /^python[0-9.]*$|^pypy[0-9.]*$|^ipython[0-9]*$/, code: /^-[a-zA-Z]*c$/, language: "python" },
  { program: /^(?:node|nodejs|bun)$/, code: /^(?:-e|--eval|-p|--print|-pe)$/, language: "js" },
  { program: /^deno$/, code: /^eval$/, language: "js" },
  { program: /^ruby$/, code: /^-[a-zA-Z]*e$/, language: "ruby" },
  { program: /^perl$/, code: /^-[a-zA-Z]*[eE]$/, language: "perl" },
  { program: /^php[0-9.]*$/, code: /^-r$/, language: "php" },
];

type Language = "python" | "js" | "ruby" | "perl" | "php";

/** The program text and its language when `program args…` runs inline code, else undefined. */
export function inlineCode(program: string, args: readonly string[]): { code: string; language: Language } | undefined {
  const spec = INTERPRETERS.find((s) => s.program.test(program));
  if (!spec) return undefined;
  const k = args.findIndex((a) => spec.code.test(a));
  const code = k >= 0 ? args[k + 1] : undefined;
  return code === undefined ? undefined : { code, language: spec.language };
}

const W = (what: string): CodeEffect => ({ risk: "write", destructive: false, what });
const D = (what: string): CodeEffect => ({ risk: "write", destructive: true, what });
const X = (what: string): CodeEffect => ({ risk: "external", destructive: false, what });
const XD = (what: string): CodeEffect => ({ risk: "external", destructive: true, what });
/** A request with an HTTP method that changes something: DELETE destroys. */
const sends = (method: string, what: string): CodeEffect => (method.toUpperCase() === "DELETE" ? XD(what) : X(what));

/** Calls that remove, write or send, matched on the blanked code; the name quoted is the match. */
const CALLS: ReadonlyArray<{ re: RegExp; effect: (what: string) => CodeEffect; languages?: readonly Language[] }> = [
  // Removing files and directories.
  // `from shutil import rmtree; rmtree(p)`: the bare name is the imported function.
  { re: /\bshutil\.rmtree\s*\(|\bos\.(?:remove|unlink|rmdir|removedirs)\s*\(|\.(?:unlink|rmdir|rmtree)\s*\(|(?<![.\w])(?:rmtree|remove|unlink|rmdir|removedirs)\s*\(/g, effect: D, languages: ["python"] },
  { re: /\b(?:rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink)\s*\(/g, effect: D, languages: ["js"] },
  // A removing function handed on as a value: `map(os.remove, files)`, `.forEach(fs.unlinkSync)`, `map(Path.unlink, …)`.
  { re: /\b(?:shutil\.rmtree|os\.(?:remove|unlink|rmdir|removedirs))(?=\s*[,)])|\.(?:unlink|rmdir|rmtree)(?=\s*[,)])/g, effect: D, languages: ["python"] },
  { re: /\.(?:rmSync|rmdirSync|unlinkSync|rm|rmdir|unlink)(?=\s*[,)])|\bDeno\.remove(?:Sync)?\s*\(/g, effect: D, languages: ["js"] },
  { re: /\bFileUtils\.(?:rm_rf|rm_r|rm|remove_dir|remove_entry(?:_secure)?|remove)\b|\bFile\.(?:delete|unlink)\b|\bDir\.(?:rmdir|delete|unlink)\b|\.rmtree\b/g, effect: D, languages: ["ruby"] },
  // (Not inside a pattern: `print if /unlink/`.)
  { re: /(?<!\/)\b(?:unlink|rmdir|rmtree|remove_tree)\b(?!\/)/g, effect: D, languages: ["perl", "php"] },
  // Writing files.
  { re: /\.(?:write_text|write_bytes)\s*\(|\bshutil\.(?:move|copy|copy2|copyfile|copytree)\s*\(|\bos\.(?:rename|replace|makedirs|mkdir|chmod|chown|truncate)\s*\(/g, effect: W, languages: ["python"] },
  { re: /\b(?:writeFileSync|writeFile|appendFileSync|appendFile|copyFileSync|copyFile|renameSync|rename|mkdirSync|createWriteStream|truncateSync|chmodSync|cpSync)\s*\(/g, effect: W, languages: ["js"] },
  { re: /\bDeno\.(?:writeTextFile|writeFile|truncate|rename|mkdir|copyFile|chmod)(?:Sync)?\s*\(/g, effect: W, languages: ["js"] },
  { re: /\bFile\.(?:write|rename|truncate)\b|\bFileUtils\.(?:mv|cp|cp_r|mkdir_p|touch)\b/g, effect: W, languages: ["ruby"] },
  { re: /\btruncate\b/g, effect: W, languages: ["perl"] },
  { re: /\b(?:file_put_contents|rename|copy|mkdir|fwrite)\s*\(/g, effect: W, languages: ["php"] },
  // Sending: HTTP methods that change something.
  { re: /\b(?:requests|httpx|session|client|axios|got|ky)\.(?:post|put|patch)\s*\(/gi, effect: X },
  { re: /\b(?:requests|httpx|session|client|axios|got|ky)\.delete\s*\(/gi, effect: XD },
  { re: /\bNet::HTTP\.(?:post|post_form|put)\b/g, effect: X, languages: ["ruby"] },
  // SDK calls that delete or change remote things (boto3 and the like).
  { re: /\.(?:delete_objects?|delete_bucket|delete_table|delete_item|terminate_instances|delete_\w+)\s*\(/g, effect: XD },
  { re: /\.(?:put_object|upload_file|upload_fileobj|put_item|send_message|publish|send_email|invoke)\s*\(/g, effect: X },
  { re: /\.delete\s*\(\s*\)/g, effect: D },
  // Stores and databases through their clients: redis, MongoDB.
  { re: /\.(?:flushall|flushdb|drop_database|drop_collection|delete_many|delete_one)\s*\(|\.drop\s*\(\s*\)/g, effect: D, languages: ["python", "js"] },
  { re: /\.(?:insert_one|insert_many|update_one|update_many|replace_one)\s*\(/g, effect: W, languages: ["python"] },
  // Signals to processes.
  { re: /\bos\.(?:kill|killpg)\s*\(|\bprocess\.kill\s*\(/g, effect: W },
  // Mail.
  { re: /\.sendmail\s*\(/g, effect: X, languages: ["python"] },
];

/** Code that talks to a cloud or SaaS SDK: what it deletes or changes is elsewhere. */
const REMOTE_SDK = /\b(?:boto3|botocore|google\.cloud|azure|stripe|firebase_admin|twilio|slack_sdk|openai|kubernetes)\b|@aws-sdk|@google-cloud|@azure/;

/** Calls whose first argument is a command line (a string) or an argv (a list of strings). */
const RUNS = /\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|asyncio\.create_subprocess_shell|child_process\.exec|execSync|execFileSync|execFile|spawnSync|spawn|system|shell_exec|passthru|popen|proc_open|%x|Open3\.(?:capture2e?|capture3|popen2e?|popen3|pipeline(?:_r|_w|_rw)?))\s*\(|(?<![.\w])exec\s*\(/g;
/** Those of RUNS whose command is a shell's or a program's (not python's own `exec(code)`): one given no string is code the plan does not show. */
const RUNS_COMMAND = /^(?!exec\s*\()/;
/** Calls whose argument is SQL. */
const SQL_CALLS = /\.(?:execute|executemany|executescript|exec|query|raw)\s*\(/g;

/** The effects of inline code (an empty list: it only reads, as far as its calls show). */
export function codeEffects(raw: string, language: Language, command: (line: string) => void, argv: (words: string[]) => void): CodeEffect[] {
  const code = plainNames(raw);
  const blanked = blankCode(code, language);
  const out: CodeEffect[] = [];
  // A shell given nothing to run (`popen("sh", "w")`, `spawn("sh")`, perl's `open(P, "| sh")`) runs what the code writes to it.
  const run = (line: string): void => {
    if (BARE_SHELL.test(line)) out.push(D(`${line.trim()} on a pipe (the plan does not show what the code writes to it)`));
    else command(line);
  };
  const runArgv = (words: string[]): void => (BARE_SHELL.test(words.join(" ")) ? run(words.join(" ")) : argv(words));
  const methodIn = (name: string, unknownSends: boolean): void => {
    if (/^(?:None|null|undefined|true|false|True|False|self|this)$/.test(name)) return;
    const value = assignedString(code, name)?.toUpperCase();
    if (value === undefined ? unknownSends : /^(?:POST|PUT|PATCH|DELETE)$/.test(value)) out.push(sends(value ?? "", `method ${value ?? name}`));
  };
  for (const { re, effect, languages } of CALLS) {
    if (languages && !languages.includes(language)) continue;
    for (const m of blanked.matchAll(re)) out.push(effect(m[0].replace(/\s*\($/, "").replace(/^\./, "")));
  }
  const sdk = REMOTE_SDK.test(code);
  // `boto3.resource("s3").Bucket(b).objects.all().delete()`: the files are not on this machine.
  if (sdk) for (const e of out) if (e.risk === "write" && e.what === "delete()") e.risk = "external";
  // `boto3.client("ec2").stop_instances(...)`: an SDK call that changes what it names.
  if (sdk) for (const m of blanked.matchAll(/\.((?:stop|start|reboot|create|update|modify|copy|attach|detach|disable|enable|put|set|revoke|cancel|restore)_\w+)\s*\(/g)) out.push(X(m[1]!));
  // `stripe.Refund.create(...)`, `stripe.Customer.delete("cus_1")`, `docker…containers.get(c).remove()`: the SDK's own verbs.
  if (sdk || /\bdocker\b/.test(code)) for (const m of blanked.matchAll(/\.(create|modify|update|cancel|capture|refund|send|delete|remove|kill|stop)\s*\(/g)) {
    const destroys = /^(?:delete|remove|kill)$/.test(m[1]!);
    // `.delete()` with no argument is read above.
    if (m[1] === "delete" && /^\s*\)/.test(blanked.slice(m.index + m[0].length))) continue;
    out.push(destroys ? XD(m[1]!) : X(m[1]!));
  }
  // An HTTP method named as the first argument (`requests.request("POST", …)`, `conn.request("DELETE", …)`),
  // a session's `.post("https://…")`, and `urlopen` with data (a POST).
  for (const m of code.matchAll(/\brequest\s*\(\s*["'](POST|PUT|PATCH|DELETE)["']/gi)) out.push(sends(m[1]!, `request ${m[1]!.toUpperCase()}`));
  for (const m of code.matchAll(/\.(post|put|patch|delete)\s*\(\s*f?["'`]https?:\/\//gi)) if (!/\b(?:requests|httpx|session|client|axios|got|ky)\.\w+\s*\($/i.test(code.slice(0, m.index + m[0].indexOf("(") + 1))) out.push(sends(m[1]!, m[1]!));
  for (const m of blanked.matchAll(/\b(?:urlopen|Request)\s*\(/g)) {
    const at = m.index + m[0].length;
    const parts = topLevelArgs(blanked.slice(at, closingParen(blanked, at - 1)));
    if (parts.some((a) => /^\s*data\s*=/.test(a)) || (parts.length > 1 && !/^\s*\w+\s*=/.test(parts[1]!))) out.push(X(`${m[0].replace(/\s*\($/, "")}(…, data)`));
  }
  // open(path, "w"), open(path, 'a'), File.open(p, "w"), fopen($p, "w"), perl open(FH, ">", …).
  for (const m of blanked.matchAll(/\b(?:open|fopen|openSync)\s*\(/g)) {
    const all = code.slice(m.index + m[0].length, closingParen(blanked, m.index + m[0].length - 1));
    // (Perl's mode is its second argument: `open(my $f, "<", "a")` reads a file named `a`.)
    const args = language === "perl" ? topLevelArgs(all).slice(0, 2).join(",") : all;
    if (/,\s*(?:mode\s*=\s*)?["'][rb]*[wax+][bt+]*["']|["']\+?>>?/.test(args)) out.push(W(`${m[0].replace(/\s*\($/, "")}(…, "w")`));
  }
  // fetch(url, { method: "POST" }) and request options with a method.
  for (const m of code.matchAll(/\bmethod\s*[:=]\s*["'`](POST|PUT|PATCH|DELETE)["'`]/gi)) out.push(sends(m[1]!, `method ${m[1]!.toUpperCase()}`));
  // The method in a variable: `const m = "DELETE"; fetch(u, { method: m })`, `requests.request(verb, u)`.
  // A value the code assigns says what it is; one it does not (`method: process.argv[2]`) may change anything.
  for (const m of blanked.matchAll(/\bmethod\s*[:=](?!=)\s*([^,;})\n]+)/g)) {
    const value = m[1]!.trim();
    // A string literal is read above; a name is looked up; anything else (`'del'.toUpperCase() + 'ETE'`) is not shown.
    if (/^(["'`])\s*\1$/.test(value)) continue;
    if (/^[A-Za-z_$][\w$]*(?:\.[\w$]+)*(?:\[[^\]]*\])?$/.test(value)) methodIn(value, true);
    else out.push(X("method expression"));
  }
  for (const m of blanked.matchAll(/\.request\s*\(\s*([A-Za-z_$][\w$]*)\s*,/g)) methodIn(m[1]!, /^(?:m|method|verb|http_?method)$/i.test(m[1]!));
  // Commands the code runs: a string is a command line, a list of strings an argv.
  let built = false;
  for (const m of blanked.matchAll(RUNS)) {
    const at = m.index + m[0].length;
    const args = code.slice(at, closingParen(blanked, at - 1));
    const list = /^\s*\[([^\]]*)\]/.exec(args);
    if (list) runArgv(stringsIn(list[1]!));
    else {
      const first = stringsIn(args)[0];
      // `execFileSync("find", [".", "-delete"])`, `system("find", ".", "-delete")`: a program, then its arguments
      // (popen's second argument is its mode).
      const vector = first === undefined || /popen/i.test(m[0]) ? [] : programArguments(args, blanked.slice(at, at + args.length));
      if (vector.length > 1) runArgv(vector);
      else if (first !== undefined) run(first);
      // `os.system(cmd)`, `execSync(process.argv[1])`: the string or list the name was given, else a command the
      // plan does not show (python's own `exec(code)` is read below).
      else if (!(language === "python" && /^exec\b/.test(m[0])) && /^\s*[^\s)]/.test(args)) {
        const name = /^\s*([A-Za-z_$][\w$]*)\s*(?:[,)]|$)/.exec(args)?.[1];
        const given = name === undefined ? undefined : assignedCommand(code.slice(Math.max(0, m.index - ARG_SPAN), m.index), name);
        if (given === undefined) built = true;
        else if (Array.isArray(given)) argv(given);
        else command(given);
      }
    }
  }
  // `getattr(os, name)(…)`, `fs[name](…)`: a function of a module that removes and runs things, chosen at run time.
  if (/\bgetattr\s*\(\s*(?:os|shutil|subprocess|posix|pathlib)\s*,|\b(?:fs|child_process|FileUtils)\s*\[\s*[^\s"'`\]]/.test(blanked)) built = true;
  // `process.binding("spawn_sync").spawn(…)`, `new ChildProcess().spawn(…)`: the machinery under child_process, whose
  // options (`{file, args}`) are not read as a command.
  if (language === "js" && (/\bprocess\s*\.\s*(?:_linkedBinding|binding)\s*\(\s*(["'`])(?:spawn_sync|process_wrap)\1/.test(code) || /\bChildProcess\b/.test(blanked))) built = true;
  if (built) out.push(D("a command or call chosen at run time (the plan does not show it)"));
  // `asyncio.create_subprocess_exec("rm", "-rf", p)`, `new Deno.Command("rm", { args: [...] })`, `Deno.run({ cmd: [...] })`,
  // `sh.rm("-rf", p)` (the sh package), plumbum's `local["rm"]("-rf", p)`: a program and its arguments, as strings.
  const programs = language === "python" ? /\basyncio\.create_subprocess_exec\s*\(|\b(?:sh|local|plumbum\.local|plumbum\.cmd)\.(\w+)\s*\(/g : language === "js" ? /\bDeno\.(?:Command|run)\s*\(/g : undefined;
  if (programs) for (const m of blanked.matchAll(programs)) {
    if (m[1] !== undefined && !/\bimport\s+sh\b|\bplumbum\b/.test(code)) continue;
    const at = m.index + m[0].length;
    const words = stringsIn(code.slice(at, closingParen(blanked, at - 1)));
    argv(m[1] !== undefined ? [m[1], ...words] : words);
  }
  // `os.execvp("rm", ["rm", "-rf", p])`, `os.spawnlp(os.P_WAIT, "rm", "rm", "-rf", p)`, perl `system "rm", "-rf", p`:
  // the program, then its argv.
  for (const m of blanked.matchAll(/\bos\.(?:exec|spawn)[lvpe]*\s*\(/g)) {
    const at = m.index + m[0].length;
    const words = stringsIn(code.slice(at, closingParen(blanked, at - 1)));
    if (words.length > 1) argv(words.slice(1));
  }
  // `open(my $p, "|-", "rm", "-rf", $d)`, `open(P, "rm -rf x |")`, `open(P, "| sh")`: perl runs a command on a pipe.
  // (`open P, "| sh"` without parentheses: to the statement's end.)
  if (language === "perl") for (const m of blanked.matchAll(/\bopen\b\s*(\(?)/g)) {
    const at = m.index + m[0].length;
    const semi = blanked.slice(at, at + ARG_SPAN).indexOf(";");
    const words = stringsIn(code.slice(at, m[1] ? closingParen(blanked, at - 1) : semi < 0 ? at + ARG_SPAN : at + semi));
    const mode = words.findIndex((w) => /^\s*(?:\|-|-\|)\s*$/.test(w));
    if (mode >= 0 && words.length > mode + 2) runArgv(words.slice(mode + 1));
    else if (mode >= 0 && words[mode + 1] !== undefined) run(words[mode + 1]!);
    else for (const w of words) {
      const piped = /^\s*\|(.*)$|^(.*)\|\s*$/s.exec(w);
      if (piped) run((piped[1] ?? piped[2]!).trim());
    }
  }
  if (language === "perl" || language === "ruby") for (const m of blanked.matchAll(/\b(?:system|exec|spawn)\s+(?=["'])/g)) {
    const end = blanked.slice(m.index).search(/;|$/);
    const words = stringsIn(code.slice(m.index + m[0].length, m.index + end));
    if (words.length > 1) runArgv(words);
    else if (words[0] !== undefined) run(words[0]);
  }
  // `qx(rm -rf p)`, `%x(rm -rf p)`: a command in Perl and Ruby.
  if (language === "perl" || language === "ruby") for (const m of code.matchAll(/(?:\bqx|%x)\s*([({\[\/|!])([^)}\]\/|!]*)/g)) command(m[2]!);
  // `exec("import shutil; …")`, `eval(...)`: a program written as a string is read as one.
  // `exec(" ".join(...))`, `compile(x, …)` of a name or an expression: code the plan does not show.
  let hidden = false;
  if (language === "python") for (const m of blanked.matchAll(/\b(exec|eval|compile)\s*\(/g)) {
    const at = m.index + m[0].length;
    const first = /^\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1\s*[,)]/.exec(code.slice(at, closingParen(blanked, at - 1) + 1));
    // (`code = "…"; exec(code)`: the string the name was given, a shorter text than this one.)
    const name = first ? undefined : /^\s*([A-Za-z_]\w*)\s*[,)]/.exec(code.slice(at))?.[1];
    const given = name === undefined ? undefined : assignedCommand(code.slice(Math.max(0, m.index - ARG_SPAN), m.index), name);
    if (first) out.push(...codeEffects(first[2]!.replace(/\\(["'\\])/g, "$1"), language, command, argv));
    else if (typeof given === "string") out.push(...codeEffects(given, language, command, argv));
    else if (m[1] !== "eval" && !/^\s*compile\s*\(/.test(code.slice(at))) hidden = true;
  }
  // `os.open(p, os.O_WRONLY | os.O_TRUNC)`: opened to write.
  if (/\bos\.open\s*\([^)]*\bO_(?:WRONLY|RDWR|TRUNC|CREAT|APPEND)\b/.test(code)) out.push(W("os.open(…, O_WRONLY)"));
  // PHP callbacks named as strings: `array_map("unlink", glob(…))`.
  if (language === "php") for (const m of code.matchAll(/\b(?:array_map|array_walk|call_user_func(?:_array)?)\s*\(\s*["'](unlink|rmdir)["']/g)) out.push(D(m[1]!));
  // Code it decodes or downloads and then runs (`exec(b64decode(...))`, `eval(atob(...))`): not shown, the worst is assumed.
  if (/\b(?:exec|eval|compile)\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(/.test(blanked) && /b64decode|base64|\batob\s*\(|urlopen|requests\.get|\bfetch\s*\(|\bdecode\s*\(|fromCharCode|unhexlify|codecs|fromhex|decompress|\bchr\s*\(|marshal|pickle/.test(code)) out.push(D("exec of decoded code (the plan does not show it)"));
  else if (hidden) out.push(D("exec of code built at run time (the plan does not show it)"));
  // Backticks run a command in Ruby, Perl and PHP.
  if (language !== "js" && language !== "python") for (const m of code.matchAll(/`([^`]*)`/g)) command(m[1]!);
  // SQL the code hands to a database driver.
  for (const m of blanked.matchAll(SQL_CALLS)) {
    const at = m.index + m[0].length;
    const args = code.slice(at, closingParen(blanked, at - 1));
    // `q = "DELETE FROM t"; cur.execute(q)`: the string the name was given.
    const name = /^\s*([A-Za-z_]\w*)\s*[,)]?\s*$/.exec(args.split(",")[0]!)?.[1];
    const assigned = name === undefined ? undefined : new RegExp(`\\b${name}\\s*=\\s*(["'])((?:(?!\\1).)*)\\1`).exec(code)?.[2];
    for (const s of (assigned !== undefined ? [assigned] : stringsIn(args)).slice(0, 1)) for (const e of sqlEffects(s, "strong")) out.push({ risk: e.risk, destructive: e.destructive, what: `${m[0].replace(/\s*\($/, "").replace(/^\./, "")}(${e.what.replace(/`/g, "")})` });
  }
  return out;
}

/**
 * Names written as strings read as names: `__import__('shutil')` is `shutil`,
 * `getattr(os, 'remove')` is `os.remove`, `fs['rmSync']` is `fs.rmSync` (each string a plain
 * identifier), so the call tables see them with the strings blanked.
 */
function plainNames(raw: string): string {
  const code = raw
    // `"re" + "move"` is "remove" (twice: three parts joined).
    .replace(/(["'])([\w.]*)\1\s*\+\s*(["'])([\w.]*)\3/g, "$1$2$4$1")
    .replace(/(["'])([\w.]*)\1\s*\+\s*(["'])([\w.]*)\3/g, "$1$2$4$1")
    // `os.__dict__["remove"]`, `vars(os)["remove"]`: the module's own names.
    .replace(/\.__dict__\s*(?=\[)/g, "")
    .replace(/\bvars\s*\(\s*([A-Za-z_][\w.]*)\s*\)\s*(?=\[)/g, "$1");
  return aliased(code
    .replace(/\b__import__\s*\(\s*(["'])([A-Za-z_][\w.]*)\1\s*\)/g, "$2")
    .replace(/\bimportlib\.import_module\s*\(\s*(["'])([A-Za-z_][\w.]*)\1\s*\)/g, "$2")
    .replace(/\brequire\s*\(\s*(["'`])(?:node:)?([A-Za-z_][\w/]*)\1\s*\)/g, "$2")
    .replace(/\bgetattr\s*\(\s*([A-Za-z_][\w.]*)\s*,\s*(["'])([A-Za-z_]\w*)\2\s*\)/g, "$1.$3")
    // Ruby's `FileUtils.send(:rm_rf, p)`, `.public_send("rm_rf", p)`: the method named.
    .replace(/\.(?:public_send|send|__send__)\s*\(\s*(?::(\w+)|(["'])(\w+)\2)\s*(,|\))/g, (_m, sym: string | undefined, _q, str: string | undefined, end: string) => `.${sym ?? str}(${end === ")" ? ")" : ""}`)
    // (A subscript, not a list: `["bash"]` is an argv.)
    .replace(/(?<=[\w$)\]]\s*)\[\s*(["'`])([A-Za-z_$][\w$]*)\1\s*\]/g, ".$2"));
}

/**
 * Other names for modules and functions read as the names: `import os as o` makes `o.remove`
 * `os.remove`; `from os import remove as r`, `f = shutil.rmtree` and JavaScript's
 * `const { rmSync: r } = require("fs")` make `r(…)` the call they name.
 */
function aliased(code: string): string {
  const names = new Map<string, string>();
  for (const m of code.matchAll(/\bimport\s+([\w.]+)\s+as\s+([A-Za-z_]\w*)/g)) names.set(m[2]!, m[1]!);
  // (`from subprocess import run`: `run(…)` is `subprocess.run(…)`, a name the tables know only with its module; the
  // other modules' functions are known by their bare names, `rmtree(…)`.)
  for (const m of code.matchAll(/\bfrom\s+([\w.]+)\s+import\s+([^;\n]+)/g)) for (const part of m[2]!.replace(/[()]/g, "").split(",")) {
    const a = /^\s*([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?\s*$/.exec(part);
    if (a && (a[2] !== undefined || /^(?:subprocess|asyncio)$/.test(m[1]!)) && a[1] !== a[2]) names.set(a[2] ?? a[1]!, `${m[1]}.${a[1]}`);
  }
  // JavaScript's `import { execSync as e } from "child_process"`, `import * as f from "fs"`, `import f from "fs"`.
  for (const m of code.matchAll(/\bimport\s+(?:\*\s+as\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)|\{([^{}]*)\})\s+from\s+(["'])(?:node:)?([\w/]+)\4/g)) {
    const module = m[5]!;
    if (m[1] !== undefined || m[2] !== undefined) names.set(m[1] ?? m[2]!, module);
    else for (const part of m[3]!.split(",")) {
      const a = /^\s*([A-Za-z_$][\w$]*)\s+as\s+([A-Za-z_$][\w$]*)\s*$/.exec(part);
      if (a) names.set(a[2]!, `${module}.${a[1]}`);
    }
  }
  // `const cp = require("child_process")` (read as `const cp = child_process`): the module by another name.
  for (const m of code.matchAll(/(?:^|[;\n]|\b(?:const|let|var)\s+)\s*([A-Za-z_$][\w$]*)\s*=\s*(child_process|fs\/promises|fs|os|shutil|subprocess)\s*(?=[;\n]|$)/g)) if (m[1] !== m[2]) names.set(m[1]!, m[2]!);
  for (const m of code.matchAll(/(?:^|[;\n]|\b(?:const|let|var)\s+)\s*([A-Za-z_$][\w$]*)\s*=\s*((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)\s*(?=[;\n]|$)/g)) names.set(m[1]!, m[2]!);
  for (const m of code.matchAll(/\{([^{}]*)\}\s*=\s*(?:require\s*\(\s*)?([\w/]+)/g)) for (const part of m[1]!.split(",")) {
    const a = /^\s*([A-Za-z_$][\w$]*)\s*:\s*([A-Za-z_$][\w$]*)\s*$/.exec(part);
    if (a) names.set(a[2]!, `${m[2]}.${a[1]}`);
  }
  if (names.size === 0) return code;
  const re = new RegExp(`(?<![.\\w$])(${[...names.keys()].map((k) => k.replace(/\$/g, "\\$")).join("|")})(?=\\s*[.(])`, "g");
  return code.replace(re, (n: string) => names.get(n)!);
}

/** The arguments of a call's text at top level (commas inside brackets do not split). */
function topLevelArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (text.slice(start).trim() !== "") out.push(text.slice(start));
  return out;
}

/**
 * A call's leading literal arguments as one argv, given its arguments' text and the same text blanked: `"find", [".",
 * "-delete"]` and `"find", ".", "-delete"` are find's; they end at the first that is not a string or a list of them.
 */
function programArguments(args: string, blanked: string): string[] {
  const words: string[] = [];
  let at = 0;
  for (const part of topLevelArgs(blanked)) {
    const text = args.slice(at, at + part.length);
    at += part.length + 1;
    if (/^\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*$/.test(text) || (words.length > 0 && /^\s*\[\s*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*,?\s*)*\]\s*$/.test(text))) words.push(...stringsIn(text));
    else break;
  }
  return words;
}

/** The string literals of a piece of code, unescaped enough to read them as a command or SQL. */
function stringsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)) out.push((m[1] ?? m[2] ?? m[3] ?? "").replace(/\\(.)/g, "$1"));
  return out;
}

/** Where the parenthesis opened at `open` closes in the blanked code (its end when unclosed). */
function closingParen(blanked: string, open: number): number {
  // Within ARG_SPAN: thousands of unclosed (or nested) calls would each read to the end of the code.
  const end = closing(blanked.slice(open, open + ARG_SPAN), 0);
  return end < 0 ? Math.min(blanked.length, open + ARG_SPAN) : open + end;
}

/** How much of a call's arguments is read: more than any call a plan writes inline, and a bound on each. */
const ARG_SPAN = 2048;

/**
 * The code with the inside of every string literal and every comment replaced by spaces
 * (same length, so a position in one is the position in the other). Quotes: ' and ", and
 * ` in JavaScript (a template; in the others it runs a command and is read apart).
 */
function blankCode(code: string, language: Language): string {
  const quotes = language === "js" ? "'\"`" : "'\"";
  const hash = language !== "js";
  const slashes = language === "js" || language === "php";
  let out = "";
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quotes.includes(c)) {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === "\\" ? 2 : 1;
      out += c + " ".repeat(Math.max(0, Math.min(j, code.length) - i - 1)) + (j < code.length ? c : "");
      i = j;
    } else if ((hash && c === "#") || (slashes && c === "/" && code[i + 1] === "/")) {
      const nl = code.indexOf("\n", i);
      const end = nl < 0 ? code.length : nl;
      out += " ".repeat(end - i);
      i = end - 1;
    } else if (slashes && c === "/" && code[i + 1] === "*") {
      const close = code.indexOf("*/", i + 2);
      const end = close < 0 ? code.length : close + 2;
      out += " ".repeat(end - i);
      i = end - 1;
    } else out += c;
  }
  return out;
}

/** The string a program assigns to `name` (`m = "DELETE"`, `const verb = 'POST'`), if it assigns one. */
function assignedString(code: string, name: string): string | undefined {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
  const at = new RegExp(`(?:^|[^\\w$.])${name.replace(/\$/g, "\\$")}\\s*=(?!=)\\s*["'\`]([A-Za-z]*)["'\`]`).exec(code);
  return at?.[1];
}

/**
 * The command line (a string) or argv (a list of strings) `before` (the code before a call, up to ARG_SPAN of it:
 * each call reads a bounded piece, and many calls stay linear) assigns to `name`, if it assigns one.
 */
function assignedCommand(before: string, name: string): string | string[] | undefined {
  const at = new RegExp(`(?:^|[^\\w$.])${name.replace(/\$/g, "\\$")}\\s*=(?!=)\\s*(?:[frbu]{0,2}(["'\`])((?:(?!\\1)[^\\\\]|\\\\.)*)\\1|\\[([^\\]]*)\\])`).exec(before);
  if (!at) return undefined;
  return at[3] !== undefined ? stringsIn(at[3]) : at[2]!.replace(/\\(.)/g, "$1");
}
