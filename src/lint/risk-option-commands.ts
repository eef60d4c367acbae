/**
 * Options whose value is a command line the program runs on this machine (GTFOBins' list of
 * ways out of a program): ssh's `ProxyCommand`, git's configured commands and `!` aliases,
 * tar's checkpoint actions and compressors, zip's test command, rsync's remote shell, sed's
 * `e` command and flag, make's `--eval` recipes, vim's ex commands (`:!`, `call delete(…)`, `w!`);
 * and what a one-line program of a language the code reader does not know does (lua, R, julia,
 * Tcl and expect: foreign-code.ts; AppleScript's `do shell script`, PowerShell's command line).
 * The shell reader reads each such command line as it reads any.
 */
import { BARE_SHELL, exCommands, foreignCode } from "./foreign-code.js";

/**
 * A command line an option hands the program, one built from input the plan does not show (`unshown`), or a file
 * the program's own code removes or writes (`effect`: `Rscript -e 'unlink(…)'`, `vim -c 'w! /etc/x'`).
 */
export type OptionCommand = { command: string } | { unshown: string } | { effect: { destructive: boolean; what: string } };

/** git's configuration keys whose value is a command git runs (`alias.*` and `credential.helper` only when it starts with `!`). */
const GIT_COMMAND_KEYS = /^(?:core\.(?:fsmonitor|pager|sshcommand|editor|askpass)|sequence\.editor|diff\.external|gpg\.program|pager\..+|.+\.(?:textconv|command|cmd))$/i;
const GIT_BANG_KEYS = /^(?:alias\..+|credential\.helper)$/i;

/** ssh's `-o` settings that run a local command. */
const SSH_COMMAND = /^(?:ProxyCommand|LocalCommand)(?:\s*=\s*|\s+)([\s\S]+)$/i;

/** tar's options that take a command (`--checkpoint-action=exec=…` runs it; `-I` / `--use-compress-program` is the compressor). */
const TAR_COMMAND = /^(?:--checkpoint-action=exec=|--to-command=|--use-compress-program=|--info-script=|--new-volume-script=)([\s\S]+)$/;
const TAR_COMMAND_NEXT = /^(?:-I|--to-command|--use-compress-program|--info-script|--new-volume-script)$/;

/** The programs whose options optionCommands reads. */
export const OPTION_COMMAND_PROGRAMS: ReadonlySet<string> = new Set([
  ...["ssh", "autossh", "scp", "sftp", "git", "tar", "gtar", "bsdtar", "zip", "rsync", "sed", "gsed", "socat", "ncat", "nc", "netcat", "man"],
  ...["make", "gmake", "vim", "vi", "nvim", "view", "ex", "gvim", "start-stop-daemon"],
  ...["lua", "luajit", "Rscript", "R", "julia", "osascript", "expect", "guile", "racket", "pwsh", "powershell", "powershell.exe", "pwsh.exe"],
]);

/** Languages the code reader does not read: the option that takes the program, and the calls in it that run a command line (group 2, or 1). */
const FOREIGN_CODE: Readonly<Record<string, { option: RegExp; runs?: RegExp }>> = {
  // (Read by foreignCode: the calls that remove and write files too.)
  lua: { option: /^-e$/ },
  luajit: { option: /^-e$/ },
  Rscript: { option: /^-e$/ },
  R: { option: /^-e$/ },
  julia: { option: /^-[eE]$/ },
  expect: { option: /^-c$/ },
  guile: { option: /^-c$/ },
  racket: { option: /^-e$/ },
  osascript: { option: /^-e$/, runs: /\bdo shell script\s+(")((?:[^"\\]|\\.)*)"/g },
};

/** PowerShell's options that take its command line, and those that take it encoded (code the plan does not show). */
const PWSH_COMMAND = /^-(?:c|command)$/i;
const PWSH_ENCODED = /^-(?:e|ec|enc|encodedcommand)$/i;

/** The command lines `program`'s options (its words after it, `args`) hand it to run. */
export function optionCommands(program: string, args: readonly string[]): OptionCommand[] {
  const out: OptionCommand[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (program === "ssh" || program === "autossh" || program === "scp" || program === "sftp") {
      const o = a === "-o" ? args[k + 1] : a.startsWith("-o") ? a.slice(2) : undefined;
      const m = o === undefined ? null : SSH_COMMAND.exec(o.trim());
      if (m) out.push({ command: m[1]! });
    } else if (program === "git") {
      const setting = a === "-c" ? args[k + 1] : undefined;
      if (setting !== undefined && setting.includes("=")) gitCommand(setting.slice(0, setting.indexOf("=")), setting.slice(setting.indexOf("=") + 1), out);
      // `git config [--global] alias.x '!rm -rf y'`: what it sets git to run, read where it is set (as an alias's value is).
      if (a === "config") {
        const [key, set] = args.slice(k + 1).filter((w) => !w.startsWith("-"));
        if (key !== undefined && set !== undefined) gitCommand(key, set, out);
        break;
      }
    } else if (program === "tar" || program === "gtar" || program === "bsdtar") {
      const m = TAR_COMMAND.exec(a);
      const text = m ? m[1] : TAR_COMMAND_NEXT.test(a) ? args[k + 1] : undefined;
      if (text !== undefined) out.push({ command: text });
    } else if (program === "zip") {
      const text = a === "-TT" || a === "--unzip-command" ? args[k + 1] : a.startsWith("--unzip-command=") ? a.slice(16) : undefined;
      if (text !== undefined) out.push({ command: text });
    } else if (program === "socat") {
      // `EXEC:cmd,opts`, `SYSTEM:cmd`: an address that is a command line.
      const m = /^(EXEC|SYSTEM):([\s\S]+)$/i.exec(a);
      if (m) served(m[1]!.toUpperCase() === "EXEC" ? m[2]!.replace(/,[\w-]+(?:=[^,]*)?(?=,|$)/g, "") : m[2]!, `socat ${m[1]}:…`, out);
    } else if (program === "ncat" || program === "nc" || program === "netcat") {
      const text = /^(?:-e|-c|--exec|--sh-exec)$/.test(a) ? args[k + 1] : /^--(?:exec|sh-exec)=/.test(a) ? a.slice(a.indexOf("=") + 1) : undefined;
      if (text !== undefined) served(text, `${program} -e …`, out);
    } else if (program === "man") {
      const text = a === "-P" || a === "--pager" ? args[k + 1] : a.startsWith("--pager=") ? a.slice(8) : undefined;
      if (text !== undefined) out.push({ command: text });
    } else if (program === "rsync") {
      const text = a === "-e" || a === "--rsh" ? args[k + 1] : a.startsWith("--rsh=") ? a.slice(6) : undefined;
      if (text !== undefined) out.push({ command: text });
    }
  }
  if (program === "sed" || program === "gsed") for (const script of sedScripts(args)) sedCommands(script, out);
  // `make --eval='x:; rm -rf y' x`: the recipes of the rules it is given.
  if (program === "make" || program === "gmake") for (const [k, a] of args.entries()) {
    const text = a === "--eval" ? args[k + 1] : a.startsWith("--eval=") ? a.slice(7) : undefined;
    if (text !== undefined) for (const recipe of makeRecipes(text)) out.push({ command: recipe });
  }
  // `vim -c ':!rm -rf y'`, `vim +'!…'`, `ex -sc '%d|x' f`, `vim -c 'call delete("x")'`: ex commands, in order.
  if (/^(?:vim|vi|nvim|view|ex|gvim)$/.test(program)) {
    const state = { emptied: false };
    // (Ex mode reads its commands on stdin: `ex -s f < script`.)
    const exMode = program === "ex" || args.some((a) => /^-[a-zA-Z]*[eE][a-zA-Z]*$/.test(a));
    for (const [k, a] of args.entries()) {
      const ex = /^-[a-zA-Z]*c$|^--cmd$/.test(a) ? args[k + 1] : a.startsWith("+") ? a.slice(1) : undefined;
      if (ex !== undefined) exCommands(ex, out, state);
      // A script the plan does not show: `vim -S x.vim` (Session.vim when no file follows), `-u x.vim`, `ex < script`,
      // and `vim -s keys.txt`, normal-mode keys (in ex mode `-s` is silent, and takes no file).
      const next = args[k + 1];
      const script = a === "-S" ? (next === undefined || next.startsWith("-") ? "Session.vim" : next) : (a === "-u" && !/^(?:NONE|NORC|DEFAULTS)$/.test(next ?? "NONE")) || (a === "-s" && !exMode) ? next : exMode && a === "<" ? next : exMode && /^0?<[^<]/.test(a) ? a.replace(/^0?</, "") : undefined;
      if (script !== undefined && !/^\/dev\//.test(script)) out.push({ unshown: `${program} ${a.startsWith("-") ? `${a} ` : "< "}${script}` });
    }
  }
  // `start-stop-daemon --start --exec /bin/rm -- -rf y`: the program it starts, with the words after `--`.
  if (program === "start-stop-daemon" && args.some((a) => a === "--start" || a === "-S")) {
    const k = args.findIndex((a) => /^(?:--exec|-x|--startas|-a)$/.test(a));
    const dash = args.indexOf("--");
    if (k >= 0 && args[k + 1] !== undefined) out.push({ command: [args[k + 1]!, ...(dash >= 0 ? args.slice(dash + 1) : [])].map(quoted).join(" ") });
  }
  const foreign = FOREIGN_CODE[program];
  if (foreign !== undefined) for (const [k, a] of args.entries()) {
    const code = foreign.option.test(a) ? args[k + 1] : undefined;
    if (code === undefined) continue;
    if (foreign.runs === undefined) out.push(...foreignCode(program, code));
    else for (const m of code.matchAll(foreign.runs)) out.push({ command: m[2]!.replace(/\\(.)/g, "$1") });
  }
  // `pwsh -Command 'Remove-Item -Recurse x'`: PowerShell's command line, read as a shell's (its aliases `rm`, `del` too).
  if (/^(?:pwsh|powershell)(?:\.exe)?$/.test(program)) for (const [k, a] of args.entries()) {
    if (PWSH_COMMAND.test(a) && args[k + 1] !== undefined) out.push({ command: args.slice(k + 1).join(" ") });
    if (PWSH_ENCODED.test(a)) out.push({ unshown: `${program} ${a} …` });
    if (PWSH_COMMAND.test(a) || PWSH_ENCODED.test(a)) break;
  }
  return out;
}

/** A word written for the shell reader to read back as one word. */
const quoted = (w: string): string => (/^[\w./@%+=:,-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/** The recipe lines of make rules: lines that start with a tab, and what follows `;` on a rule's line (`x: dep; cmd`), without `@`, `-` or `+`. */
export function makeRecipes(text: string): string[] {
  const recipes: string[] = [];
  for (const line of text.split("\n")) {
    const recipe = line.startsWith("\t") ? line.slice(1) : /^[^:=#\t][^:=#]*::?[^=;]*;(.*)$/.exec(line)?.[1];
    const command = recipe?.replace(/^\s*[@+-]+/, "");
    if (command !== undefined && command.trim() !== "") recipes.push(command);
  }
  return recipes;
}

/** A command a network tool connects to its socket: a bare shell runs what the network sends (code the plan does not show). */
function served(text: string, shown: string, out: OptionCommand[]): void {
  out.push(BARE_SHELL.test(text) ? { unshown: shown } : { command: text });
}

/** A git setting's command, when its key names one. */
function gitCommand(key: string, set: string, out: OptionCommand[]): void {
  if (GIT_BANG_KEYS.test(key)) {
    if (set.startsWith("!")) out.push({ command: set.slice(1) });
  } else if (GIT_COMMAND_KEYS.test(key)) out.push({ command: set });
}

/** sed's scripts among its words: each `-e` / `--expression`, else the first word that is not an option. */
export function sedScripts(args: readonly string[]): string[] {
  const scripts = args.flatMap((a, k) => (/^(?:-e|--expression)$/.test(args[k - 1] ?? "") ? [a] : /^--expression=/.test(a) ? [a.slice(13)] : []));
  if (scripts.length === 0) {
    const first = args.find((a) => !a.startsWith("-"));
    if (first !== undefined) scripts.push(first);
  }
  return scripts;
}

/** An `s` command and its flags: group 2 the replacement, group 3 the flags. */
const SED_SUBSTITUTE = /(?:^|[;\s{])s([^\w\s\\])(?:(?!\1)[^\\]|\\.)*\1((?:(?!\1)[^\\]|\\.)*)\1([a-zA-Z0-9]*)/g;
/** GNU sed's `e command` (after a line number or `$`): runs the command. */
const SED_EXECUTE = /(?:^|[;\n{])[ \t]*(?:\d+|\$)?[ \t]*e[ \t]+([^;\n}]+)/g;

/**
 * What GNU sed runs of a script: an `s` command with the `e` flag runs the line it made (its replacement starts the
 * command; a replacement that starts with the input, `&` or `\1`, is input the plan does not show), `e command` runs it.
 */
function sedCommands(script: string, out: OptionCommand[]): void {
  for (const m of script.matchAll(SED_SUBSTITUTE)) {
    if (!m[3]!.includes("e")) continue;
    const start = m[2]!.replace(/\\(.)/g, "$1");
    if (/^\s*(?:&|\\\d)/.test(m[2]!) || start.trim() === "") out.push({ unshown: `sed s${m[1]}…${m[1]}e` });
    else out.push({ command: start.replace(/&|\\\d/g, "") });
  }
  for (const m of script.matchAll(SED_EXECUTE)) out.push({ command: m[1]! });
}
