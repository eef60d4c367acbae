/**
 * What a shell command string will do, as a reviewer reads it: split into simple
 * commands (quotes respected), strip wrappers (`sudo`, `env X=1`, `bash -c "..."`,
 * `ssh host "..."`), then classify each program and subcommand from one table. Dry runs
 * (`--dry-run`, `git push -n`, `terraform plan`) and look-ups (`kubectl get`) are reads.
 */
import type { Risk } from "../ir.js";
import { cliEffect, sqlFileKind } from "./risk-clis.js";
import { codeEffects, inlineCode } from "./risk-code.js";
import { sqlEffects } from "./risk-sql.js";
import { OPTION_COMMAND_PROGRAMS, type OptionCommand, optionCommands, sedScripts } from "./risk-option-commands.js";
import { FOREIGN_PROGRAMS, exCommands, foreignCode } from "./foreign-code.js";
import { type Substitution, type WordsSeen, substitutions } from "./shell-substitutions.js";
import { pushAll } from "../util/arrays.js";
import { lookup } from "../util/lookup.js";

export interface CommandEffect {
  risk: Risk;
  destructive: boolean;
  /** `payment` never comes from a command; `public` from publishing a package or a release. */
  public?: boolean;
  /** What the reviewer would quote: "`kubectl delete`". */
  what: string;
  /** A production target named on the command line (`--context prod-eu-1`). */
  production?: string;
}

type Effect = Omit<CommandEffect, "what" | "production"> | undefined;

const W: Effect = { risk: "write", destructive: false };
const D: Effect = { risk: "write", destructive: true };
const X: Effect = { risk: "external", destructive: false };
const XD: Effect = { risk: "external", destructive: true };
const XP: Effect = { risk: "external", destructive: false, public: true };

/** Matches a production name as a whole word: `prod`, `production`, `prod-eu-1`, `db.prod.internal` (not `product`). */
export const PRODUCTION = /(?:^|[^a-z0-9])(?:prod|production)(?:[^a-z]|$)/i;

// Programs whose first non-option word is a subcommand, with the options that take a value.
const VALUE_FLAGS: Readonly<Record<string, ReadonlySet<string>>> = lookup({
  kubectl: new Set(["--context", "-n", "--namespace", "--kubeconfig", "--cluster", "--user", "-s", "--server", "-l", "--selector", "-o", "--output", "-f", "--filename", "-c", "--container"]),
  helm: new Set(["--kube-context", "-n", "--namespace", "--kubeconfig", "-f", "--values", "--set", "--version"]),
  git: new Set(["-C", "-c", "--git-dir", "--work-tree"]),
  // (`aws --profile prod s3 rm …`: the options in front of the service take values.)
  aws: new Set(["--profile", "--region", "--endpoint-url", "--output", "--query", "--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"]),
  docker: new Set(["-H", "--host", "--context", "-c", "--config"]),
  gh: new Set(["-R", "--repo"]),
  glab: new Set(["-R", "--repo"]),
  make: new Set(["-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-o", "--old-file", "-W", "--what-if", "-j", "--jobs", "-l"]),
  npm: new Set(["--prefix", "-w", "--workspace", "-C"]),
  pnpm: new Set(["-C", "--dir", "--filter", "-F", "-w", "--workspace"]),
  yarn: new Set(["--cwd"]),
  knex: new Set(["--knexfile", "--cwd", "--env", "--client", "--connection", "--migrations-directory"]),
  typeorm: new Set(["-d", "--dataSource", "-c", "--connection"]),
  supabase: new Set(["--workdir", "--project-ref", "--db-url"]),
  dotnet: new Set(["--project", "-p", "--startup-project", "-s", "--context", "-c", "--configuration", "--framework", "-f", "--connection"]),
  stripe: new Set(["--api-key", "--project-name", "-p", "--stripe-account", "--stripe-version"]),
  ip: new Set(["-n", "-netns", "-f", "-family", "-b", "-batch", "-rc", "-rcvbuf"]),
  goose: new Set(["-dir", "--dir", "-table", "--table", "-certfile", "-ssl-cert", "-ssl-key", "-timeout"]),
  dbmate: new Set(["-u", "--url", "-e", "--env", "--env-file", "-d", "--migrations-dir", "-s", "--schema-file", "--migrations-table", "--wait-timeout"]),
  diesel: new Set(["--database-url", "--migration-dir", "--config-file"]),
  rclone: new Set(["--config", "--log-file", "--log-level", "--exclude", "--include", "--filter", "--transfers", "--checkers", "--bwlimit", "--max-age", "--min-age", "--max-size", "--min-size", "--s3-provider", "--backup-dir", "--exclude-from", "--include-from", "--filter-from"]),
  s3cmd: new Set(["-c", "--config", "--region", "--access_key", "--secret_key", "--exclude", "--include"]),
  migrate: new Set(["-path", "--path", "-source", "--source", "-database", "--database", "-lock-timeout", "--lock-timeout", "-prefetch", "--prefetch", "-ext", "-dir", "-format", "-tz", "-seq-digits", "-digits"]),
  sqlx: new Set(["-D", "--database-url", "--source", "--connect-timeout"]),
  lerna: new Set(["--scope", "--ignore", "--concurrency", "--since", "--npm-client", "--loglevel", "--stream-prefix"]),
  turbo: new Set(["-F", "--filter", "--concurrency", "--cache-dir", "--output-logs", "--log-order", "--env-mode", "--scope", "--ignore", "--since", "--team", "--token", "--api", "--cwd", "--log-prefix", "--profile"]),
  nx: new Set(["-p", "--projects", "--exclude", "--parallel", "--configuration", "-c", "--base", "--head", "--output-style"]),
});

const KUBE_READ = new Set(["get", "describe", "logs", "top", "explain", "diff", "version", "api-resources", "api-versions", "cluster-info", "auth", "config", "events", "wait", "port-forward", "completion", "plugin"]);
const KUBE_DESTRUCTIVE = new Set(["delete", "drain"]);
const HELM_READ = new Set(["list", "ls", "status", "get", "history", "hist", "template", "lint", "show", "inspect", "search", "repo", "diff", "version", "env", "dependency", "dep", "pull", "verify", "completion"]);
const HELM_DESTRUCTIVE = new Set(["uninstall", "delete", "del", "un"]);
const TF_READ = new Set(["plan", "validate", "fmt", "show", "output", "init", "providers", "graph", "version", "console", "get", "login", "test"]);
const GIT_READ = new Set(["status", "log", "diff", "show", "blame", "grep", "ls-files", "ls-remote", "rev-parse", "describe", "shortlog", "fetch", "remote", "config", "help", "version", "reflog", "cat-file", "rev-list", "bisect", "worktree", "clone"]);
// Headers a server takes the method from instead of the request line (a tool's `headers.X-HTTP-Method-Override`,
// curl's `-H 'X-HTTP-Method-Override: DELETE'`), and `?_method=DELETE`, the form field frameworks (Rails, Laravel) take it from.
export const METHOD_OVERRIDE_KEYS: ReadonlySet<string> = new Set(["x-http-method-override", "x-http-method", "x-method-override"]);
export const METHOD_PARAM = /[?&]_method=([A-Za-z]+)(?:[&#]|$)/;
// A GraphQL document that changes data; its first field names what it does (`deleteUser`), and one that destroys.
const GRAPHQL_MUTATION = /^\s*mutation\b[^{]*\{\s*(?:[A-Za-z_]\w*\s*:\s*)?([A-Za-z_]\w*)/;
const JSON_MUTATION = /"query"\s*:\s*"(\s*mutation\b[^"]*)/;
export const DESTROYING_MUTATION = /^(?:delete|remove|destroy|purge|drop|wipe|erase)/i;

/**
 * The first field of a GraphQL mutation: the document itself (`mutation { deleteUser(id: 1) { id } }`) or a request
 * body's JSON that holds it (`{"query": "mutation {\n deleteUser…"}`).
 */
export function graphqlMutation(s: string): string | undefined {
  const inJson = GRAPHQL_MUTATION.test(s) ? undefined : JSON_MUTATION.exec(s)?.[1]?.replace(/\\[nrt]/g, " ");
  return GRAPHQL_MUTATION.exec(inJson ?? s)?.[1];
}
const DOCKER_READ = new Set(["ps", "images", "inspect", "logs", "version", "info", "history", "top", "stats", "events", "search", "diff", "port", "ls", "pull", "login", "context"]);
// (`podman system reset`: every container, image and volume.)
const DOCKER_DESTRUCTIVE = new Set(["rm", "rmi", "kill", "prune", "down", "reset"]);
const CLOUD_READ = /^(?:describe|list|get|show|head|ls|wait|help|version|info|browse|logs?|tail|read|query|search|lookup|validate|whoami|configure|config|auth|login|filter|scan|select|estimate|simulate|batch-get)\b/;
const CLOUD_DESTRUCTIVE = /^(?:delete|terminate|remove|rm|rb|deregister|destroy|purge|drop|disable|revoke|detach|cancel)\b/;
const PUBLISHERS: Readonly<Record<string, string>> = lookup({ npm: "publish", pnpm: "publish", yarn: "publish", cargo: "publish", twine: "upload", gem: "push", poetry: "publish", dotnet: "push", mvn: "deploy", lerna: "publish" });
const SQL_CLIENTS = new Set(["psql", "mysql", "mariadb", "sqlite3", "sqlite", "clickhouse-client", "clickhouse client", "bq", "snowsql", "cqlsh", "duckdb", "sqlcmd"]);
const SQL_FLAGS = new Set(["-c", "--command", "-e", "--execute", "-q", "--query", "-Q"]);
const WRAPPERS = new Set(["sudo", "env", "nohup", "time", "nice", "exec", "command", "builtin", "stdbuf", "doas", "xargs", "ionice", "busybox", "toybox", "watch", "parallel", "setsid", "unbuffer"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);
const LOCAL_WRITES = new Set(["mv", "cp", "chmod", "chown", "chgrp", "ln", "install", "rsync", "patch", "mkdir", "touch", "useradd", "usermod", "kill", "pkill", "killall", "umount", "swapoff", "swapon"]);
// `rimraf`, `del-cli` and `trash` are `rm -rf` as packages (`npx rimraf dist`).
const LOCAL_DESTRUCTIVE = new Set(["rm", "rmdir", "shred", "unlink", "mkfs", "wipefs", "blkdiscard", "lvremove", "vgremove", "pvremove", "deluser", "delgroup", "groupdel", "fdisk", "reboot", "shutdown", "halt", "poweroff", "userdel", "rimraf", "del-cli", "trash", "trash-put", "tmpwatch", "tmpreaper", "srm"]);
/** PowerShell's commands that delete or wipe (its names in any case: `Remove-Item`, `remove-item`). */
const PS_DESTRUCTIVE: ReadonlySet<string> = new Set(["remove-item", "clear-content", "clear-disk", "format-volume", "remove-partition", "clear-recyclebin", "remove-itemproperty", "stop-computer", "restart-computer"]);
/**
 * Programs that run a command after their own options (`values`: the options that take a
 * value) and `operands` words (chroot's directory, flock's lock file), `sub` words before
 * the options (tmux's subcommand); `command`: a `-c`
 * option holds a command line instead; `line`: the command is a shell line (tmux).
 */
const RUNS_AFTER: Readonly<Record<string, { values: RegExp; operands: number; sub?: number; command?: boolean; line?: boolean }>> = lookup({
  "arch-chroot": { values: /^-[uN]$/, operands: 1 },
  // Tools that run a command under them, their options given as `--name=value` or one letter with a value.
  valgrind: { values: /^$/, operands: 0 },
  numactl: { values: /^-[CNmpi]$|^--(?:physcpubind|cpunodebind|membind|preferred|interleave)$/, operands: 0 },
  chronic: { values: /^$/, operands: 0 },
  caffeinate: { values: /^-[wt]$/, operands: 0 },
  firejail: { values: /^$/, operands: 0 },
  proot: { values: /^-[rbwqkm]$/, operands: 0 },
  sg: { values: /^$/, operands: 1, command: true },
  gosu: { values: /^$/, operands: 1 },
  "su-exec": { values: /^$/, operands: 1 },
  pkexec: { values: /^--user$/, operands: 0 },
  setpriv: { values: /^--(?:reuid|regid|groups|inh-caps|ambient-caps|bounding-set|securebits|selinux-label|apparmor-profile|pdeathsig)$/, operands: 0 },
  unshare: { values: /^--(?:map-user|map-group|propagation|setgroups|root|wd|setuid|setgid)$/, operands: 0 },
  fakeroot: { values: /^-[is]$/, operands: 0 },
  strace: { values: /^-[oepsuIbEPX]$/, operands: 0 },
  ltrace: { values: /^-[oepsuE]$/, operands: 0 },
  // `taskset -c 0 cmd` / `taskset 0x1 cmd`, `chrt -f 10 cmd`: a mask or a priority before the command.
  taskset: { values: /^$/, operands: 1 },
  chrt: { values: /^$/, operands: 1 },
  // `-p PASS`, `-f FILE`, `-d FD`; `-e` (the password from $SSHPASS) takes none.
  sshpass: { values: /^-[pfd]$/, operands: 0 },
  "systemd-run": { values: /^(?:-[upEMH]|--unit|--property|--setenv|--machine|--host|--description|--slice|--uid|--gid|--working-directory|--on-[a-z]+|--timer-property)$/, operands: 0 },
  runuser: { values: /^(?:-[ugs]|--user|--group|--shell)$/, operands: 0, command: true },
  su: { values: /^(?:-[gs]|--group|--shell)$/, operands: 0, command: true },
  chroot: { values: /^(?:--userspec|--groups)$/, operands: 1 },
  nsenter: { values: /^(?:-[tSGw]|--target|--setuid|--setgid|--wd)$/, operands: 0 },
  flock: { values: /^(?:-[wE]|--timeout|--wait|--conflict-exit-code)$/, operands: 1, command: true },
  script: { values: /^(?:-[TtIOBEm]|--log-[a-z]+|--timing|--echo|--logging-format)$/, operands: 0, command: true },
  // `screen -dmS name cmd`: an option ending in S names the session.
  screen: { values: /^-[a-zA-Z]*[Sctp]$/, operands: 0 },
  // `tmux new-session -d -s name "cmd"`: the subcommand comes before the options.
  tmux: { values: /^-[a-zA-Z]*[stncexyFeSL]$/, operands: 0, sub: 1, line: true },
});

/** A quoted string's text with its backslash escapes undone (awk's and sed's strings, a double-quoted here-string). */
const unescaped = (t: string): string => t.replace(/\\(.)/g, "$1");

/**
 * Where the program of a pipeline stage's words starts, after the wrappers a stage is run
 * through (`sudo -u app bash`, `env A=1 bash`, `nice sh`, `A=1 psql`): the words of a reader the other
 * end of a pipe or of ssh runs, found the same way for each.
 */
function afterWrappers(words: readonly string[], from = 0): number {
  let k = from;
  for (;;) {
    const w = basename(words[k] ?? "");
    if (STAGE_WRAPPERS.has(w)) {
      const values = WRAPPER_VALUES[w] ?? /^-[ugCD]$/;
      for (k++; words[k]?.startsWith("-") && words[k] !== "--"; ) k += values.test(words[k]!) ? 2 : 1;
      if (words[k] === "--") k++;
      // `timeout 30 sh`, `chrt -i 0 sh`, `taskset 0x3 sh`: the duration, priority or mask before the program.
      if (/^(?:timeout|chrt|taskset)$/.test(w) && /^(?:\d|0x)/i.test(words[k] ?? "")) k++;
    } else if (w === "env") for (k++; words[k] !== undefined && (words[k]!.startsWith("-") || words[k]!.includes("=")); ) k++;
    // `PGPASSWORD=x psql …`: an assignment in front of the program.
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k] ?? "")) k++;
    else return k;
  }
}

/** Variables that load code into the program they reach: a library (`LD_PRELOAD`, `LD_AUDIT`), a file bash runs first. */
export const LOADER_VARIABLES = /^(?:LD_PRELOAD|LD_AUDIT|BASH_ENV)$/;

/** Programs that run the rest of their words as a command, with its stdin: what a pipe's stage runs is after them. */
const STAGE_WRAPPERS: ReadonlySet<string> = new Set(["sudo", "doas", "exec", "nohup", "nice", "command", "builtin", "time", "timeout", "stdbuf", "ionice", "chrt", "taskset", "setsid", "busybox", "toybox", "unbuffer"]);

/** A call of awk's system() with a string first: the command line it runs starts with that string and any side by side with it (`system("r" "m -rf x")`), which awk joins. */
const AWK_SYSTEM = /\bsystem\s*\(\s*(?:sprintf\s*\(\s*)?("(?:[^"\\]|\\.)*"(?:(?:\s|\\\n)*"(?:[^"\\]|\\.)*")*)/g;
/** `print … | "sort -u"`, `"date" | getline`: a quoted command line awk runs (the pipe's end, getline's command). */
const AWK_PIPED = /(?<!\|)\|&?(?!\|)\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)"\s*\|&?\s*getline\b/g;
/** A command line awk builds: system() of a variable, `cmd | getline`, `print … | cmd` (a print's words looked at within 300 characters: linear). */
const AWK_BUILT = /\bsystem\s*\(\s*(?!["\s])[^()]{0,80}\)|[\w\])]\s*\|&?\s*getline\b|\bprintf?\b(?:[^;{}\n"]|"(?:[^"\\\n]|\\.)*"){0,300}?(?<!\|)\|&?(?!\|)\s*(?!getline\b)[A-Za-z_]/;
/** `print … > "file"`, `print … >> out`: a print's output to a file (within 300 characters of the print, outside parentheses). */
const AWK_OUTPUT = /\bprintf?\b[^;{}()\n]{0,300}?(?<![<>!=])>>?(?!=)\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_$][\w$]*))/g;
const AWK_STRING = /"((?:[^"\\]|\\.)*)"/g;
/** Where a call of system() with a string first starts, found on the program with its strings blanked (awkCode). */
const AWK_SYSTEM_CALL = /\bsystem\s*\(\s*(?:sprintf\s*\(\s*)?"/g;
/** AWK_SYSTEM read from a call's start (sticky). */
const AWK_SYSTEM_AT = new RegExp(AWK_SYSTEM.source, "y");

/** An awk program with the text of its strings blanked (quotes and offsets kept): what awk reads as code, not as text it prints. */
function awkCode(program: string): string {
  return program.includes('"') ? program.replace(AWK_STRING, (s) => `"${" ".repeat(s.length - 2)}"`) : program;
}

/**
 * The command lines an awk program runs: those its system() calls start with, those it
 * pipes to or reads with getline; and when one is a shell it prints to, or the program
 * builds a command line in a variable, every string of the program, read as the start of one.
 */
function awkCommands(name: string, program: string, assigned: readonly string[], out: CommandEffect[], depth: number): void {
  // A call is found where awk reads code, not in a string it prints (`print "system(\"rm\")"`); its argument is read from the program.
  const code = awkCode(program);
  // (`system("\162m -rf x")`: awk's strings undo octal and hex escapes, as its prints do.)
  for (const m of code.matchAll(AWK_SYSTEM_CALL)) {
    const call = AWK_SYSTEM_AT;
    call.lastIndex = m.index;
    const argument = call.exec(program);
    if (argument) out.push(...commandEffects([...argument[1]!.matchAll(AWK_STRING)].map((s) => awkUnescaped(s[1]!)).join(""), depth + 1));
  }
  // `print $1 > "users.txt"`, `print > FILENAME ".bak"`: a file written (not /dev/stdout or /dev/stderr).
  for (const m of program.matchAll(AWK_OUTPUT)) {
    const file = m[1] !== undefined ? awkUnescaped(m[1]) : m[2]!;
    if (!/^\/dev\/(?:stdout|stderr|null|fd\/[12])$/.test(file)) out.push({ risk: "write", destructive: false, what: `\`${name} > ${file}\`` });
  }
  const piped = [...program.matchAll(AWK_PIPED)].map((m) => ({ command: awkUnescaped(m[1] ?? m[2]!), getline: m[2] !== undefined }));
  const built = AWK_BUILT.exec(code);
  if (piped.length === 0 && !built) return;
  const commands = new Set(piped.map((p) => p.command));
  // The program's other strings (and its -v values): what it prints, or the pieces of a command line it builds.
  const strings = [...[...program.matchAll(AWK_STRING)].map((m) => awkUnescaped(m[1]!)).filter((t) => !commands.has(t)), ...assigned];
  let shell: string | undefined;
  for (const { command, getline } of piped) {
    const words = command.trim().split(/\s+/);
    const reader = afterWrappers(words);
    const program = basename(words[reader] ?? "");
    if (!getline && SHELLS.has(program)) shell ??= command;
    // `print "DROP TABLE t;" | "psql app"`: what it prints is the client's input.
    // Each string a statement of its own: a comparison's `"w"` is not the start of the SQL printed after it.
    else if (!getline && (SQL_CLIENTS.has(program) || STDIN_CLIENTS.has(program))) stdinInput(words.slice(reader), strings.join(";\n"), false, out, depth);
    else out.push(...commandEffects(command, depth + 1));
  }
  if (shell === undefined && !built) return;
  // A shell at the end of a pipe, or a command line built in a variable: the strings start the commands, and so does what
  // each print to that shell starts its line with (`print "r" "m " $1 | "sh"`); with none, or a line that starts with a
  // field or a variable (`print $1 " -rf x" | "sh"`), the input's lines or the program's values are them.
  const prints = shell === undefined ? [] : awkPrints(program).filter((p) => p.to === `| ${shell}`);
  const starts = [...new Set([...strings, ...prints.map((p) => p.start)])];
  const before = out.length;
  if (starts.some((t) => t.trim() !== "")) for (const t of starts) out.push(...commandEffects(t, depth + 1));
  if (out.length === before && (!starts.some((t) => t.trim() !== "") || prints.some((p) => p.open && p.start.trim() === "")))
    out.push({ risk: "write", destructive: true, what: `\`${name} ${shell !== undefined ? `| "${shell}"` : built![0].trim()}\` (code the plan does not show)` });
}

/** nmcli's objects and their verbs in the order it matches a prefix against them (`c m` is `connection modify`, `d s` is `device status`). */
const NMCLI_VERBS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["general", ["status", "hostname", "permissions", "logging", "reload"]],
  ["networking", ["on", "off", "connectivity"]],
  ["radio", ["all", "wifi", "wwan"]],
  ["connection", ["show", "up", "down", "add", "modify", "clone", "edit", "delete", "monitor", "reload", "load", "import", "export", "migrate"]],
  ["device", ["status", "show", "set", "up", "connect", "reapply", "modify", "down", "disconnect", "delete", "monitor", "wifi", "lldp"]],
  ["agent", ["secret", "polkit", "all"]],
  ["monitor", []],
];

/** nmcli verbs that change a connection, a device, the radio or networking (abbreviations included). */
const NMCLI_CHANGE = /^(?:up|down|add|mod|modify|edit|del|delete|reload|load|import|clone|connect|disconnect|reapply|set|on|off)$/;

/** ip's objects in the order it matches a prefix against them (`ip a` is `address`, `ip r` `route`, `ip ru` `rule`). */
const IP_OBJECTS = ["address", "addrlabel", "maddress", "route", "rule", "neighbor", "neighbour", "ntable", "ntbl", "link", "l2tp", "fou", "ila", "macsec", "tunnel", "tuntap", "tap", "token", "tcpmetrics", "tcp_metrics", "monitor", "xfrm", "mroute", "mrule", "netns", "netconf", "vrf", "sr", "nexthop", "mptcp", "ioam", "stats"];
/** Their verbs in the order ip matches a prefix (`ip l s` sets a link, `ip a s` shows addresses), for the objects a plan changes most. */
const ADDRESS_VERBS = ["add", "change", "chg", "replace", "delete", "list", "show", "lst", "flush", "save", "showdump", "restore"];
const IP_VERBS: Readonly<Record<string, readonly string[]>> = lookup({
  link: ["add", "change", "set", "replace", "delete", "show", "lst", "list"],
  address: ADDRESS_VERBS,
  route: ["add", "change", "chg", "replace", "prepend", "append", "test", "delete", "list", "show", "lst", "get", "flush", "restore", "showdump", "save"],
  neighbor: [...ADDRESS_VERBS, "get"],
  neighbour: [...ADDRESS_VERBS, "get"],
  rule: ["add", "delete", "list", "show", "lst", "flush", "save", "restore"],
  netns: ["list", "add", "attach", "set", "delete", "identify", "pids", "exec", "monitor"],
  vrf: ["show", "exec", "identify", "pids"],
  tunnel: ["add", "change", "delete", "show", "list", "lst", "prl", "6rd"],
  maddress: ["add", "delete", "list", "show", "lst"],
  nexthop: ["add", "replace", "delete", "show", "list", "flush", "get", "bucket"],
  tcpmetrics: ["show", "list", "delete", "flush"],
  addrlabel: ["add", "delete", "list", "flush"],
});
/** The verbs of the other objects, in the order ip usually matches them. */
const IP_GENERIC_VERBS = ["add", "change", "replace", "delete", "list", "show", "lst", "flush", "get", "set", "update", "deleteall", "count", "monitor"];

/** Modules and packages that serve a directory to the network: the files leave the machine. */
const FILE_SERVERS = new Set(["http.server", "SimpleHTTPServer", "http-server", "serve"]);

/** Programs that make a string look like a command even outside a shell tool. */
export const COMMAND_PROGRAMS: ReadonlySet<string> = new Set([
  "rm", "kubectl", "oc", "helm", "terraform", "tofu", "terragrunt", "git", "gh", "docker", "podman", "aws", "gcloud", "az",
  "psql", "mysql", "sqlite3", "npm", "pnpm", "yarn", "cargo", "twine", "sudo", "curl", "systemctl", "ssh", "bash", "sh", "fastlane",
]);

/** Text that arrives from elsewhere or encoded: a download, a decoder. */
const FETCHED_OR_DECODED = /\b(?:curl|wget|iwr|Invoke-WebRequest|fetch)\b|\bbase64\s+(?:-\w*d\w*|--decode)\b|\bxxd\s+-\w*r|\bopenssl\s+(?:enc|base64)\b[^|;]*\s-d\b|\b(?:gunzip|zcat|uudecode)\b|\bgzip\s+-\w*d|\bprintf\s+["']?(?:\\x|%b)|\brev\b/;
/** Shells and interpreters that read a program on stdin; `source` and `.` read it from `/dev/stdin`. */
const SHELL_READERS = String.raw`(?:sh|bash|zsh|dash|ksh|fish|python[0-9.]*|node|perl|ruby|php|pwsh)\b|(?:source|\.)(?=[ \t]+\/dev\/stdin\b)`;
/** A word of a command line: no blank, no operator. */
const LINE_WORD = String.raw`[^\s|;&()<>]`;

/**
 * A pipe (`|` or `|&`) into one of `readers` behind any wrappers (`| sudo -u app sh`, `| timeout
 * 30 sh`, `| chrt -i 0 bash`, `| env A=1 sh`): a wrapper's options, an option's value, an
 * assignment or a number (a duration, priority or mask). An option's value names no wrapper
 * and no reader and starts with no digit, so each word has one reading (no backtracking on a
 * long line). Group 1: the reader; group 2: the rest of its stage.
 */
function pipedToReader(readers: string): RegExp {
  const wrappers = [...STAGE_WRAPPERS, "env"].join("|");
  const value = String.raw`(?![-\d])(?!(?:${wrappers})\b)(?!(?:${readers}))(?!${LINE_WORD}*=)${LINE_WORD}+`;
  const word = String.raw`-${LINE_WORD}+(?:\s+${value})?|\d${LINE_WORD}*|[A-Za-z_]\w*=${LINE_WORD}*`;
  return new RegExp(String.raw`\|&?\s*(?:(?:${wrappers})(?:\s+(?:${word}))*\s+)*(?:[^\s/|;&()<>]*\/)*(${readers})([^|;&\n]*)`, "g");
}

/** A shell or interpreter reading its program from a pipe (`| sh`, `| sudo bash -s`, `| python3 -`), not from a script file. */
const PIPED_TO_SHELL = pipedToReader(SHELL_READERS);
/** The interpreter after a pipe has a program of its own, not stdin: inline code (`sh -c`, `python3 -m`, `node -e`) or a script file. */
function ownProgram(interpreter: string, rest: string): boolean {
  const flag = /^(?:sh|bash|zsh|dash|ksh|fish)$/.test(interpreter) ? /(?:^|\s)-\w*c\b/ : /^python/.test(interpreter) ? /(?:^|\s)-\w*[cm]\b/ : /(?:^|\s)(?:-\w*[eEpr]\b|--eval\b|--print\b|-Command\b)/;
  return flag.test(rest) || /(?:^|\s)[^-\s]\S*\.(?:sh|bash|py|js|mjs|cjs|pl|rb|php|ps1)\b/.test(rest);
}
/** A substitution used as the program: `bash <(...)`, `sh -c "$(...)"`, `eval "$(...)"`, `source <(...)`, `. <(...)`. */
const SUBSTITUTED_PROGRAM = /\b(?:sh|bash|zsh|dash|ksh|source|eval)\s+(?:-\w*c\s+)?["']?(?:\$\(|`|<\()|(?:^|[;&|(]\s*)\.\s+<\(/;

/**
 * A command line that runs code the plan does not show: a download or a decoded string
 * handed to a shell or an interpreter (`curl ... | bash`, `echo cm0g... | base64 -d | sh`,
 * `bash <(curl ...)`). What it does cannot be read; a reviewer treats it as the worst a
 * command can do here and blocks it where the step is labelled read.
 */
function hiddenCode(text: string, live: string): CommandEffect | undefined {
  // On the text a shell runs (`live`): `grep -n 'curl .* | sh' README.md` only searches.
  const source = FETCHED_OR_DECODED.exec(live);
  if (!source) return undefined;
  const fetched = text.slice(source.index, source.index + source[0].length).replace(/\s+/g, " ").replace(/["']/g, "").trim();
  // The shell is fed by the pipeline the download is in (`curl -s x; ps | grep node` pipes nothing fetched).
  // (`2>&1` and `&>` are redirects, not separators.)
  const piped = [...live.matchAll(PIPED_TO_SHELL)].find((m) => m.index > source.index && !ownProgram(m[1]!, m[2]!) && !SYNTAX_ONLY.test(m[2]!) && !/[;&\n]/.test(live.slice(source.index, m.index).replace(/\d*>&\d*|&>>?/g, "")));
  const substituted = piped ? undefined : SUBSTITUTED_PROGRAM.exec(live);
  if (!piped && !substituted) return undefined;
  const shown = piped ? `${fetched} | ${piped[1]}` : `${substituted![0].replace(/["']/g, "").trim()}${fetched}...)`;
  return { risk: "write", destructive: true, what: `\`${shown}\` (code the plan does not show)` };
}

/** A shell only checking the syntax of what it reads: `bash -n`, `sh --noexec`. */
const SYNTAX_ONLY = /(?:^|\s)(?:-[a-z]*n[a-z]*|--noexec)\b/;

/**
 * `text` as a shell runs it, offsets kept: the contents of quoted strings and comments
 * blanked (`grep -E 'node|python'` pipes into nothing), except a command substitution in
 * double quotes, which runs (`echo "$(curl x | sh)"`). Here-document bodies are the caller's.
 */
function liveText(text: string): string {
  if (!/['"#]/.test(text)) return text;
  const chars = text.split("");
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (chars[k] !== "\n") chars[k] = " ";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") i++;
    else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close < 0 ? text.length : close;
      blank(i + 1, end);
      i = end;
    } else if (c === '"') {
      // Up to the closing quote, keeping `$(…)` and backticks (read to their first `)` / backtick).
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\") blank(j, ++j + 1);
        else if (text[j] === "$" && text[j + 1] === "(") {
          const close = text.indexOf(")", j);
          j = close < 0 ? text.length : close;
        } else if (text[j] === "`") {
          const close = text.indexOf("`", j + 1);
          j = close < 0 ? text.length : close;
        } else blank(j, j + 1);
      }
      i = j;
    } else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      const nl = text.indexOf("\n", i);
      const end = nl < 0 ? text.length : nl;
      blank(i, end);
      i = end - 1;
    }
  }
  return chars.join("");
}

/**
 * Lines another program writes into a shell or an interpreter reading stdin (`find … | awk
 * '{ print "rm " $0 }' | sh`, `ls | sed 's/^/rm /' | bash`, `./list.sh | bash`): awk's
 * strings and what its prints start their lines with, sed's replacements, and the words
 * echo or printf prints for xargs (`xargs -I{} echo rm {}`) are the starts of the commands,
 * read as such; what echo and printf print, alone or in a group before the pipe, is the
 * commands (`shellFeeder`); any other program's output, or a line that starts with what the
 * input holds, is code the plan does not show. A file cat hands on is read where it is given
 * (CATTED_TO_SHELL). Returns the pipes whose echo or printf it read, which ECHOED_TO_SHELL
 * and BARE_ECHO_TO_SHELL then leave.
 */
function generatedForShell(text: string, live: string, out: CommandEffect[], depth: number): Set<number> {
  // The pipes whose echo or printf this reads (ECHOED_TO_SHELL and BARE_ECHO_TO_SHELL leave them).
  const read = new Set<number>();
  let groups: Map<number, number> | undefined;
  let last = -1;
  for (const m of live.matchAll(PIPED_TO_SHELL)) {
    // `a || sh` is no pipe; `| sh -c …`, `| python3 script.py` have a program of their own; `| bash -n` only checks syntax
    // (what is echoed into it is then no command either: ECHOED_TO_SHELL leaves it).
    if (live[m.index - 1] === "|" || ownProgram(m[1]!, text.slice(m.index + m[0].length - m[2]!.length, m.index + m[0].length))) continue;
    if (SYNTAX_ONLY.test(m[2]!)) {
      read.add(m.index);
      continue;
    }
    const previous = last;
    last = m.index;
    // A group before the pipe (`(echo rm a; echo ls) | sh`): each of its commands (one holding an earlier pipe into a shell hands on its output).
    const end = beforeRedirects(live, m.index);
    const group = groupOpening(live, end, () => (groups ??= pairedGroups(live)));
    if (group !== undefined) {
      read.add(m.index);
      if (group < previous) out.push({ risk: "write", destructive: true, what: `\`( … ) | ${m[1]}\` (code the plan does not show)` });
      else for (const c of feederCommands(text, live, group + 1, end - 1)) shellFeeder(c.words, m[1]!, out, depth, c.elsewhere);
      continue;
    }
    // The program feeding it, after shell keywords and its wrappers (`then sudo ./gen.sh | sh`), not counting `2>&1` (the splitter cuts at its `&`).
    const start = commandStart(live, m.index, () => (groups ??= pairedGroups(live)), previous);
    const first = feederCommands(text, live, start, m.index)[0];
    const feeder = first?.words ?? [];
    let f = 0;
    while (KEYWORDS.has(feeder[f] ?? "")) f++;
    f = afterWrappers(feeder, f);
    // `xargs -I{} echo rm {}`: the program xargs runs writes the lines.
    const xargs = basename(feeder[f] ?? "") === "xargs";
    if (xargs) for (f++; feeder[f]?.startsWith("-"); ) f += WRAPPER_VALUES.xargs!.test(feeder[f]!) ? 2 : 1;
    const program = basename(feeder[f] ?? "");
    // A file cat hands on is read where it is given (CATTED_TO_SHELL), a here-string with the others (hereInputs).
    if (program === "" || (!xargs && program === "cat")) continue;
    if (!xargs && (program === "echo" || program === "printf")) {
      read.add(m.index);
      // `echo "$(cat cmds.txt)" | sh`: what a substitution prints, the plan does not show.
      if (SUBSTITUTION.test(live.slice(start, m.index))) out.push({ risk: "write", destructive: true, what: `\`${program} $(…) | ${m[1]}\` (code the plan does not show)` });
      else shellFeeder(feeder.slice(f), m[1]!, out, depth, first?.elsewhere === true);
      continue;
    }
    const before = out.length;
    let starts: string[] | undefined;
    let open = false;
    if (xargs && (program === "echo" || program === "printf")) {
      const printed = printedText(program, feeder.slice(f + 1));
      starts = printed === undefined ? [] : [printed];
      // A line that starts with the input (`xargs -I{} echo {} --force`, `xargs printf '%s\n'`).
      const replaced = xargsReplaced(feeder.slice(0, f));
      open = printed === undefined || printed.trim() === "" || (replaced !== undefined && (/^\s*(\S*)/.exec(printed)![1]!.includes(replaced)));
    } else if (/^[gmn]?awk$/.test(program)) {
      const prints = feeder.slice(f + 1).flatMap((a) => awkPrints(a)).filter((p) => p.to === undefined);
      starts = [...new Set([...feeder.slice(f + 1).flatMap((a) => [...a.matchAll(AWK_STRING)].map((s) => awkUnescaped(s[1]!))), ...prints.map((p) => p.start)])];
      open = prints.some((p) => p.open && p.start.trim() === "");
    } else if (program === "sed") starts = sedInserted(feeder.slice(f + 1));
    if (starts !== undefined) {
      for (const start of starts) out.push(...commandEffects(start, depth + 1));
      if (out.length > before || (!open && starts.some((t) => t.trim() !== ""))) continue;
    }
    const shown = `${feeder.join(" ").slice(0, 40)} | ${m[1]}`;
    out.push({ risk: "write", destructive: true, what: `\`${shown}\` (code the plan does not show)` });
  }
  return read;
}

/**
 * What one command piped into a shell hands it (echo or printf alone, or a command of a group
 * before the pipe): echo's and printf's text read as the commands (printf's format filled with
 * its arguments, `$'…'` strings undone), a file cat hands on as a script by its name; a line
 * that is a variable's, or any other program's output, is code the plan does not show.
 */
function shellFeeder(words: readonly string[], shell: string, out: CommandEffect[], depth: number, elsewhere: boolean): void {
  const feeder = feederProgram(words, elsewhere);
  if (feeder === undefined) return;
  const { k, program, args } = feeder;
  if (program === "cat") {
    const file = afterEachOption(args, NO_VALUES)[0];
    if (file !== undefined && !file.startsWith("<")) shellStdin(`cat ${file} | ${shell}`, file, out, depth);
    return;
  }
  const printed = program === "echo" || program === "printf" ? printedText(program, args) : undefined;
  const before = out.length;
  // `echo 'ls\nrm -rf x'`, `echo '\0162m x'`: the escapes undone too, as sh's echo (dash's) undoes them.
  if (printed !== undefined) out.push(...commandEffects(program === "echo" && printed.includes("\\") ? `${printed}\n${shellEscapes(printed, true)}` : printed, depth + 1));
  // `echo "$X" | sh`: what the variable holds runs.
  if (out.length > before || (printed !== undefined && !/^[ \t]*[^\s$`]*[$`]/m.test(printed))) return;
  const shown = words.slice(k).join(" ");
  out.push({ risk: "write", destructive: true, what: `\`${shown.length > 40 ? `${shown.slice(0, 39)}…` : shown} | ${shell}\` (code the plan does not show)` });
}

/** A command line's unquoted `{}` (xargs' and find's place for the input) quoted, so the splitter keeps it a word and not a group's braces (`live`: the text as a shell runs it, offsets kept). */
function bracesQuoted(text: string, live: string): string {
  return text.includes("{}") ? text.replace(/\{\}/g, (b, at: number) => (live.startsWith("{}", at) ? "'{}'" : b)) : text;
}

/** The text xargs replaces with each input line (`-I{}`, `-I %`, `--replace=R`; `-i` alone: `{}`), among its options `words`, if it is given one. */
function xargsReplaced(words: readonly string[]): string | undefined {
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    if (w === "-I") return words[k + 1];
    if (/^-[Ii]./.test(w)) return w.slice(2);
    if (/^--replace=./.test(w)) return w.slice(10);
    if (w === "-i" || w === "--replace") return "{}";
  }
  return undefined;
}

/** How awk prints a line: what it starts with as far as the program shows it, whether more follows that it does not (`$0`, a variable), and where it goes (`>` a file, `|` a command; none: the output). */
interface AwkPrint {
  start: string;
  open: boolean;
  to?: string;
}

/** A token of an awk program: a string (its escapes undone), a word (a name, a number, `$0`) or one other character. */
interface AwkToken {
  kind: "string" | "word" | "mark";
  text: string;
}

/** awk's escapes in a string: `\n`, `\t` and the character itself for any other (octal and hex: awkEscape). */
const AWK_ESCAPES: Readonly<Record<string, string>> = lookup({ n: "\n", t: "\t", r: "\r" });

/**
 * The escape after a backslash, at `at` in an awk string: its text and the index of its last
 * character. awk undoes octal `\NNN` (one to three digits) and hex `\xHH` (gawk and mawk
 * take two digits) as well as `\n`, `\t`: `"\162m -rf "` prints `rm -rf `.
 */
function awkEscape(program: string, at: number): { text: string; last: number } {
  const code = /^(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2})/.exec(program.slice(at, at + 3));
  if (code) return { text: codedCharacter(code[0]), last: at + code[0].length - 1 };
  const c = program[at] ?? "";
  return { text: AWK_ESCAPES[c] ?? c, last: at };
}

/** The text of an awk string (between its quotes) with its escapes undone as awk undoes them (awkEscape): `"\162m"` is `rm`. */
function awkUnescaped(text: string): string {
  if (!text.includes("\\")) return text;
  let out = "";
  for (let j = 0; j < text.length; j++) {
    if (text[j] !== "\\") out += text[j];
    else {
      const escape = awkEscape(text, j + 1);
      out += escape.text;
      j = escape.last;
    }
  }
  return out;
}

/** After these marks (or at the start) a `/` opens a regular expression, not a division. */
const OPERAND_BEFORE = /^[(,{};!~&|\n]$/;

/** An awk program's tokens in one pass: regular expressions and comments dropped, blanks between tokens skipped. */
function awkTokens(program: string): AwkToken[] {
  const out: AwkToken[] = [];
  for (let i = 0; i < program.length; i++) {
    const c = program[i]!;
    const last = out[out.length - 1];
    if (c === '"') {
      let text = "";
      let j = i + 1;
      for (; j < program.length && program[j] !== '"'; j++) {
        if (program[j] !== "\\") text += program[j];
        else {
          const escape = awkEscape(program, j + 1);
          text += escape.text;
          j = escape.last;
        }
      }
      out.push({ kind: "string", text });
      i = j;
    } else if (c === "#") {
      const nl = program.indexOf("\n", i);
      i = nl < 0 ? program.length : nl - 1;
    } else if (c === "/" && (last === undefined || (last.kind === "mark" && OPERAND_BEFORE.test(last.text)))) {
      let j = i + 1;
      while (j < program.length && program[j] !== "/" && program[j] !== "\n") j += program[j] === "\\" ? 2 : 1;
      i = j;
    } else if (/[\w$]/.test(c)) {
      let j = i + 1;
      while (j < program.length && /[\w$.]/.test(program[j]!)) j++;
      out.push({ kind: "word", text: program.slice(i, j) });
      i = j - 1;
    } else if (c === "\\" && program[i + 1] === "\n") i++;
    else if (!/[ \t\r]/.test(c)) out.push({ kind: "mark", text: c });
  }
  return out;
}

/**
 * Each print and printf of an awk program (one pass over its tokens, a statement at a time):
 * the strings it writes side by side, which awk joins (`print "r" "m " $0` starts `rm `), or
 * printf's format filled with the strings given for it, up to the first field or variable.
 */
function awkPrints(program: string): AwkPrint[] {
  if (!program.includes("print")) return [];
  const tokens = awkTokens(program);
  const out: AwkPrint[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind !== "word" || (t.text !== "print" && t.text !== "printf")) continue;
    // The statement ends at `;`, `}` or a line's end outside parentheses; a `>` or `|` there sends it elsewhere.
    let end = k + 1;
    let redirect = -1;
    for (let depth = 0; end < tokens.length; end++) {
      const u = tokens[end]!;
      if (u.kind !== "mark") continue;
      if (u.text === "(") depth++;
      else if (u.text === ")") depth--;
      else if (depth <= 0 && /^[;}\n]$/.test(u.text)) break;
      else if (depth <= 0 && redirect < 0 && (u.text === ">" || u.text === "|")) redirect = end;
    }
    const items = tokens.slice(k + 1, redirect < 0 ? end : redirect);
    const to = redirect < 0 ? undefined : `${tokens[redirect]!.text} ${tokens[redirect + 1]?.text ?? ""}`;
    out.push({ ...(t.text === "print" ? printStart(items) : printfStart(items)), ...(to !== undefined && !/^> \/dev\/stdout$/.test(to) ? { to } : {}) });
    k = end;
  }
  return out;
}

/** What `print a, b c` starts its line with: strings side by side joined, `,` a space, up to the first item that is not a string. */
function printStart(items: readonly AwkToken[]): { start: string; open: boolean } {
  let start = "";
  let k = items[0]?.text === "(" ? 1 : 0;
  for (; k < items.length; k++) {
    const t = items[k]!;
    if (t.kind === "string") start += t.text;
    else if (t.text === ",") start += " ";
    else break;
  }
  // A bare `print` prints the input's line.
  return { start, open: items.length === 0 || (k < items.length && items[k]!.text !== ")") };
}

/** What `printf fmt, a, b` starts its line with: the format, its conversions filled with the arguments that are strings, up to the first that is not. */
function printfStart(items: readonly AwkToken[]): { start: string; open: boolean } {
  const [format, ...args] = awkArguments(items);
  return format === undefined ? { start: "", open: true } : formatted(format, args);
}

/** The comma-separated expressions of a print (in parentheses or not): the text of each that is only strings side by side, undefined for any other. */
function awkArguments(items: readonly AwkToken[]): (string | undefined)[] {
  const bracketed = items[0]?.text === "(" && items[items.length - 1]?.text === ")";
  const list = bracketed ? items.slice(1, -1) : items;
  const out: (string | undefined)[] = [];
  let value: string | undefined = "";
  let empty = true;
  for (let k = 0, depth = 0; k <= list.length; k++) {
    const t = list[k];
    if (t === undefined || (depth === 0 && t.kind === "mark" && t.text === ",")) {
      out.push(empty ? undefined : value);
      value = "";
      empty = true;
      continue;
    }
    if (t.kind === "mark" && t.text === "(") depth++;
    else if (t.kind === "mark" && t.text === ")") depth--;
    empty = false;
    value = t.kind === "string" && value !== undefined && depth === 0 ? value + t.text : undefined;
  }
  return out;
}

/** A printf conversion: flags, a width (`*`: taken from an argument), a precision (`.*`: from an argument; `.` alone: 0), its letter. */
const CONVERSION = /%[-+ #0]*(\d+|\*)?(?:\.(\d*|\*))?([a-zA-Z])/g;

/** How many arguments one pass of a printf format takes: one a conversion, one more for each `*` (`%*s` takes a width, then the text). */
function formatArguments(format: string): number {
  let n = 0;
  for (const m of format.replace(/%%/g, "").matchAll(CONVERSION)) n += 1 + (m[1] === "*" ? 1 : 0) + (m[2] === "*" ? 1 : 0);
  return n;
}

/**
 * A printf format with its conversions filled from `args` (missing ones empty), up to the
 * first argument the text does not show: a `*` width or precision takes an argument first,
 * `%c` prints its argument's first character, a precision cuts `%s` and `%b` (`%.2s` of
 * `rmate` is `rm`, `%.0s` prints nothing), `%b` undoes its argument's escapes as echo does.
 */
function formatted(format: string, args: readonly (string | undefined)[]): { start: string; open: boolean } {
  let start = "";
  let next = 0;
  for (const m of format.matchAll(/%%|%[-+ #0]*(\d+|\*)?(?:\.(\d*|\*))?([a-zA-Z])|[^%]+|%/g)) {
    const [, width, precision, letter] = m;
    if (m[0] === "%%") start += "%";
    else if (letter === undefined) start += m[0];
    else {
      if (width === "*") next++;
      const cut = precision === "*" ? Number(args[next++] ?? "") : precision === undefined ? NaN : Number(precision);
      const value = next < args.length ? args[next] : "";
      next++;
      if (value === undefined) return { start, open: true };
      const text = letter === "c" ? value.slice(0, 1) : letter === "b" ? shellEscapes(value, true) : value;
      start += /^[sb]$/.test(letter!) && Number.isInteger(cut) && cut >= 0 ? text.slice(0, cut) : text;
    }
  }
  return { start, open: false };
}

/** Shell escapes printf (and `echo -e`) undoes: `\n`, `\t`, `\\`, a quote (octal and hex: codedCharacter). */
const SHELL_ESCAPES: Readonly<Record<string, string>> = lookup({ n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'", a: "", b: "", f: "", v: "", e: "" });

/** A backslash escape as printf's format and `$'…'` take it: octal `\NNN` (one to three digits), hex `\xHH`, or one character. */
const FORMAT_ESCAPE = /\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)/gs;
/** A backslash escape as echo (sh's, `echo -e`) and printf's `%b` take it: `\0` and up to three more octal digits (`\0162` is `r`), else as FORMAT_ESCAPE. */
const ECHO_ESCAPE = /\\(0[0-7]{0,3}|[1-7][0-7]{0,2}|x[0-9a-fA-F]{1,2}|.)/gs;

/** The character an escape's code names: octal digits (`162`, `0162`: `r`), `x` and hex digits (`x72`: `r`). */
function codedCharacter(code: string): string {
  return String.fromCharCode(code[0] === "x" ? parseInt(code.slice(1), 16) : parseInt(code, 8) & 255);
}

/**
 * Text with the shell's backslash escapes undone: `\n`, `\t`, a quote, octal and hex codes
 * (printf's format, `$'…'`; `echo`: as echo and `%b` read them, `\0NNN` too), so that
 * `printf '\162m -rf x'` is read as the `rm -rf x` it prints.
 */
function shellEscapes(text: string, echo = false): string {
  return text.includes("\\") ? text.replace(echo ? ECHO_ESCAPE : FORMAT_ESCAPE, (e, c: string) => (/^(?:[0-7]|x.)/.test(c) ? codedCharacter(c) : (SHELL_ESCAPES[c] ?? e))) : text;
}

/**
 * What `echo …` or `printf FORMAT ARGS…` (its words after the program) writes: echo's
 * words and a newline (`-n`: none; `-e`: escapes undone); printf's format filled with the
 * arguments, again while any are left, as a shell's printf does. Undefined when the text
 * would be longer than many times the words (a format repeated for thousands of arguments):
 * too long to read, it is not read as commands.
 */
function printedText(program: "echo" | "printf", words: readonly string[]): string | undefined {
  if (program === "echo") {
    let k = 0;
    while (/^-[neE]+$/.test(words[k] ?? "")) k++;
    const flags = words.slice(0, k).join("");
    const text = words.slice(k).join(" ");
    return (flags.includes("e") ? shellEscapes(text, true) : text) + (flags.includes("n") ? "" : "\n");
  }
  const k = words[0] === "--" ? 1 : 0;
  const format = words[k];
  if (format === undefined) return undefined;
  const args = words.slice(k + 1);
  const budget = 16 * words.reduce((n, w) => n + w.length + 1, 0) + 4096;
  const decoded = shellEscapes(format);
  const conversions = formatArguments(decoded);
  let text = "";
  // Once with no arguments; else again while arguments are left (a format with no conversions uses none).
  for (let used = 0; used === 0 || (conversions > 0 && used < args.length); used += Math.max(conversions, 1)) {
    text += formatted(decoded, args.slice(used, used + conversions)).start;
    if (text.length > budget) return undefined;
    if (conversions === 0) break;
  }
  return text;
}

/** The text sed puts at the start of its output lines: the replacements of its `s/^…/` commands (`s/^/rm /`), the text of `i\` and `a\`. */
function sedInserted(args: readonly string[]): string[] {
  const scripts = sedScripts(args);
  const out: string[] = [];
  for (const a of scripts) {
    // Only a replacement at the start of a line (`s/^/rm /`) starts the command; `s/$/.bak/` leaves the input's words first.
    for (const m of a.matchAll(/(?:^|[;\s{])s([^\w\s\\])\^(?:(?!\1)[^\\]|\\.)*\1((?:(?!\1)[^\\]|\\.)*)\1/g)) out.push(unescaped(m[2]!).replace(/&/g, ""));
    for (const m of a.matchAll(/(?:^|[;\s{])[ia](?:\\|\s)\s*(\S[^;]*)/g)) out.push(m[1]!);
  }
  return out;
}

/** `echo 'rm -rf /data' | sh`: the text echoed is the command the shell runs. */
const ECHOED_TO_SHELL = /\b(?:echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\1).)*)\1\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:[^\s/|;&()<>]*\/)*(?:sh|bash|zsh|dash|ksh)\b/g;

/** `echo '…' | reader …`, `printf '…' | reader`: the text (group 3) and the command after the pipe (group 4). */
const ECHOED_TO_READER = /\b(echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\2).)*)\2\s*\|(?!\|)\s*([^|;&\n]*)/gs;
/** A cheap test for ECHOED_TO_READER's readers behind a pipe. */
const PIPED_READER = /\|\s*(?:[^\s|;&]+\s+)*?(?:[^\s|;&]*\/)?(?:tclsh|wish|jimsh|expect|lua|luajit|R|Rscript|julia|guile|racket|ex|n?vim|redis-cli|mongosh|mongo)\b/;

/** A program given on stdin: `echo '…' | python3 [-]`, `printf '…' | node`, `python3 - <<< '…'`, `sh <<< '…'`. */
const STDIN_PROGRAM = /(?:\b(?:echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\1).)*)\1\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?((?:[^\s/|;&()<>]*\/)*(?:python[0-9.]*|node|ruby|perl|php))(?:\s+-)?\s*(?=$|[;&|)\n])|(?:^|[;&|(\n][ \t]*)((?:[^\s/|;&()<>]*\/)*(?:python[0-9.]*|node|ruby|perl|php|sh|bash|zsh|dash|ksh))(?:\s+-[a-z]*|\s+-s(?:\s+[^\s<>|;&()]+)*)?\s*0?<<<\s*(?:(?:\$(?="))?(["'])((?:(?!\5).)*)\5|(?!\$')((?:[^\s'"\\;&|()<>]|\\.)+)))/gs;

const NO_VARS: ReadonlyMap<string, string> = new Map();
const NO_PIPES: ReadonlySet<number> = new Set();

/**
 * How deep command lines inside command lines are read (`ssh h "bash -c '…'"`, a here-document in a
 * here-document's body): a bastion hop, a shell and a client are four. Each level reads only
 * the text the one above it handed on.
 */
const MAX_DEPTH = 5;

/**
 * A command line handed on past MAX_DEPTH (`sh -c` in `sh -c` six times, ssh hops quoted into
 * one word, eval of eval): not read, so code the plan does not show, as `sh -c "$(…)"` is.
 * Every reader hands on at `depth <= MAX_DEPTH`; the level after that is this finding.
 */
const NESTED_TOO_DEEP: CommandEffect = { risk: "write", destructive: true, what: `a command line nested more than ${MAX_DEPTH + 1} levels deep (code the plan does not show)` };

/**
 * What a command line sets up for the commands in it: the variables it sets to literals,
 * and whether it sources a file (`source ops.sh && tidy_all`: the functions it then calls
 * are code the plan does not show, read by their names as scripts are).
 */
interface Line {
  vars: ReadonlyMap<string, string>;
  sourced: boolean;
  /** A production name in a value the line assigns or exports (`export DB="host=db.prod…"`, `declare -x DB=prod-db`). */
  production?: string;
  /** The first such value whose variable the line expands (`export D=/srv/prod && cd "$D"`): the one FILE_ONLY programs are handed. */
  productionExpanded?: string;
  /** The variables the line expands (`$D`, `${D}`), when it names production. */
  expanded?: ReadonlySet<string>;
  /**
   * The line this one's text was taken from and is run with (`X=prod; eval "deploy --env \$X"`, `bash -c "…$X…"`):
   * eval runs it in the same shell, and a double-quoted `-c` line is expanded there first, so its variables and the
   * production they name hold in it too.
   */
  outer?: Line;
  /** The variables it exports (`export X=…`, `export X`, `declare -x`), or all it sets (`set -a`): those a child process sees. */
  exported?: ReadonlySet<string> | "all";
  /** Files it writes with echo or printf (`echo 'rm -rf x' > s.sh`), by path, and what they then hold. */
  written?: ReadonlyMap<string, string>;
}
const PLAIN_LINE: Line = { vars: NO_VARS, sourced: false };

/** A variable's literal value where `line` runs: set on the line itself, else on the line it was taken from. */
function lineVar(line: Line, name: string): string | undefined {
  for (let l: Line | undefined = line; l !== undefined; l = l.outer) {
    const value = l.vars.get(name);
    if (value !== undefined) return value;
  }
  return undefined;
}
/** A variable assigned on a command line and its value, as written (quoted or one word; substitutions kept). */
const ASSIGNED_VALUE = /(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;&|()]+)/g;
/** A variable expanded: `$D`, `${D}`, `${D:-x}`. */
const EXPANDED = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Programs that act only on the files their arguments name and read no variable that
 * names a host or a database: a production name the line assigns to a variable they are
 * not handed (`export NODE_ENV=production && rm -rf dist/tmp`) is not their target. (A
 * client, ssh, kubectl, a script or any other program may read it, and still counts it.)
 */
const FILE_ONLY = new Set(["rm", "rmdir", "unlink", "shred", "mv", "cp", "ln", "mkdir", "touch", "chmod", "chown", "chgrp", "truncate", "tee", "install"]);

/** Variables the shell itself expands with no `$`: `~` is HOME, a bare `cd` goes HOME, `cd -` to OLDPWD, `cd dir` looks in CDPATH. */
const SHELL_PATH_VARS: ReadonlySet<string> = new Set(["HOME", "OLDPWD", "CDPATH"]);
/** A line that reads variables by name (`"$(printenv D)"`, `${!X}`, `env | sed -n 's/^D=//p'`): any value it assigns may reach any program. */
const BY_NAME = /\bprintenv\b|\$\{!|(?:^|[\s;&|(])env[ \t]*(?:$|[;&|)\n])/;

/** What a line's assignments say of production: the first value that names it, and the first whose variable the line expands (one pass over each). */
function productionAssigned(text: string): Pick<Line, "production" | "productionExpanded" | "expanded"> {
  const named = [...text.matchAll(ASSIGNED_VALUE)].map((m) => [m[1]!, m[2]!.replace(/^(["'])(.*)\1$/s, "$2")] as const).filter(([, v]) => PRODUCTION.test(v));
  if (named.length === 0) return {};
  const expanded = new Set([...text.matchAll(EXPANDED)].map((m) => m[1]!));
  const production = named[0]?.[1];
  // A variable the shell expands without a `$`, or any variable on a line that reads them by name, counts as expanded.
  const byName = BY_NAME.test(text);
  const productionExpanded = named.find(([n]) => byName || SHELL_PATH_VARS.has(n) || expanded.has(n))?.[1];
  return { ...(production !== undefined ? { production } : {}), ...(productionExpanded !== undefined ? { productionExpanded } : {}), expanded };
}
/** A line's production fields alone. */
function productionOf({ production, productionExpanded, expanded }: Line): Pick<Line, "production" | "productionExpanded" | "expanded"> {
  return { ...(production !== undefined ? { production } : {}), ...(productionExpanded !== undefined ? { productionExpanded } : {}), ...(expanded !== undefined ? { expanded } : {}) };
}
const SOURCED = /(?:^|[;&|(\n][ \t]*)(?:source|\.)\s+(?!<\()\S/;
/** Programs whose `-n` is a dry run (`make -n clean`, `go clean -n`; in a bundle for make and rsync only: go's `-run` is not one; `git clean -n` is git's). */
const DRY_N = new Set(["make", "gmake", "go", "cargo", "brew", "rsync", "rclone", "s3cmd"]);

/** Binaries a package manager runs by name (`yarn turbo run clean`, `pnpm rimraf dist`), read as themselves. */
const RUN_BY_MANAGER = new Set(["turbo", "nx", "lerna", "rimraf", "del-cli", "trash", "prisma", "knex", "sequelize", "sequelize-cli", "typeorm", "drizzle-kit", "supabase", "wrangler", "vercel", "netlify", "firebase", "cdk", "serverless", "sls", "dbmate", "http-server", "serve"]);
/** yarn's own commands, which `yarn workspace NAME` runs in that workspace. */
const YARN_OWN = new Set(["add", "remove", "up", "upgrade", "install", "dlx", "exec", "run", "npm", "pack", "publish", "rebuild", "unplug", "dedupe", "patch", "version", "why", "info", "bin", "link", "unlink", "node"]);
const NO_VALUES: ReadonlySet<string> = new Set();

/** Shell keywords in front of a command (`then rm -rf x`, `do kubectl delete ...`, `! rm x`). */
const KEYWORDS = new Set(["then", "do", "else", "elif", "if", "while", "until", "!", "coproc", "{"]);

/** `npx -c 'rm -rf x'`, `npm exec --call='…'`: the option's value is a command line, read (true) in place of the rest. */
function npmCall(words: readonly string[], k: number, out: CommandEffect[], depth: number, line: Line): boolean {
  const w = words[k]!;
  const text = /^(?:-c|--call)$/.test(w) ? words[k + 1] : w.startsWith("--call=") ? w.slice(7) : undefined;
  if (text === undefined) return false;
  if (depth <= MAX_DEPTH) programText("npx -c", text, out, depth, line);
  return true;
}

/** The options that take a value, per wrapper (sudo's `-iu app`: a bundle ending in one of them). */
const WRAPPER_VALUES: Readonly<Record<string, RegExp>> = lookup({
  sudo: /^-(?:[a-zA-Z]*[ugCDhprTU]|-user|-group|-chdir|-role|-type|-prompt|-host|-close-from)$/,
  doas: /^-[uC]$/,
  env: /^(?:-[uC]|--unset|--chdir)$/,
  nice: /^(?:-n|--adjustment)$/,
  ionice: /^-[cnpP]$/,
  xargs: /^(?:-[aIdEnPLs]|--arg-file|--delimiter|--max-args|--max-procs|--max-lines|--max-chars|--replace|--eof)$/,
  exec: /^-a$/,
  stdbuf: /^-[ioe]$/,
  watch: /^(?:-n|--interval|-q|--equexit)$/,
  parallel: /^(?:-j|--jobs|-S|--sshlogin|-N|--max-args)$/,
  time: /^(?:-f|--format|-o|--output)$/,
});

/** `python3 [-u -B -W x] -m module` (or `-mmodule`): the module and the index of its word, else undefined. */
function pythonModule(words: readonly string[], i: number): { module: string; at: number } | undefined {
  for (let k = i + 1; k < words.length && words[k]!.startsWith("-"); k++) {
    const w = words[k]!;
    if (w === "-m") return words[k + 1] === undefined ? undefined : { module: words[k + 1]!.replace(/\.__main__$/, ""), at: k + 1 };
    if (/^-m./.test(w)) return { module: w.slice(2).replace(/\.__main__$/, ""), at: k };
    if (/^-[WX]$/.test(w)) k++;
    else if (/^-[a-zA-Z]*c$/.test(w)) return undefined;
  }
  return undefined;
}

/** A stage `| cat` (no file; `-` or `-u` at most) between two pipes: cat copies its stdin on, as if the stage were not there. */
const PASS_THROUGH_CAT = /(?<!\|)\|[ \t]*cat(?:[ \t]+-u?)*[ \t]*(?=\|(?!\|))/g;

/**
 * A stage `| xargs [options] sh -c` with no command string: xargs hands its input to the
 * shell as the command (`echo "rm -rf x" | xargs -0 sh -c`), so the stage is that shell
 * reading its input (group 1: what is kept of it, `| sh`).
 */
const XARGS_SHELL = /(\|[ \t]*)xargs(?:[ \t]+-[^\s|;&()<>]+)*[ \t]+((?:sudo[ \t]+)?(?:sh|bash|zsh|dash|ksh))[ \t]+-c[ \t]*(?=$|[|;&)\n])/g;

/** Stages that only hand their input on, and what is kept of each: a pass-through cat, nothing; xargs running a shell, the shell. */
const PASS_THROUGHS: ReadonlyArray<readonly [RegExp, (stage: RegExpMatchArray) => string]> = [
  [PASS_THROUGH_CAT, () => ""],
  [XARGS_SHELL, (stage) => `${stage[1]}${stage[2]}`],
];

/** `text` with each stage written as what is kept of it, padded to its length (offsets kept). */
function rewrittenStages(text: string, stages: readonly RegExpMatchArray[], kept: (stage: RegExpMatchArray) => string): string {
  const pieces: string[] = [];
  let at = 0;
  for (const m of stages) {
    pieces.push(text.slice(at, m.index), kept(m).padEnd(m[0].length, " "));
    at = m.index! + m[0].length;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

/** `text` and `live` (as a shell runs it, offsets kept) with the pass-through stages rewritten, found on `live`. */
function withoutPassThroughs(text: string, live: string): [string, string] {
  let [t, l] = [text, live];
  for (const [re, kept] of PASS_THROUGHS) {
    const stages = [...l.matchAll(re)];
    if (stages.length > 0) [t, l] = [rewrittenStages(t, stages, kept), rewrittenStages(l, stages, kept)];
  }
  return [t, l];
}

/** One-word commands of every shell, not a sourced file's functions (`clear` clears the screen). */
const TERMINAL_WORDS = new Set(["clear", "reset", "install", "import", "true", "false", "exit", "return", "set", "unset", "export", "shift", "wait", "trap", "read", "test"]);

/** A shell function's usual name: words joined by `_` or `-` (`tidy_all`, `purge-cache`). */
const FUNCTION_NAME = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+$/i;

/** The effects of every simple command in `text` that is not a plain read (`outer`: the line it was taken from, for eval and `-c`). */
export function commandEffects(source: string, depth = 0, outer?: Line): CommandEffect[] {
  if (depth > MAX_DEPTH) return source.trim() === "" ? [] : [{ ...NESTED_TOO_DEEP }];
  const out: CommandEffect[] = [];
  // What a shell runs of the line: not quoted text, comments, nor a body its reader does not run as commands.
  let live = source.includes("|") ? liveText(source.includes("<<") ? blankedBodies(source, hereInputs(source), new Set()) : source) : source;
  let text = source;
  // `echo … | cat | sh` and `echo … | xargs -0 sh -c` are `echo … | sh`.
  if (live.includes("cat") || live.includes("xargs")) [text, live] = withoutPassThroughs(text, live);
  const hidden = hiddenCode(text, live);
  let fed: ReadonlySet<number> = NO_PIPES;
  if (hidden) out.push(hidden);
  else if (depth <= MAX_DEPTH && text.includes("|")) fed = generatedForShell(text, live, out, depth);
  if (depth <= MAX_DEPTH) for (const m of text.matchAll(ECHOED_TO_SHELL)) if (!fed.has(m.index + m[0].lastIndexOf("|"))) out.push(...commandEffects(m[2]!, depth + 1));
  // `echo 'file delete -force x' | tclsh`, `echo FLUSHALL | redis-cli`, `printf '%%d\nwq\n' | ex -s f`: a reader of its own
  // language given its program on a pipe (SQL clients, interpreters, shells and sftp are read apart).
  if (depth <= MAX_DEPTH && text.includes("|") && PIPED_READER.test(text)) for (const m of text.matchAll(ECHOED_TO_READER)) {
    const words = splitCommands(m[4]!)[0] ?? [];
    const k = afterWrappers(words);
    const name = basename(words[k] ?? "");
    if (!(FOREIGN_PROGRAMS.has(name) || name === "redis-cli" || name === "mongosh" || name === "mongo" || (words[k] !== undefined && exOnStdin(words, k)))) continue;
    // (What echo or printf prints of it: its options before the quoted text, its escapes and printf's `%%`.)
    const options = m[0].slice(m[1]!.length, m[0].indexOf(m[2]!)).trim().split(/\s+/).filter(Boolean);
    const said = printedText(m[1] as "echo" | "printf", [...options, m[3]!]);
    if (said !== undefined) stdinInput(words.slice(k), said, false, out, depth);
  }
  // `echo 'rm -rf /x' | docker exec -i db sh`: the shell the container runs reads it.
  if (depth <= MAX_DEPTH && text.includes("|") && /docker|podman|nerdctl/.test(text)) for (const m of text.matchAll(ECHOED_TO_CONTAINER)) ansiProgram(splitCommands(m[3]!)[0] ?? [], m[2]!, out, depth);
  // `sh <<< "rm -rf /data"`, `echo "import shutil; …" | python3`, `python3 - <<< "…"`: the text
  // given on stdin is the program, read as if it were written with `-c` / `-e`.
  let wordEnd = 0;
  // Where the here-strings read here are (their `<<<`): hereInputs reads the others given to a shell.
  const stdinRead = new Set<number>();
  if (depth <= MAX_DEPTH) for (const m of text.matchAll(STDIN_PROGRAM)) {
    // A here-string of several pieces (`sh <<< 'ls'$'\n''rm -rf x'`) is read whole with the others (hereInputs); text
    // inside one is no command.
    if (m.index < wordEnd) continue;
    // (`sh <<< ${CMD:-'rm -rf x'}`: an expansion is one word, read whole, its quotes in it, by programText.)
    const expansion = m[7]?.startsWith("${") ? m.index + m[0].length - m[7].length : -1;
    if (m[4] !== undefined) {
      const word = hereWord(text, m.index + m[0].indexOf("<<<") + 3);
      if (word.pieces > 1 && expansion < 0) {
        wordEnd = word.end;
        continue;
      }
      stdinRead.add(m.index + m[0].indexOf("<<<"));
      // `sh -n <<< '…'`: a syntax check runs nothing.
      if (SHELLS.has(basename(m[4])) && SYNTAX_ONLY.test(m[0].slice(m[0].indexOf(m[4]) + m[4].length, m[0].indexOf("<<<")))) continue;
    }
    // (`sh <<< rm\ -rf\ x`: an unquoted here-string, its escapes undone.)
    // (Here-strings inside the expansion are its text: each is read once.)
    if (expansion >= 0) wordEnd = expansionEnd(text, expansion);
    const body = m[1] !== undefined ? m[2]! : expansion >= 0 ? text.slice(expansion, wordEnd) : (m[6] ?? unescaped(m[7]!));
    const code = /printf/.test(m[0]) ? body.replace(/\\n/g, "\n") : body;
    const name = basename(m[3] ?? m[4]!);
    // `sh <<< "$(cat steps.txt)"`: what a substitution in the double-quoted text prints is the program.
    if (m[5] === '"' && SUBSTITUTION.test(body)) {
      out.push({ risk: "write", destructive: true, what: `\`${name} <<< "$(…)"\` (code the plan does not show)` });
      continue;
    }
    const flag = SHELLS.has(name) || /^python/.test(name) ? "-c" : name === "php" ? "-r" : "-e";
    commandEffect([name, flag, code], out, depth + 1);
  }
  // `psql "$DB" <<'SQL' … SQL`, `mysql app <<< 'DROP TABLE t'`, `python3 - <<'PY' … PY`: what a SQL client or an
  // interpreter reads on stdin, read as if given with `-c`. (A shell's here-document needs nothing more: its lines are
  // lines of the text, read below as commands.)
  let shell = text;
  if (depth <= MAX_DEPTH && text.includes("<<")) {
    const inputs = hereInputs(text);
    for (const h of inputs) {
      if ((h.ansi || h.joined) && ansiProgram(h.words, h.body, out, depth, h.substituted === true)) continue;
      // `sudo sh <<< 'rm -rf x'`, `{ sh <<< '…'; }`, `sh /dev/stdin <<< '…'`, `docker exec -i db sh <<< '…'`: a quoted one
      // STDIN_PROGRAM does not read (it reads a shell standing first), given to a shell all the same.
      if (h.at !== undefined && !h.ansi && !h.joined && !h.apart && !stdinRead.has(h.at) && ansiProgram(h.words, h.body, out, depth, h.substituted === true)) continue;
      // `at now <<< $'rm -rf x'`, `at now <<< 'ls'$'\n''rm x'`: the job is a command line (AT_JOB reads a quoted one of one piece).
      if ((h.ansi || h.joined) && /^(?:at|batch)$/.test(basename(h.words[afterWrappers(h.words)] ?? ""))) {
        if (h.substituted) out.push({ risk: "write", destructive: true, what: '`at <<< "$(…)"` (code the plan does not show)' });
        else pushAll(out, commandEffects(h.body, depth + 1));
        continue;
      }
      // `<<< 'rm -rf x' sh`, `cat <<< 'rm -rf x' | sh`: a shell handed the here-string runs it (STDIN_PROGRAM reads `sh <<< '…'`).
      const reader = afterWrappers(h.words);
      if (h.apart && SHELLS.has(basename(h.words[reader] ?? ""))) commandEffect([basename(h.words[reader]!), "-c", h.body], out, depth + 1);
      else stdinInput(h.words, h.body, h.string, out, depth);
    }
    // A body of shell lines with here-documents of its own (`bash <<EOF` around `psql <<SQL`), and any body ssh's far end
    // runs: read as the command line it is, where its openers are found (`hereInputs` skips those inside a body), and
    // where ssh's host is the production one the commands run on (`ssh db.prod <<EOF`).
    const nested = inputs.filter((h) => h.span !== undefined && !notShell(h.words, h.rest ?? "") && (h.body.includes("<<") || sshHost(h.words) !== undefined));
    for (const h of nested) {
      const inner = commandEffects(h.body, depth + 1);
      const host = sshHost(h.words);
      if (host !== undefined && PRODUCTION.test(host)) for (const e of inner) e.production ??= host;
      pushAll(out, inner);
    }
    shell = blankedBodies(text, inputs, new Set(nested));
  }
  // `cat purge.sql | psql`, `echo "DROP TABLE t" | mysql`, `pg_dump a | psql b`: a client given its SQL on stdin.
  if (SQL_CLIENT_PIPED.test(text)) for (const m of text.matchAll(PIPED_SQL)) {
    const [, catted, , echoed, client, rest] = m;
    const name = basename(client!).replace(/\s+/g, " ");
    if (OWN_SQL[name in OWN_SQL ? name : ""]!.test(rest!) || (/^(?:sqlite3?|duckdb)$/.test(name) && rest!.trim().split(/\s+/).filter((w) => w && !w.startsWith("-")).length > 1)) continue;
    if (catted !== undefined) {
      const kind = sqlFileKind(catted);
      if (kind) out.push({ ...kind, what: `\`cat ${catted} | ${name}\`` });
    } else if (echoed !== undefined) {
      for (const e of sqlEffects(echoed, "strong")) out.push({ ...e, what: `\`| ${name} ${e.what.replace(/`/g, "")}\`` });
      clientCommands(name, echoed.replace(/\\n/g, "\n"), out, depth, (e, what) => void (e && out.push({ ...e, what: `\`${what}\`` })));
    }
    else out.push({ risk: "write", destructive: false, what: `\`| ${name}\`` });
  }
  if (depth <= MAX_DEPTH) for (const m of text.matchAll(CATTED_TO_SHELL)) if (!SYNTAX_ONLY.test(m[0].slice(m[0].lastIndexOf(m[2]!) + m[2]!.length))) shellStdin(`cat ${m[1]!} | ${m[2]!}`, m[1]!, out, depth);
  // `cat fix.sh | ssh host bash`, `echo 'rm -rf x' | ssh host`: what the far end reads on stdin; `echo 'rm old.csv' | sftp host`: sftp's own commands.
  if (depth <= MAX_DEPTH && (text.includes("ssh") || text.includes("sftp")) && text.includes("|")) for (const m of text.replace(/\\\n/g, "  ").matchAll(FED_TO_SSH)) {
    const [, file, echo, , quoted, command] = m;
    const said = quoted === undefined ? undefined : echo === "printf" || /^echo\s+-\w*e/.test(m[0].trim().replace(/^[;&|(\n\s]*(?:sudo\s+)?/, "")) ? quoted.replace(/\\n/g, "\n") : quoted;
    const words = splitCommands(command!)[0] ?? [];
    // sftp's commands on a pipe are read below, from any feeder.
    if (words.some((w) => basename(w) === "sftp")) continue;
    sshStdin(command!, said !== undefined ? { text: said } : { file: file! }, out, depth);
  }
  if (depth <= MAX_DEPTH && text.includes("sftp") && text.includes("|")) sftpFed(text.replace(/\\\n/g, "  "), live.replace(/\\\n/g, "  "), out, depth);
  if (depth <= MAX_DEPTH) for (const m of text.matchAll(BARE_ECHO_TO_SHELL)) if (!fed.has(m.index + m[0].lastIndexOf("|"))) out.push(...commandEffects(m[1]!.trim(), depth + 1));
  for (const m of text.matchAll(BARE_FILE_PROGRAM)) {
    const shown = `${m[1]!.replace(/\s+/g, " ")} $(${m[2]!.trim()})`;
    out.push({ risk: "write", destructive: true, what: `\`${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown}\` (code the plan does not show)` });
  }
  // `echo "rm -rf x" | at now`, `at now <<< "rm -rf x"`: the job is a command line.
  if (depth <= MAX_DEPTH) for (const m of text.matchAll(AT_JOB)) out.push(...commandEffects(m[2] ?? m[4]!, depth + 1));
  // `echo '* * * * * rm -rf x' | crontab -`, `crontab - <<< '@daily …'`: each job's command line, after its schedule.
  if (depth <= MAX_DEPTH && text.includes("crontab")) for (const m of text.matchAll(CRON_TABLE)) for (const job of cronJobs(m[2] ?? m[4]!)) pushAll(out, commandEffects(job, depth + 1));
  const own = text.includes("=") ? productionAssigned(text) : {};
  const exported = exportedVars(text);
  const written = text.includes(">") ? writtenFiles(text) : undefined;
  const line: Line = {
    ...(exported !== undefined ? { exported } : {}),
    ...(written !== undefined ? { written } : {}),
    vars: text.includes("=") || /\b(?:read|mapfile|readarray|set)\b/.test(text) ? assignedVars(text) : NO_VARS,
    sourced: SOURCED.test(text) || outer?.sourced === true,
    // What the line it was taken from says of production, unless this text names production itself (the outer line,
    // whose text holds this one, has counted its expansions: `export D=/srv/prod; eval "rm -rf \$D/tmp"`).
    ...(own.production === undefined && outer !== undefined ? productionOf(outer) : own),
    ...(outer !== undefined ? { outer } : {}),
  };
  // `${CMD}` is `$CMD` (the splitter reads braces as a group).
  const plain = shell.replace(LOOKED_UP, (_m, a: string | undefined, b: string | undefined) => a ?? b ?? "").replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, "$$$1");
  const run = depth <= MAX_DEPTH && (plain.includes("$(") || plain.includes("`") || plain.includes("<(")) ? substitutedLine(plain, out, depth, line, hidden !== undefined) : plain;
  for (const words of splitCommands(run)) commandEffect(words, out, depth, line);
  return out;
}

/** Programs that print a shell's own set-up for eval (`eval "$(ssh-agent -s)"`, `eval "$(pyenv init -)"`): what they print is theirs, not the plan's. */
const SHELL_SETUP: ReadonlySet<string> = new Set(["ssh-agent", "gpg-agent", "keychain", "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "direnv", "dircolors", "brew", "conda", "mamba", "micromamba", "minikube", "docker-machine", "opam", "zoxide", "starship", "fnm", "mise", "rtx", "luarocks", "register-python-argcomplete", "thefuck", "atuin"]);

/**
 * A word in front of a command's own (`sudo`, `A=1`, `then`, a wrapper's option and its value, chroot's directory,
 * timeout's duration): the word after it may still be the command. The state kept is the wrapper the words belong
 * to and the operands it still takes (`chroot#1`), so an option's value is looked up in its own wrapper's table
 * along a chain (`nice -n 5 sudo -u root $(echo rm) -rf x`).
 */
function prefixWord(word: string, seen: WordsSeen): { prefix: boolean; wrapper: string } {
  const state = /^([^#]*)(?:#(\d+))?$/.exec(seen.wrapper)!;
  const wrapper = state[1]!;
  const owed = Number(state[2] ?? 0);
  const values = (wrapper === "" ? undefined : prefixWrapper(wrapper)?.values) ?? /^-[ugn]$/;
  if (seen.count > 0 && seen.last.startsWith("-") && values.test(seen.last)) return { prefix: true, wrapper: seen.wrapper };
  if (KEYWORDS.has(word)) return { prefix: true, wrapper: "" };
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) return { prefix: true, wrapper: seen.wrapper };
  const own = owed > 0 ? undefined : prefixWrapper(basename(word));
  if (own !== undefined) return { prefix: true, wrapper: own.operands > 0 ? `${basename(word)}#${own.operands}` : basename(word) };
  if (seen.count > 0 && word.startsWith("-")) return { prefix: true, wrapper: seen.wrapper };
  if (owed > 0) return { prefix: true, wrapper: owed > 1 ? `${wrapper}#${owed - 1}` : wrapper };
  return { prefix: false, wrapper: seen.wrapper };
}

/** A wrapper a command stands after, read word by word: its options that take a value and its operands before the command. */
function prefixWrapper(name: string): { values: RegExp; operands: number } | undefined {
  if (name === "timeout") return { values: /^(?:-s|--signal|-k|--kill-after)$/, operands: 1 };
  const after = RUNS_AFTER[name];
  // (Not tmux's or screen's: a subcommand or a session comes first.)
  if (after !== undefined && after.sub === undefined && name !== "screen") return after;
  return WRAPPERS.has(name) || STAGE_WRAPPERS.has(name) ? { values: WRAPPER_VALUES[name] ?? /^-[ugn]$/, operands: 0 } : undefined;
}

/** The words before a substitution are a runner's that reads its words as a command line: `eval …`, `sh -c …`, `ssh host …`. */
function runnerArgument(before: WordsSeen): boolean {
  const first = basename(before.first);
  return first === "eval" || (SHELLS.has(first) && before.sawC) || ((first === "ssh" || first === "autossh") && before.count >= 2 && !before.last.startsWith("-"));
}

/** The reader whose program a process substitution is (`sh <(…)`, `bash -x <(…)`, `source <(…)`, `. <(…)`: "shell"; `python3 <(…)`: the interpreter), else undefined (`sh < <(…)` is read as stdin, `diff <(…)` as a file). */
function programFile(before: WordsSeen): "shell" | string | undefined {
  const first = basename(before.first);
  if (!(before.count === 1 || (before.last.startsWith("-") && before.last !== "-c"))) return undefined;
  return SHELLS.has(first) || first === "source" || first === "." ? "shell" : INTERPRETER.test(first) ? first : undefined;
}

/** What `$(echo …)` or `$(printf …)` prints (its last newlines cut, as a substitution does); undefined for any other command line. */
function printedOutput(inner: string): string | undefined {
  const commands = splitCommands(inner);
  const words = commands[0];
  if (commands.length !== 1 || words === undefined) return undefined;
  const program = basename(words[0]!);
  return program === "echo" || program === "printf" ? printedText(program, words.slice(1))?.replace(/\n+$/, "") : undefined;
}

/**
 * `line` with what its command substitutions run read, and the output of those in a command's place written in:
 * one in double quotes runs though the splitter keeps it in its word (`echo "$(rm -rf x)"`); one whose output is
 * the command, or the command line eval, `sh -c` or ssh runs (`$(echo rm) -rf x`, `eval $(printf 'rm %s' x)`,
 * `ssh host "$(printf …)"`, read there), is what echo or printf prints, a shell's set-up printed for eval, or else
 * code the plan does not show (`$(cat steps.txt)`, `ssh host "$(curl …)"`).
 */
function substitutedLine(line: string, out: CommandEffect[], depth: number, vars: Line, hidden: boolean): string {
  const found = substitutions(line, prefixWord).sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let at = 0;
  // Past the end of a substitution read as a command line of its own: those inside it were read there.
  let readTo = 0;
  for (const s of found) {
    if (s.start < readTo || !s.closed) continue;
    if (s.process) {
      const reader = s.wordStart ? programFile(s.before) : undefined;
      if (reader !== undefined) {
        const printed = s.nesting ? undefined : printedOutput(s.inner);
        // (`python3 <(echo '…')`: the interpreter's program, read as if given with `-c`.)
        if (printed !== undefined && reader !== "shell") commandEffect([reader, /^python/.test(reader) ? "-c" : reader === "php" ? "-r" : "-e", printed], out, depth + 1);
        else if (printed !== undefined) pushAll(out, commandEffects(printed, depth + 1));
        // (`bash <(curl …)`: hiddenCode has said so.)
        else if (!hidden) out.push(unshownOutput(s));
      }
      continue;
    }
    const runner = runnerArgument(s.before);
    // `eval "$(…)"`, `ssh host "…$(…)…"`: the runner reads its words, the substitution with them.
    if (runner && s.quoted) {
      readTo = s.end;
      continue;
    }
    // (One with others inside is not split again here: each piece of the line is split once, and the line stays linear.)
    if (s.wordStart && (runner || s.before.prefixOnly)) {
      const printed = s.nesting ? undefined : printedOutput(s.inner);
      if (printed !== undefined) {
        pieces.push(line.slice(at, s.start), printed);
        at = readTo = s.end;
        continue;
      }
      if (!SHELL_SETUP.has(basename(/^\s*([^\s;&|()<>`$]*)/.exec(s.inner)![1]!))) out.push(unshownOutput(s));
    }
    if (s.quoted) {
      pushAll(out, commandEffects(s.inner, depth + 1, vars));
      readTo = s.end;
    }
  }
  if (at === 0) return line;
  pieces.push(line.slice(at));
  return pieces.join("");
}

/** A substitution's output run as a command line, from a command the plan does not show the output of. */
function unshownOutput(s: Substitution): CommandEffect {
  const shown = s.inner.slice(0, 200).trim().replace(/\s+/g, " ");
  return { risk: "write", destructive: true, what: `\`$(${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown})\` (code the plan does not show)` };
}

/** A here-document's first line: `<<EOF`, `<<-'END'`, `<< "SQL"`, `<<\EOF` (not a here-string, not a shift `<< 2`). */
const HERE_DOC = /(?<!<)<<(-?)[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([A-Za-z_][\w.-]*))/g;
/** A here-string: `<<< 'DROP TABLE t'`, `<<< $'cd /x\nrm y'` (a `$'…'` string's escapes undone), `<<< rm\ x` (one word, its escapes undone). */
const HERE_STRING = /(?<!<)<<<[ \t]*(?:'([^'\n]*)'|\$?"((?:[^"\\\n]|\\.)*)"|\$'((?:[^'\\\n]|\\.)*)'|((?:[^\s'"\\;&|()<>$`]|\\.)+))/g;

/**
 * The here-documents and quoted here-strings of a command line: the words of the command
 * that reads each (the last command before it on its line; for `cat <<EOF | psql`, the one
 * cat's output is piped to) and its text. Each body is scanned once: an opener inside an
 * earlier body is text of that body, and one never closed runs to the end.
 */
function hereInputs(text: string): HereInput[] {
  const found: HereInput[] = [];
  let bodyEnd = 0;
  for (const m of text.matchAll(HERE_DOC)) {
    if (m.index < bodyEnd) continue;
    const lineEnd = text.indexOf("\n", m.index);
    // On the last line: no body follows, for this opener or any after it.
    if (lineEnd < 0) break;
    const delimiter = m[2] ?? m[3] ?? m[4]!;
    const lines: string[] = [];
    let at = lineEnd + 1;
    let closed = false;
    while (at <= text.length) {
      const nl = text.indexOf("\n", at);
      const stop = nl < 0 ? text.length : nl;
      const l = m[1] === "-" ? text.slice(at, stop).replace(/^\t+/, "") : text.slice(at, stop);
      at = stop + 1;
      if ((closed = l === delimiter)) break;
      lines.push(l);
    }
    bodyEnd = at;
    const rest = text.slice(m.index + m[0].length, Math.min(lineEnd, m.index + m[0].length + READER_SPAN));
    // A body never closed is not blanked (`blankedBodies`): its lines stay read as commands.
    found.push({ words: oneClient(stdinReader(text, m.index, m.index + m[0].length).words), body: lines.join("\n"), string: false, ...(closed ? { span: [lineEnd + 1, Math.min(at, text.length)] as [number, number] } : {}), rest });
  }
  let wordEnd = 0;
  for (const m of text.matchAll(HERE_STRING)) {
    // A `<<<` inside a here-string read whole is its text.
    if (m.index < wordEnd) continue;
    // `<<< 'ls'$'\n''rm -rf x'`: pieces side by side are one word, read whole (a word of one piece as the pattern reads it).
    const word = hereWord(text, m.index + 3);
    const joined = word.pieces > 1;
    if (joined) wordEnd = word.end;
    const end = joined ? word.end : m.index + m[0].length;
    const reader = stdinReader(text, m.index, end);
    const body = joined ? word.text : (m[1] ?? (m[2] !== undefined ? unescaped(m[2]) : m[3] !== undefined ? ansiC(m[3]) : unescaped(m[4]!)));
    found.push({
      words: oneClient(reader.words),
      body,
      string: true,
      at: m.index,
      ...(!joined && m[2] !== undefined && SUBSTITUTION.test(m[2]) ? { substituted: true } : {}),
      ...(joined ? { joined: true, ...(word.substituted ? { substituted: true } : {}) } : m[3] !== undefined ? { ansi: true } : {}),
      ...(reader.apart ? { apart: true } : {}),
    });
  }
  return found;
}

/** A here-string's word (`hereWord`): its text, where it ends, how many pieces it is made of, and whether a substitution's output is part of it. */
interface HereWord {
  text: string;
  end: number;
  pieces: number;
  substituted: boolean;
}

/**
 * The word after a here-string's `<<<` (`at`: just after it), as a shell reads one word:
 * quoted pieces and unquoted ones side by side, joined (`'ls'$'\n''rm x'` is `ls`, a newline,
 * `rm x`): `'…'` as written, `$'…'` with its escapes undone, `"…"` and `$"…"` with
 * theirs, unquoted text with its backslashes. It ends at a blank, an operator or a quote
 * never closed; a `$(…)` or backquote in it, or in a double-quoted piece, is output the plan
 * does not show. One pass over the word.
 */
function hereWord(text: string, at: number): HereWord {
  let i = at;
  while (text[i] === " " || text[i] === "\t") i++;
  let out = "";
  let pieces = 0;
  let plain = false;
  let substituted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) break;
      out += text.slice(i + 1, close);
      i = close + 1;
    } else if (c === "$" && text[i + 1] === "'") {
      let j = i + 2;
      while (j < text.length && text[j] !== "'") j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) break;
      out += ansiC(text.slice(i + 2, j));
      i = j + 1;
    } else if (c === '"' || (c === "$" && text[i + 1] === '"')) {
      const quoted = doubleQuoted(text, c === '"' ? i : i + 1);
      if (quoted.end >= text.length) break;
      out += quoted.text;
      substituted ||= SUBSTITUTION.test(quoted.text);
      i = quoted.end + 1;
    } else if ((c === "$" && text[i + 1] === "(") || c === "`") {
      // What the plan does not show ends what can be read of the word.
      substituted = true;
      pieces++;
      break;
    } else if (/[\s;&|()<>]/.test(c)) break;
    else {
      // Unquoted text: a backslash keeps the character after it (and joins a continued line).
      if (!plain) pieces++;
      plain = true;
      if (c === "\\") {
        if (text[i + 1] !== "\n") out += text[i + 1] ?? "";
        i += 2;
      } else {
        out += c;
        i++;
      }
      continue;
    }
    pieces++;
    plain = false;
  }
  return { text: out, end: Math.min(i, text.length), pieces, substituted };
}

/** The host of an ssh command's words (`ssh -p 22 ops@db.prod`), if they are one. */
function sshHost(words: readonly string[]): string | undefined {
  const k = words.findIndex((w) => basename(w) === "ssh");
  return k < 0 ? undefined : afterOptions(words.slice(k + 1), SSH_VALUES)[0];
}

/** `clickhouse client …` as the one program it is (its reader is named by both words). */
function oneClient(words: string[]): string[] {
  const k = words.findIndex((w, j) => basename(w) === "clickhouse" && words[j + 1] === "client");
  return k < 0 ? words : [...words.slice(0, k), "clickhouse client", ...words.slice(k + 2)];
}

interface HereInput {
  /** The words of the command that reads it. */
  words: string[];
  body: string;
  /** A here-string (`<<<`), not a here-document. */
  string: boolean;
  /** A here-string's `<<<`, where it is in the text. */
  at?: number;
  /** A `$'…'` here-string. */
  ansi?: boolean;
  /** A here-string of pieces side by side (`'ls'$'\n''rm x'`), read whole; STDIN_PROGRAM does not read it. */
  joined?: boolean;
  /** Such a here-string, or a double-quoted one, with a substitution's output in it (`'ls; '"$(cat f)"`). */
  substituted?: boolean;
  /** A here-string its reader does not stand right before (`<<< 'rm x' sh`, `cat <<< 'rm x' | sh`): STDIN_PROGRAM does not see it. */
  apart?: boolean;
  /** Where a closed here-document's body lies in the text (its lines and the delimiter's). */
  span?: [number, number];
  /** The rest of a here-document's first line. */
  rest?: string;
}

/**
 * The text with the bodies of here-documents blanked where their reader does not run them
 * as shell lines: a SQL client's or an interpreter's (read by `stdinInput`), and one only
 * shown (`cat <<EOF` to the terminal, `grep -q x <<EOF`, `wc -l <<EOF`), and those in `read`
 * (read apart). A body given to a shell, to `ssh`, or to cat writing a file (`cat <<EOF >
 * run.sh`, run later) stays, read as commands.
 */
function blankedBodies(text: string, inputs: readonly HereInput[], read: ReadonlySet<HereInput>): string {
  let out = "";
  let at = 0;
  for (const h of inputs) {
    if (h.span === undefined || (!read.has(h) && !notShell(h.words, h.rest ?? ""))) continue;
    out += text.slice(at, h.span[0]) + text.slice(h.span[0], h.span[1]).replace(/[^\n]/g, " ");
    at = h.span[1];
  }
  return at === 0 ? text : out + text.slice(at);
}

/** `echo '…' | docker exec -i db sh`: the text echoed to a container's command (ansiProgram reads it when that is a shell). */
const ECHOED_TO_CONTAINER = /\b(?:echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\1).)*)\1\s*\|\s*((?:sudo\s+)?(?:[^\s/|;&()<>]*\/)*(?:docker|podman|nerdctl)[ \t][^|;&\n]*)/g;

/** The text of a `$'…'` string (bash's ANSI-C quoting): `\\n`, `\\t`, `\\xHH`, `\\NNN` and the shell's other escapes undone. */
function ansiC(text: string): string {
  return shellEscapes(text);
}

/** A command line with its `$'…'` strings written as plain quoted ones (`'…'`, a quote inside as `'\\''`), for the splitter. */
function ansiQuoted(text: string): string {
  return text.includes("$'") ? text.replace(/\$'((?:[^'\\]|\\.)*)'/g, (_q, t: string) => `'${ansiC(t).replace(/'/g, "'\\''")}'`) : text;
}

/** A pipe (not `||`) and its reader's command, on the text a shell runs (quoted text blanked: the reader is looked for in the text). */
const PIPE_READER = /(?<!\|)\|(?!\|)[^|;&\n]*/g;

/** Programs that write nothing to their output, in a group piped into sftp or a shell: `(cd x; echo rm y)`. */
const SILENT = new Set(["cd", "sleep", "true", ":", "set", "export", "wait", "pushd", "popd"]);

/**
 * sftp's commands from the commands piped into it, there or at ssh's far end (`printf "rm
 * %s\n" a b | sftp h`, `(echo cd x; echo rm y) | sftp h`, `echo rm x | ssh jump 'sftp b'`):
 * what echo and printf print is read as its commands; a file cat hands on, any other
 * program's output, or a line whose command is a variable's, is code the plan does not show.
 * (`live`: the text as a shell runs it, offsets kept; a group's parentheses are paired once.)
 */
function sftpFed(text: string, live: string, out: CommandEffect[], depth: number): void {
  let groups: Map<number, number> | undefined;
  let last = -1;
  for (const m of live.matchAll(PIPE_READER)) {
    const said = text.slice(m.index + 1, m.index + m[0].length);
    if (!said.includes("sftp")) continue;
    // (The stages are apart: each is split once, however long.)
    const reader = sftpReader(splitCommands(said)[0] ?? []);
    if (reader === undefined) continue;
    const previous = last;
    last = m.index;
    if (sftpBatchFile(reader) !== undefined) continue;
    const end = beforeRedirects(live, m.index);
    let feeders: FeederCommand[];
    // A group (`( … )`, `{ …; }`) before the pipe: each of its commands; else the last command.
    const open = groupOpening(live, end, () => (groups ??= pairedGroups(live)));
    if (open !== undefined) {
      // One that holds an earlier pipe into sftp hands on that session's output.
      if (open < previous) {
        out.push({ risk: "write", destructive: true, what: "`( … ) | sftp` (code the plan does not show)" });
        continue;
      }
      feeders = feederCommands(text, live, open + 1, end - 1);
    } else {
      const start = commandStart(live, m.index, () => (groups ??= pairedGroups(live)), previous);
      // `echo "$(cat cmds.txt)" | sftp h`: what a substitution prints, the plan does not show.
      if (SUBSTITUTION.test(live.slice(start, m.index))) {
        out.push({ risk: "write", destructive: true, what: "`$(…) | sftp` (code the plan does not show)" });
        continue;
      }
      feeders = feederCommands(text, live, start, m.index).slice(0, 1);
    }
    for (const c of feeders) sftpFeeder(c.words, out, depth, c.elsewhere);
  }
}

/**
 * The program a command before a pipe runs (after its wrappers), where it stands among the
 * words, and its arguments; undefined when it hands the pipe nothing: no program, a silent
 * one, or its output sent to a file.
 */
function feederProgram(words: readonly string[], elsewhere: boolean): { k: number; program: string; args: string[] } | undefined {
  const k = afterWrappers(words);
  const program = basename(words[k] ?? "");
  if (program === "" || SILENT.has(program) || elsewhere) return undefined;
  return { k, program, args: words.slice(k + 1) };
}

/** A command before a pipe, and whether it sends its output to a file rather than down the pipe (`outputElsewhere`). */
interface FeederCommand {
  words: string[];
  elsewhere: boolean;
}

/**
 * The commands of `text.slice(from, to)` as a shell splits them (`2>&1` no separator, `$'…'`
 * undone, xargs' `{}` a word), each with whether it sends its output elsewhere, judged on
 * `live` (quoted text blanked), so that a quoted `'>/dev/null'` is a word echo prints, not a
 * redirect. When the two splits disagree, no command is taken to send it elsewhere.
 */
function feederCommands(text: string, live: string, from: number, to: number): FeederCommand[] {
  const commands = splitCommands(withoutDupes(ansiQuoted(bracesQuoted(text.slice(from, to), live.slice(from, to)))));
  const liveCommands = splitCommands(withoutDupes(bracesQuoted(live.slice(from, to), live.slice(from, to))));
  const aligned = liveCommands.length === commands.length;
  return commands.map((words, i) => ({ words, elsewhere: aligned && outputElsewhere(liveCommands[i]!) }));
}

/**
 * Whether a command's words (quoted text blanked) send its output to a file (`> log`,
 * `>>f`, `1> /dev/null`) instead of down the pipe after it; `> /dev/stdout` still feeds it.
 * (`>&2` and `&>` are blanked before the split: such a command is taken to feed the pipe.)
 */
function outputElsewhere(words: readonly string[]): boolean {
  return words.some((w, k) => {
    const m = /^1?>>?(.*)$/.exec(w);
    if (!m) return false;
    const target = m[1] || (words[k + 1] ?? "");
    return !/^\/dev\/(?:stdout|fd\/1)$/.test(target);
  });
}

/** A command substitution: `$(…)` or backticks. */
const SUBSTITUTION = /\$\(|`/;

/** A command line with `2>&1` and `&>` blanked: redirects, not the separators the splitter would cut at. */
const withoutDupes = (text: string): string => text.replace(/\d*>&\d*|&>>?/g, (r) => " ".repeat(r.length));

/** Where the command before a pipe at `at` ends: its trailing blanks and redirects (`2>&1`, `2>/dev/null`) aside (each scan stops at the command before). */
function beforeRedirects(live: string, at: number): number {
  let end = at;
  for (;;) {
    while (end > 0 && (live[end - 1] === " " || live[end - 1] === "\t")) end--;
    let start = end;
    while (start > 0 && !/[\s|;()]/.test(live[start - 1]!)) start--;
    if (start === end || !/^(?:\d*>>?&?|&>>?)\S*$/.test(live.slice(start, end))) return end;
    end = start;
  }
}

/**
 * Where the simple command that ends at `end` starts: after the last `;`, `|`, `&`, a line's
 * end, a parenthesis or a group's brace before it (not the `&` of `2>&1` or `&>`, not the
 * braces of `{}` or `${X}`, not a substitution's parentheses or backticks, paired by `pairs`),
 * and not before `floor`.
 */
function commandStart(live: string, end: number, pairs: () => ReadonlyMap<number, number>, floor: number): number {
  let k = end;
  while (k > 0) {
    const c = live[k - 1]!;
    // A substitution in the command (`ls $(pwd)`, `` ls `pwd` ``, `diff <(a) b`) is part of it; not read past `floor`
    // (the pipe read before, which such a substitution holds), so that no text is read twice.
    if (c === ")") {
      const open = pairs().get(k - 1);
      if (open === undefined || !/[$<>]/.test(live[open - 1] ?? "")) break;
      if (open - 1 <= floor) return floor + 1;
      k = open - 1;
      continue;
    }
    if (c === "`") {
      const open = live.lastIndexOf("`", k - 2);
      if (open < 0) break;
      if (open <= floor) return floor + 1;
      k = open;
      continue;
    }
    if (/[;|\n(]/.test(c) || (c === "&" && live[k - 2] !== ">" && live[k] !== ">")) break;
    if ((c === "{" && /\s/.test(live[k] ?? "")) || (c === "}" && /[\s;]/.test(live[k - 2] ?? ""))) break;
    k--;
  }
  return k;
}

/** The opening of a group (`( … )`, `{ …; }`) that ends at `end`, if one does: not a substitution's (`$(…)`, `<(…)`, `${X}`). */
function groupOpening(live: string, end: number, pairs: () => ReadonlyMap<number, number>): number | undefined {
  const c = live[end - 1];
  if (c !== ")" && c !== "}") return undefined;
  const open = pairs().get(end - 1);
  if (open === undefined || /[$<>=]/.test(live[open - 1] ?? "") || (c === "}" && !/\s/.test(live[open + 1] ?? ""))) return undefined;
  return open;
}

/** What one command piped into sftp hands it: echo's and printf's text, read as sftp's commands; else code the plan does not show (nothing for a silent command, cat's here-document, read where it is given, or a device). */
function sftpFeeder(words: readonly string[], out: CommandEffect[], depth: number, elsewhere: boolean): void {
  const feeder = feederProgram(words, elsewhere);
  if (feeder === undefined) return;
  const { k, program, args } = feeder;
  if (program === "cat") {
    const file = afterEachOption(args, NO_VALUES)[0];
    if (file === undefined || file.startsWith("<") || /^\/dev\//.test(file)) return;
    return void out.push({ risk: "write", destructive: true, what: `\`cat ${file} | sftp\` (code the plan does not show)` });
  }
  const printed = program === "echo" || program === "printf" ? printedText(program, args) : undefined;
  // `echo "$CMDS" | sftp h`: a command that is a variable's value.
  if (printed !== undefined && !/^[ \t]*[-@]*[^\s$`]*[$`]/m.test(printed)) {
    // `echo 'ls\nrm x'`: the escapes undone too, as sh's echo (dash's) undoes them.
    return sftpCommands(program === "echo" && printed.includes("\\") ? `${printed}\n${shellEscapes(printed, true)}` : printed, out, depth);
  }
  const shown = words.slice(k).join(" ");
  out.push({ risk: "write", destructive: true, what: `\`${shown.length > 40 ? `${shown.slice(0, 39)}…` : shown} | sftp\` (code the plan does not show)` });
}

/**
 * The words from sftp on, when a pipe's reader is sftp (`sudo sftp h`, `sshpass -p x sftp h`)
 * or ssh running it at the far end, through every hop (`ssh jump ssh b sftp c`, `ssh jump
 * 'sftp -b - b'`). A hop's words are read in place; a command line quoted into one word (a
 * program word with a blank in it) is split with the words after it, once per quoting.
 */
function sftpReader(first: readonly string[]): string[] | undefined {
  let words = first;
  let k = 0;
  for (let hops = 0; hops <= MAX_HOPS; hops++) {
    k = afterWrappers(words, k);
    if (basename(words[k] ?? "") === "sshpass") for (k++; words[k]?.startsWith("-"); ) k += RUNS_AFTER.sshpass!.values.test(words[k]!) ? 2 : 1;
    if (/[\s;&|()]/.test(words[k] ?? "")) {
      words = splitCommands(words.slice(k).join(" "))[0] ?? [];
      k = 0;
      continue;
    }
    const program = basename(words[k] ?? "");
    if (program === "sftp") return words.slice(k);
    if (program !== "ssh") return undefined;
    k = afterOptionsAt(words, k + 1, SSH_VALUES) + 1;
    if (k >= words.length) return undefined;
  }
  return undefined;
}

/** The opening parenthesis or brace of each closing one in `live` (text as a shell runs it), by index: paired in one pass. */
function pairedGroups(live: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const parens: number[] = [];
  const braces: number[] = [];
  for (let i = 0; i < live.length; i++) {
    const c = live[i];
    if (c === "(") parens.push(i);
    else if (c === "{") braces.push(i);
    else if (c === ")" && parens.length > 0) pairs.set(i, parens.pop()!);
    else if (c === "}" && braces.length > 0) pairs.set(i, braces.pop()!);
  }
  return pairs;
}

/** The batch file of `sftp -b FILE` (its commands are not on stdin then), unless it is stdin or a device. */
function sftpBatchFile(words: readonly string[]): string | undefined {
  for (let k = 1; k < words.length; k++) {
    const file = words[k] === "-b" ? words[k + 1] : /^-b./.test(words[k]!) ? words[k]!.slice(2) : undefined;
    if (file !== undefined && file !== "-" && !/^\/dev\//.test(file)) return file;
  }
  return undefined;
}

/**
 * sftp's commands, one a line (a leading `-` or `@` only quietens one): `rm`, `rmdir`
 * destroy on the other host, `put`, `rename`, `chmod`, `mkdir`, `ln`, `cp` change it; `get`
 * writes here; `!cmd` is a local shell command. The rest (`ls`, `cd`, `df`) look.
 */
function sftpCommands(text: string, out: CommandEffect[], depth: number): void {
  for (const raw of text.split("\n")) {
    const l = raw.trim().replace(/^[-@]+/, "");
    if (l.startsWith("!")) {
      if (depth <= MAX_DEPTH && l.length > 1) out.push(...commandEffects(l.slice(1), depth + 1));
      continue;
    }
    const verb = (/^\S+/.exec(l)?.[0] ?? "").toLowerCase();
    if (/^(?:rm|rmdir)$/.test(verb)) out.push({ risk: "external", destructive: true, what: `\`sftp ${verb}\`` });
    else if (/^(?:put|mput|reput|rename|chmod|chown|chgrp|mkdir|ln|symlink|cp|copy)$/.test(verb)) out.push({ risk: "external", destructive: false, what: `\`sftp ${verb}\`` });
    else if (/^(?:get|mget|reget|lmkdir)$/.test(verb)) out.push({ risk: "write", destructive: false, what: `\`sftp ${verb}\`` });
  }
}

/** Programs that show or count their input. */
const SHOWN = new Set(["cat", "grep", "egrep", "fgrep", "wc", "head", "tail", "less", "more", "sort", "uniq", "tr", "jq", "column", "nl"]);

/** Whether a here-document's reader does not run it as shell lines (`rest`: the rest of its first line). */
function notShell(words: readonly string[], rest: string): boolean {
  if (readerAt(words, false) >= 0) return true;
  // Shown, not kept in a file or handed on: `cat <<EOF > run.sh` may be run later, `cat <<EOF | sh` is.
  // (`cat <<EOF | grep -c x`: the pipe to the program that shows it is not handing it on.)
  const shown = basename(words[0] ?? "");
  const after = rest.replace(new RegExp(`^\\s*\\|\\s*(?:\\S*/)?${shown.replace(/[^\w-]/g, "")}\\b[^|>]*`), "");
  return SHOWN.has(shown) && !words.some((w) => /^\d?>/.test(w) || w === "tee") && !/[>|]/.test(after);
}

/** How far around a here-document's `<<` its reader is looked for: a line of thousands of them is read in one pass. */
const READER_SPAN = 400;

/** Whether a redirection after `before` (its line up to it) opens its command: nothing of the command stands before it. */
const leadsCommand = (before: string): boolean => /(?:^|[;&|({]|\b(?:then|do|else))\s*$/.test(before);

/** The reader of a here-document or here-string (`stdinReader`): its words, and whether it stands apart from the redirection. */
interface StdinReader {
  words: string[];
  /** Not right before the redirection: after it (`<<< 'rm a' sftp h`), or handed it by cat (`cat <<< '…' | sh`). */
  apart: boolean;
}

/**
 * The command that reads the here-document whose token is `text[from..to)`: the last one
 * before it on its line, the one after it when the redirection opens its command, or for
 * `cat`, the one cat's output is piped to after it.
 */
function stdinReader(text: string, from: number, to: number): StdinReader {
  // A line continued from the one before (`psql app \` then `<<SQL`), and `2>&1` / `&>` (not separators).
  const behind = text.slice(Math.max(0, from - READER_SPAN), from).replace(/\\\n/g, "  ").replace(/\d*>&\d*|&>>?/g, (m) => " ".repeat(m.length));
  const ahead = text.slice(to, to + READER_SPAN);
  const before = behind.slice(behind.lastIndexOf("\n") + 1);
  const after = ahead.includes("\n") ? ahead.slice(0, ahead.indexOf("\n")) : ahead;
  // `<<< 'rm a' sftp host`: the redirection before its command, which follows it.
  if (leadsCommand(before)) return { words: READER_NAME.test(after) ? (splitCommands(after)[0] ?? []) : [], apart: true };
  // No reader this module reads stdin for is named there: the line is not split.
  if (!READER_NAME.test(before)) return { words: [], apart: false };
  const commands = splitCommands(before);
  // A quoted command run elsewhere (`ssh db 'psql app'`, `su -c 'psql app'`) by its words.
  const words = (commands[commands.length - 1] ?? []).flatMap((w) => (/\s/.test(w) ? w.trim().split(/\s+/) : [w]));
  const piped = basename(words[0] ?? "") === "cat" ? /^[^|;&]*\|(?!\|)([^|;&]*)/.exec(after) : null;
  return piped ? { words: splitCommands(piped[1]!)[0] ?? [], apart: true } : { words, apart: false };
}

/** Where the reader stdinInput reads for is among `words` (-1: none). */
function readerAt(words: readonly string[], string: boolean): number {
  return words.findIndex((w, k) => SQL_CLIENTS.has(basename(w)) || STDIN_CLIENTS.has(basename(w)) || FOREIGN_PROGRAMS.has(basename(w)) || exOnStdin(words, k) || (!string && INTERPRETER.test(basename(w))) || (/^g?make$/.test(basename(w)) && makefileOnStdin(words, k)));
}

/** `ex -s file`, `vim -es file`, `nvim -Es`: an editor that reads its ex commands on stdin (the words after it are files to edit). */
function exOnStdin(words: readonly string[], k: number): boolean {
  const name = basename(words[k]!);
  return name === "ex" || (/^n?vim$/.test(name) && words.slice(k + 1).some((a) => /^-[a-zA-Z]*[eE][a-zA-Z]*$/.test(a)));
}

/** `make -f - …`, `make -f /dev/stdin`: make reads its makefile on stdin. */
function makefileOnStdin(words: readonly string[], k: number): boolean {
  return words.some((w, j) => j > k && (w === "-f" || w === "--file" || w === "--makefile") && STDIN_FILE.test(words[j + 1] ?? ""));
}

/** Data clients that read their commands on stdin, as their `--eval` or arguments; sftp its session's commands. */
const STDIN_CLIENTS = new Set(["redis-cli", "mongosh", "mongo", "sftp"]);

/**
 * Text on stdin read as what its reader takes it for: SQL for a SQL client that is given
 * none of its own, code for an interpreter given no script (`python3 - <<'PY'`). A
 * here-string to an interpreter is STDIN_PROGRAM's.
 */
function stdinInput(words: readonly string[], body: string, string: boolean, out: CommandEffect[], depth: number): void {
  const k = readerAt(words, string);
  if (k < 0 || body.trim() === "") return;
  const name = basename(words[k]!);
  const rest = words.slice(k + 1);
  if (name === "sftp") {
    if (sftpBatchFile(words.slice(k)) === undefined) sftpCommands(body, out, depth);
    return;
  }
  if (name === "redis-cli") {
    for (const l of body.split("\n")) if (l.trim()) commandEffect([...words.slice(k), ...l.trim().split(/\s+/)], out, depth + 1);
    return;
  }
  if (STDIN_CLIENTS.has(name)) return commandEffect([...words.slice(k), "--eval", body], out, depth + 1);
  // `ex -s f <<< $'%d\nwq'`: ex commands, one a line.
  if (exOnStdin(words, k)) {
    const commands: OptionCommand[] = [];
    exCommands(body, commands);
    return optionEffects(commands, out, depth);
  }
  // `tclsh <<< 'file delete -force x'`, `R --no-save <<< 'unlink(…)'`: the program, unless a script is named (then it is data).
  if (FOREIGN_PROGRAMS.has(name)) {
    if (rest.includes("-") || !rest.some((a) => !a.startsWith("-"))) optionEffects(foreignCode(name, body), out, depth);
    return;
  }
  // `make -f /dev/stdin <<< $'all:\n\trm -rf x'`: the makefile's recipes.
  if (/^g?make$/.test(name)) return commandEffect([name, "--eval", body], out, depth + 1);
  if (SQL_CLIENTS.has(name)) {
    // From the client on: `ssh db psql app <<SQL`, `docker exec -i db psql`, `sudo -u postgres psql` read as the client.
    // `-f -` and `-f /dev/stdin` read this input; client commands on lines of their own (`\set x`, `.headers on`,
    // `use db`, `GO`) end a statement.
    const { kept: client, found: stdinFile } = withoutStdinFile(words.slice(k));
    const own = !stdinFile && (/^(?:sqlite3?|duckdb)$/.test(name) ? rest.filter((a) => !a.startsWith("-")).length > 1 : OWN_SQL[name in OWN_SQL ? name : ""]!.test(rest.join(" ")));
    const sql = body.replace(/^([ \t]*(?:\\[a-zA-Z!]|\.[a-z]|use[ \t]+\S+[ \t]*$|go[ \t]*$).*)$/gim, "$1;");
    if (!own) commandEffect([...client, "-c", sql], out, depth + 1);
    return;
  }
  // `python3 report.py <<EOF`: the input is the script's data; `python3 - arg <<EOF`: the program, with arguments.
  if (!rest.includes("-") && rest.some((a) => !a.startsWith("-"))) return;
  commandEffect([name, name === "php" ? "-r" : /^python/.test(name) ? "-c" : "-e", body], out, depth + 1);
}

/**
 * A `$'…'` here-string, or one of several pieces, given to a shell or an interpreter with no
 * script (`sh <<< $'rm -rf x'`, `sh -s <<< 'ls'$'\n''rm x'`, `python3 - <<< $'…'`;
 * STDIN_PROGRAM reads the quoted forms of one piece): read as its program, or, when a
 * substitution's output is part of it, code the plan does not show. Whether it was one.
 */
function ansiProgram(words: readonly string[], body: string, out: CommandEffect[], depth: number, substituted = false): boolean {
  // (`{ sh <<< '…'; }`, `then sh <<< '…'`: the keyword opens the command.)
  let k = 0;
  while (KEYWORDS.has(words[k] ?? "")) k++;
  k = afterWrappers(words, k);
  const name = basename(words[k] ?? "");
  // `docker exec -i db sh <<< '…'`: the shell the container runs reads it.
  if (/^(?:docker|podman|nerdctl)$/.test(name)) return (containerCommand(words.slice(k + 1)) ?? []).some((c) => ansiProgram(c, body, out, depth, substituted));
  // `source /dev/stdin <<< '…'`: the shell itself runs it.
  const sourced = (name === "source" || name === ".") && STDIN_FILE.test(words[k + 1] ?? "");
  if (!SHELLS.has(name) && !INTERPRETER.test(name) && !sourced) return false;
  const args = sourced ? [] : words.slice(k + 1);
  // A script named reads no program from stdin; a shell's `-s` (its arguments after it) or an interpreter's `-` does, and so does `/dev/stdin`.
  const at = args.findIndex((a) => !a.startsWith("-"));
  // (`sudo sh -n <<< '…'`: a syntax check runs nothing.)
  if (SHELLS.has(name) && args.slice(0, at < 0 ? args.length : at).some((a) => /^-[a-z]*n[a-z]*$|^--noexec$/.test(a))) return true;
  if (at >= 0 && !STDIN_FILE.test(args[at]!) && !(SHELLS.has(name) ? args.slice(0, at).includes("-s") : args.includes("-"))) return true;
  if (substituted) out.push({ risk: "write", destructive: true, what: `\`${name} <<< "$(…)"\` (code the plan does not show)` });
  else commandEffect([sourced ? "sh" : name, sourced || SHELLS.has(name) || /^python/.test(name) ? "-c" : name === "php" ? "-r" : "-e", body], out, depth + 1);
  return true;
}

/** A client's words without its `-f -` or `-f /dev/stdin` (it reads its SQL from this input), and whether they had one. */
function withoutStdinFile(words: readonly string[]): { kept: string[]; found: boolean } {
  const kept: string[] = [];
  let found = false;
  for (let j = 0; j < words.length; j++) {
    const a = words[j]!;
    if (/^(?:-f|--file)$/.test(a) && STDIN_FILE.test(words[j + 1] ?? "")) j++;
    else if (!/^(?:-f|--file=)/.test(a) || !STDIN_FILE.test(a.replace(/^(?:-f|--file=)/, ""))) {
      kept.push(a);
      continue;
    }
    found = true;
  }
  return { kept, found };
}
const STDIN_FILE = /^(?:-|\/dev\/stdin)$/;

/** Interpreters that run the code they read on stdin. */
const INTERPRETER = /^(?:python[0-9.]*|node|ruby|perl|php)$/;

/** Any name `stdinInput` reads stdin for (SQL_CLIENTS, STDIN_CLIENTS, INTERPRETER), a SHOWN program, ssh (whose host a body runs on), a shell (`ansiProgram`) or at and batch: a cheap test before a line is split. */
const READER_NAME = new RegExp([...SQL_CLIENTS, ...STDIN_CLIENTS, ...SHOWN, ...FOREIGN_PROGRAMS, "python", "node", "ruby", "perl", "php", "ssh", "sh", "at", "stdin", "ex", "vim"].join("|"));


/** A SQL client at the end of a pipe: what feeds it (`cat F`, `echo "SQL"`, anything else), the client and its arguments. */
const PIPED_SQL = /(?:^|[|;&\n(])[ \t]*(?:cat\s+([^\s|;&<>]+)|(?:echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\2).)*)\2|[^|;&\n(]*[^|;&\n(\s])\s*\|(?!\|)\s*(?:sudo\s+(?:-\S+\s+)*)?((?:[^\s/|;&()<>]*\/)*(?:psql|mysql|mariadb|sqlite3?|duckdb|sqlcmd|clickhouse-client|clickhouse[ \t]+client))(?=[\s;&|)\n]|$)([^|;&\n]*)/g;

/** The options with which a client takes SQL of its own, not stdin (psql's `-e` and `-q` only echo or quieten). */
const OWN_SQL: Readonly<Record<string, RegExp>> = lookup({
  psql: /(?:^|\s)(?:-[cf]\S*|--(?:command|file)\b)/,
  mysql: /(?:^|\s)(?:-e\S*|--execute\b)/,
  mariadb: /(?:^|\s)(?:-e\S*|--execute\b)/,
  "": /(?:^|\s)(?:-[ceqQfi]\S*|--(?:command|execute|query|queries-file|file)\b)/,
});

const SQL_CLIENT_PIPED = /\|\s*(?:sudo\s+)?[\w./-]*(?:psql|mysql|mariadb|sqlite|duckdb|sqlcmd|clickhouse-client|clickhouse\s+client)/;

/** `$(which rm)`, `` `command -v rm` ``, `$(type -p rm)`: the program found on PATH, run in its place. */
const LOOKED_UP = /\$\(\s*(?:which|command\s+-v|type\s+-p)\s+([\w./+-]+)\s*\)|`\s*(?:which|command\s+-v|type\s+-p)\s+([\w./+-]+)\s*`/g;

/** The effects of one already tokenised command (an argv array). */
export function argvEffects(words: readonly string[]): CommandEffect[] {
  const out: CommandEffect[] = [];
  commandEffect([...words], out, 0);
  return out;
}

/** The first program `text` runs, after wrappers, for the cheap "is this a command?" test. */
export function firstProgram(text: string): string | undefined {
  const m = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*([A-Za-z0-9_./-]+)/.exec(text);
  return m ? basename(m[1]!) : undefined;
}

/**
 * The program of `eval TEXT` or `sh -c TEXT` (`runner`): read as the command line it is,
 * or, when it is only a variable the plan does not set (`eval "$CMD"`) or a file's content
 * (`bash -c "$(cat cmd.txt)"`), code the plan does not show. A variable the command line
 * sets to a literal (`CMD="rm -rf x"; eval "$CMD"`) is read as its value.
 */
function programText(runner: string, text: string, out: CommandEffect[], depth: number, line: Line): void {
  const expansion = DEFAULTED.exec(text.trim());
  // (Each expansion in an expansion's text is a level deeper: past the depth read, code the plan does not show.)
  if (expansion) return depth < MAX_DEPTH ? defaultedProgram(runner, expansion, out, depth, line) : void out.push({ ...NESTED_TOO_DEEP });
  const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])\}?$/.exec(text.trim());
  const known = variable ? lineVar(line, variable[1]!) : undefined;
  if (known !== undefined) return void out.push(...commandEffects(known, depth + 1, line));
  // A placeholder (`xargs -I{} sh -c "{}"`, `-I% ... "%"`) is the input's lines.
  if (variable || /^[^\w\s$"'`]{1,3}$/.test(text.trim()) || FILE_CONTENT.test(text)) {
    const shown = text.trim().replace(/\s+/g, " ");
    out.push({ risk: "write", destructive: true, what: `\`${runner} ${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown}\` (code the plan does not show)` });
    return;
  }
  // Read with the line's variables (`RM=rm; eval "\$RM -rf x"`) and the production they name.
  out.push(...commandEffects(text, depth + 1, line));
}

/** A word of variables and plain text only (`$a$b`, `/usr/bin/$a`): what the shell joins into one command word. */
const JOINED_WORD = /^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\}|[\w./-])+$/;

/** A parameter expansion that trims or replaces a pattern (`${X#pre}`, `${X##pre}`, `${X%suf}`, `${X%%suf}`, `${X/pat/rep}`, `${X//pat/rep}`), changes case (`${X^^}`, `${X,,}`) or takes a substring (`${X:1:2}`). */
const TRIMMED = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(##?|%%?|\/\/?|\^\^?|,,?|:(?=\s*-?\d))([^}]*)\}$/;

/** `value` as TRIMMED's operation leaves it, for a pattern of plain characters; undefined for a glob (not read here). */
function trimmedValue(value: string, op: string, operand: string): string | undefined {
  // `${X:1:2}`, `${X: -3}`: a substring; `${X^^}`, `${X,}`: the case changed (of every character, or the first).
  if (op === ":") {
    const m = /^\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$/.exec(operand);
    if (!m) return undefined;
    const from = Number(m[1]) < 0 ? Math.max(0, value.length + Number(m[1])) : Number(m[1]);
    const to = m[2] === undefined ? value.length : Number(m[2]) < 0 ? value.length + Number(m[2]) : from + Number(m[2]);
    return value.slice(from, Math.max(from, to));
  }
  if (op[0] === "^" || op[0] === ",") {
    if (operand !== "") return undefined;
    const change = (t: string): string => (op[0] === "^" ? t.toUpperCase() : t.toLowerCase());
    return op.length === 2 ? change(value) : change(value.slice(0, 1)) + value.slice(1);
  }
  const slash = op[0] === "/" ? operand.indexOf("/") : -1;
  const pattern = slash >= 0 ? operand.slice(0, slash) : operand;
  if (/[*?[\\]/.test(pattern)) return undefined;
  if (op[0] === "#") return value.startsWith(pattern) ? value.slice(pattern.length) : value;
  if (op[0] === "%") return value.endsWith(pattern) ? value.slice(0, value.length - pattern.length) : value;
  const replacement = slash >= 0 ? operand.slice(slash + 1) : "";
  return pattern === "" ? value : op === "//" ? value.split(pattern).join(replacement) : value.replace(pattern, () => replacement);
}

/** A parameter expansion with a text of its own: `${X:-default}`, `${X-…}`, `${X:=…}`, `${X=…}`, `${X:+alternate}`, `${X+…}` (and `${X:?message}`). */
const DEFAULTED = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-=+?])([\s\S]*)\}$/;

/**
 * What `${X:-default}` and its kin may give, where a command line is read from it: the variable (its value when the
 * line sets it, else a variable the plan does not set) for `-`, `=` and `?`, unless the line sets it to a value the
 * expansion takes (not empty after `:`); and the expansion's own text (quotes removed) for `-` and `=` when it is not
 * so set, for `+` when it may be (`?` has none: it stops the shell).
 */
function defaultedTexts([, name, op, word]: RegExpExecArray, line: Line): { variable: string | undefined; text: string | undefined } {
  const value = lineVar(line, name!);
  const set = value !== undefined && (value !== "" || !op!.startsWith(":"));
  const alternate = op!.endsWith("+");
  const text = op!.endsWith("?") ? undefined : (alternate ? value === undefined || set : !set) ? quoteRemoved(word!) : undefined;
  return { variable: alternate ? undefined : `$${name}`, text };
}

/** The program of `eval "${CMD:-rm -rf x}"`, `sh <<< ${CMD:+'…'}`: each text the expansion may give (defaultedTexts). */
function defaultedProgram(runner: string, expansion: RegExpExecArray, out: CommandEffect[], depth: number, line: Line): void {
  const { variable, text } = defaultedTexts(expansion, line);
  if (variable !== undefined) programText(runner, variable, out, depth, line);
  if (text !== undefined) programText(runner, text, out, depth + 1, line);
}

/** A substitution that is a file's content: `$(cat f)`, `$(< f)`, `$(head -n 5 f)`. */
const FILE_CONTENT = /^\s*\$\(\s*(?:<\s*\S+\s*|(?:cat|head|tail|sed|grep|awk|jq|cut)\b[^()|;&]*)\)\s*$/;

/** `NAME=value` set by the command line to a literal (quoted or one word), for `eval "$NAME"`. */
const ASSIGNED = /(?:^|[;&|\n(][ \t]*)(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"$`]*)"|'([^']*)'|([^\s"'$`;&|()]*))(?=\s*(?:$|[;&|\n)]))/g;

/**
 * How many ssh hops are followed to the command at the far end (`ssh jump ssh db …`): more
 * than a line holds in practice. Each hop is read in place, so a chain costs its length; the
 * bound only guards the loop.
 */
const MAX_HOPS = 100_000;

/** mosh's options that take a value as the next word (most are written `--ssh=…`). */
const MOSH_VALUES: ReadonlySet<string> = new Set(["-p", "--port", "--ssh", "--server", "--client", "--predict", "--family", "--bind-server", "--experimental-remote-ip"]);
/** The option of `crictl exec` that takes a value. */
const CRICTL_EXEC_VALUES: ReadonlySet<string> = new Set(["--timeout"]);
/** The options of `lxc exec` (and incus's) that take a value. */
const LXC_EXEC_VALUES: ReadonlySet<string> = new Set(["--env", "--cwd", "--user", "--group", "--mode", "--project"]);

/**
 * The command a runner of commands elsewhere is given, and the host it runs on: `mosh [options] host -- command`,
 * `lxc|incus exec instance [options] [--] command`, `crictl exec [options] container command`. Undefined for
 * any other program or subcommand (`lxc list`, `crictl ps`).
 */
function runElsewhere(program: string, args: readonly string[]): { command: string[]; host?: string } | undefined {
  if (program === "mosh") {
    const dash = args.indexOf("--");
    const host = afterOptions(args.slice(0, dash < 0 ? args.length : dash), MOSH_VALUES)[0];
    return { command: dash < 0 ? [] : args.slice(dash + 1), ...(host !== undefined ? { host } : {}) };
  }
  if ((program === "lxc" || program === "incus") && args[0] === "exec") {
    const dash = args.indexOf("--");
    return { command: dash >= 0 ? args.slice(dash + 1) : args.slice(afterOptionsAt(args, 2, LXC_EXEC_VALUES)) };
  }
  if (program === "crictl" && args[0] === "exec") return { command: args.slice(afterOptionsAt(args, 1, CRICTL_EXEC_VALUES) + 1) };
  return undefined;
}

/** ssh's options that take a value. */
const SSH_VALUES: ReadonlySet<string> = new Set(["-i", "-p", "-o", "-l", "-J", "-F", "-L", "-R", "-D", "-E", "-W", "-b", "-c", "-m", "-S", "-B", "-e", "-I", "-P", "-w"]);
/** autossh's: ssh's and its monitoring port. */
const AUTOSSH_VALUES: ReadonlySet<string> = new Set([...SSH_VALUES, "-M"]);

/**
 * What cat or echo hands to ssh (or sftp): `cat steps.txt | ssh host`, `cat fix.sh 2>/dev/null |
 * ssh host 'bash -s'`, `echo 'rm -rf x' | ssh host`: the file or the quoted text, then the
 * program's command line. (Read on the text with its continued lines joined.)
 */
const FED_TO_SSH = /(?:^|[;&|(\n][ \t]*)(?:sudo\s+)?(?:cat\s+([^\s|;&<>()]+)|(echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\3).)*)\3)(?:[ \t]+\d?>>?&?[^\s|;&()]+)*[ \t]*\|(?!\|)[ \t]*((?:(?:sudo|sshpass)(?:[ \t]+-[a-zA-Z]+(?:[ \t]+(?!-)[^\s|;&()]+)?)*[ \t]+)?(?:[^\s/|;&()<>]*\/)*(?:ssh|sftp)(?=[ \t]|$)[^|;&\n]*)/g;

/**
 * What the far end of ssh does with its stdin: `shell` when ssh is given no command or a
 * shell that reads one (`bash`, `bash -s arg`, `sudo su -`, `env A=1 bash`, `cd /srv && bash`),
 * `code` for an interpreter given none (`python3 -`), the client's words for a SQL client given
 * no SQL of its own (`psql app`); undefined for a command that takes it as data (`wc -l`).
 */
function sshStdinReader(command: string): { kind: "shell" | "code" } | { kind: "sql"; words: string[] } | undefined {
  let words = splitCommands(command)[0] ?? [];
  let at = words.findIndex((w) => basename(w) === "ssh") + 1;
  let remote: string[] = [];
  let k = 0;
  // Through every hop (`ssh jump ssh db bash`): the far end's ssh hands its stdin on to the next host.
  for (let hops = 0; ; hops++) {
    if (hops > MAX_HOPS) return undefined;
    const host = afterOptionsAt(words, at, SSH_VALUES);
    // `ssh -G host` prints its configuration, `ssh -V` its version: nothing runs.
    if (host >= words.length || words.slice(at, host).some((w) => /^-[a-zA-Z]*[GV]$/.test(w))) return undefined;
    if (host + 1 === words.length) return { kind: "shell" };
    // `ssh jump ssh db …`: the next hop's words, read in place (a chain of them stays linear).
    if (basename(words[host + 1]!) === "ssh") {
      at = host + 2;
      continue;
    }
    const commands = splitCommands(words.slice(host + 1).join(" "));
    remote = commands[commands.length - 1] ?? [];
    k = afterWrappers(remote);
    if (basename(remote[k] ?? "") !== "ssh") break;
    words = remote;
    at = k + 1;
  }
  const program = basename(remote[k] ?? "");
  const args = remote.slice(k + 1);
  // `su -`, `su - app`, `su --login`: a login shell reading stdin (unless given a command).
  if (program === "su") return args.some((a) => /^-[a-z]*c$|^--command/.test(a)) ? undefined : { kind: "shell" };
  if (SHELLS.has(program)) {
    for (const a of args) {
      if (a === "-s" || a === "--") return { kind: "shell" };
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) return undefined;
      if (!a.startsWith("-") && !a.startsWith("+")) return undefined;
    }
    return { kind: "shell" };
  }
  if (INTERPRETER.test(program)) return args.every((a) => a.startsWith("-") && !/^-[a-z]*[cme]$/.test(a)) ? { kind: "code" } : undefined;
  if (SQL_CLIENTS.has(program) && !OWN_SQL[program in OWN_SQL ? program : ""]!.test(args.join(" "))) return { kind: "sql", words: remote.slice(k) };
  return undefined;
}

/**
 * `file` or the quoted `text` on the stdin of ssh's far end: a shell's commands (a script
 * read by its name, as `ssh host < fix.sh` is; any other file code the plan does not show),
 * an interpreter's code, a SQL client's SQL (read by the file's name).
 */
function sshStdin(command: string, fed: { file: string } | { text: string }, out: CommandEffect[], depth: number): void {
  const reader = sshStdinReader(command);
  if (reader === undefined) return;
  if ("text" in fed) {
    if (reader.kind === "shell") out.push(...commandEffects(fed.text, depth + 1));
    else if (reader.kind === "sql") commandEffect([...reader.words, "-c", fed.text], out, depth + 1);
    return;
  }
  if (/^\/dev\//.test(fed.file)) return;
  if (reader.kind === "sql") {
    const kind = sqlFileKind(fed.file);
    if (kind) out.push({ ...kind, what: `\`cat ${fed.file} | ${basename(reader.words[0]!)}\`` });
    return;
  }
  if (reader.kind === "code") return void out.push({ risk: "write", destructive: true, what: `\`cat ${fed.file} | ssh\` (code the plan does not show)` });
  shellStdin(`cat ${fed.file} | ssh`, fed.file, out, depth);
}

/** `export A=1 B="two"`, `declare -x A=1`: a declaration of several variables (each read as ASSIGNED reads one). */
const DECLARED = /(?:^|[;&|\n(][ \t]*)(?:export|declare|local|readonly|typeset)(?:[ \t]+-[a-zA-Z]+)*((?:[ \t]+[A-Za-z_][A-Za-z0-9_]*=(?:"[^"$`]*"|'[^']*'|[^\s"'$`;&|()]*))+)(?=\s*(?:$|[;&|\n)]))/g;
const DECLARED_ONE = /([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"$`]*)"|'([^']*)'|([^\s"'$`;&|()]*))/g;

/** A disk or a partition written as a file (`/dev/sda`, `/dev/nvme0n1p1`, `/dev/mapper/vg-lv`), or the kernel's SysRq trigger. */
const DEVICE = /^\/dev\/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|loop\d|disk\/|mapper\/)|^\/proc\/sysrq-trigger$/;

/** `echo 'rm -rf x' > s.sh`, `printf '…' >> s.sh`: what echo or printf writes to a file (group 1 the program, 2 its words, 3 `>` or `>>`, 4 the file). */
const WRITTEN = /(?:^|[;&|(\n][ \t]*)(echo|printf)((?:[ \t]+(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s;&|<>()'"]+))*)[ \t]*(>>?)[ \t]*([^\s;&|<>()]+)/g;

/** A path as a script is run by it: `./s.sh` is `s.sh`. */
const scriptPath = (path: string): string => path.replace(/^(?:\.\/)+/, "");

/** The files a command line writes with echo or printf, and what they hold after it (`>` replaces, `>>` appends); undefined when none. */
function writtenFiles(text: string): Map<string, string> | undefined {
  let files: Map<string, string> | undefined;
  for (const m of text.matchAll(WRITTEN)) {
    const printed = printedText(m[1] as "echo" | "printf", splitCommands(m[2]!)[0] ?? []);
    if (printed === undefined) continue;
    files ??= new Map();
    const path = scriptPath(m[4]!);
    files.set(path, (m[3] === ">>" ? (files.get(path) ?? "") : "") + printed);
  }
  return files;
}

/**
 * What the line (or one it was taken from) wrote to the script at `path`, when it did; empty when it was read already
 * (a script run again does what it did: each is read once, and a line stays linear).
 */
function writtenScript(line: Line, path: string): string | undefined {
  for (let l: Line | undefined = line; l !== undefined; l = l.outer) {
    const text = l.written?.get(scriptPath(path));
    if (text === undefined) continue;
    const read = SCRIPTS_READ.get(l.written!) ?? new Set<string>();
    SCRIPTS_READ.set(l.written!, read);
    if (read.has(scriptPath(path))) return "";
    read.add(scriptPath(path));
    return text;
  }
  return undefined;
}
const SCRIPTS_READ = new WeakMap<ReadonlyMap<string, string>, Set<string>>();

/** `export A=1 B`, `declare -x A=1`, `typeset -gx A`: variables exported to the line's child processes (group 1: the names and values). */
const EXPORTED = /(?:^|[;&|\n(][ \t]*)(?:export|(?:declare|typeset)[ \t]+(?:-[a-zA-Z]+[ \t]+)*-[a-zA-Z]*x[a-zA-Z]*)((?:[ \t]+(?:-[a-zA-Z]+|[A-Za-z_][A-Za-z0-9_]*(?:=(?:"[^"]*"|'[^']*'|[^\s;&|()]*))?))+)/g;
/** `set -a`, `set -o allexport`: every variable set after it is exported. */
const ALL_EXPORTED = /(?:^|[;&|\n(][ \t]*)set[ \t]+(?:-[a-zA-Z]*a[a-zA-Z]*\b|-o[ \t]+allexport\b)/;

/** The variables a command line exports to its child processes, or all it sets; undefined when it exports none. */
function exportedVars(text: string): ReadonlySet<string> | "all" | undefined {
  if (!/export|declare|typeset|set/.test(text)) return undefined;
  if (ALL_EXPORTED.test(text)) return "all";
  const names = new Set<string>();
  for (const m of text.matchAll(EXPORTED)) for (const n of m[1]!.matchAll(/(?:^|[ \t])([A-Za-z_][A-Za-z0-9_]*)(?==|[ \t]|$)/g)) names.add(n[1]!);
  return names.size > 0 ? names : undefined;
}

/**
 * The line a child shell's command line (`bash -c '…'`) runs with: the variables exported to it by the lines it was
 * started from, and those assigned in front of it (`X=prod bash -c '…'`); not the others (a child shell does not see
 * `X=prod; bash -c '…$X'`), nor what they say of production.
 */
function childLine(line: Line, prefix: readonly string[], text: string): Line {
  // sudo, doas and pkexec start the program with an environment of their own (sudo's env_reset, its default): the
  // line's variables reach it only when kept (`sudo -E`, `--preserve-env[=A,B]`) or assigned after them (`sudo X=1 sh -c`).
  let reset = -1;
  for (const [k, w] of prefix.entries()) if (ENV_RESETTERS.has(basename(w))) reset = k;
  const kept = reset < 0 ? "all" : keptEnvironment(prefix.slice(reset + 1));
  const inherited = kept === "all" ? exportedLine(line) : keptLine(exportedLine(line), kept);
  const vars = new Map<string, string>();
  for (const a of prefix.slice(reset + 1)) if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) vars.set(a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1));
  const named = [...[...vars].filter(([, v]) => PRODUCTION.test(v)), ...inherited.named];
  // (All of it is the child's environment, handed on to its own children.)
  if (named.length === 0) return { vars, sourced: line.sourced, outer: inherited.line, exported: "all" };
  const expanded = new Set([...text.matchAll(EXPANDED)].map((m) => m[1]!));
  const byName = BY_NAME.test(text);
  const productionExpanded = named.find(([n]) => byName || SHELL_PATH_VARS.has(n) || expanded.has(n))?.[1];
  return { vars, sourced: line.sourced, outer: inherited.line, exported: "all", production: named[0]![1], expanded, ...(productionExpanded !== undefined ? { productionExpanded } : {}) };
}

/** The programs that start another with an environment of their own, not their caller's. */
const ENV_RESETTERS: ReadonlySet<string> = new Set(["sudo", "doas", "pkexec"]);

/** The variables sudo's options keep (`-E`, `--preserve-env`: all; `--preserve-env=A,B`: those), given its words after it. */
function keptEnvironment(options: readonly string[]): "all" | ReadonlySet<string> {
  const kept = new Set<string>();
  for (const o of options) {
    if (!o.startsWith("-")) break;
    if (/^-[a-zA-Z]*E[a-zA-Z]*$|^--preserve-env$/.test(o)) return "all";
    if (o.startsWith("--preserve-env=")) for (const n of o.slice(15).split(",")) kept.add(n);
  }
  return kept;
}

/**
 * What a line hands its child processes, its variables kept to `names`. Those naming production are still named: the
 * sudoers file may keep them (env_keep), and the plan does not show it.
 */
function keptLine(made: { line: Line; named: ReadonlyArray<readonly [string, string]> }, names: ReadonlySet<string>): { line: Line; named: ReadonlyArray<readonly [string, string]> } {
  return { line: { vars: new Map([...made.line.vars].filter(([k]) => names.has(k))), sourced: false, exported: "all" }, named: made.named };
}

/** What a line hands its child processes: a line of the variables it and the lines it was taken from export, and those naming production (made once per line). */
function exportedLine(line: Line): { line: Line; named: ReadonlyArray<readonly [string, string]> } {
  const known = EXPORTED_LINES.get(line);
  if (known !== undefined) return known;
  const vars = new Map<string, string>();
  for (let l: Line | undefined = line; l !== undefined; l = l.outer) {
    const exported = l.exported;
    if (exported !== undefined) for (const [k, v] of l.vars) if (!vars.has(k) && (exported === "all" || exported.has(k))) vars.set(k, v);
  }
  const made = { line: { vars, sourced: false, exported: "all" as const }, named: [...vars].filter(([, v]) => PRODUCTION.test(v)) };
  EXPORTED_LINES.set(line, made);
  return made;
}
const EXPORTED_LINES = new WeakMap<Line, { line: Line; named: ReadonlyArray<readonly [string, string]> }>();

/** The variables a command line sets to literals: alone (`CMD="rm x";`) or declared together (`export A=1 B=2`). */
function assignedVars(text: string): Map<string, string> {
  const vars = new Map([...text.matchAll(ASSIGNED)].map((m) => [m[1]!, m[2] ?? m[3] ?? m[4] ?? ""]));
  for (const d of text.matchAll(DECLARED)) for (const m of d[1]!.matchAll(DECLARED_ONE)) vars.set(m[1]!, m[2] ?? m[3] ?? m[4] ?? "");
  // `read -r cmd <<< 'rm -rf x'`, `mapfile -t a <<< '…'`: a variable set from a here-string; `set -- rm -rf x`: the positional words.
  if (/read|mapfile|set/.test(text)) {
    for (const m of text.matchAll(READ_INTO)) vars.set(m[1]!, m[2] ?? m[3] ?? unescaped(m[4]!));
    for (const m of text.matchAll(SET_ARGS)) vars.set("@", m[1]!.trim()).set("*", m[1]!.trim());
  }
  return vars;
}
/** `read [-r] NAME <<< text`, `mapfile -t NAME <<< text`, `readarray NAME <<< text` (one name; options with a value taken as `-p x`). */
const READ_INTO = /(?:^|[;&|\n(][ \t]*)(?:read|mapfile|readarray)(?:[ \t]+-[a-zA-Z]+(?:[ \t]+(?=[^\s;&|()<>-])(?![A-Za-z_][A-Za-z0-9_]*[ \t]*<<<)[^\s;&|()<>]+)?)*[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*<<<[ \t]*(?:'([^'\n]*)'|"([^"\n$`]*)"|((?:[^\s;&|()<>'"$`\\]|\\.)+))/g;
/** `set -- word…`: the positional parameters a line sets (`"$@"`, `$*`). */
const SET_ARGS = /(?:^|[;&|\n(][ \t]*)set[ \t]+--((?:[ \t]+[^\s;&|()<>]+)+)/g;

/** A script handed to a shell by `cat`: `cat purge.sh | bash` is `bash purge.sh`. */
const CATTED_TO_SHELL = /(?:^|[;&|(\n][ \t]*)(?:sudo\s+)?cat\s+([^\s|;&<>()]+)[ \t]*\|(?!\|)[ \t]*(?:(?:sudo|doas|env)(?:[ \t]+-[a-zA-Z]+(?:[ \t]+[a-z_][a-z0-9_-]*)?)*[ \t]+)?(?:[^\s/|;&()<>]*\/)*(sh|bash|zsh|dash|ksh)(?:[ \t]+[-+][a-zA-Z]+)*(?:[ \t]+--(?:[ \t]+[^\s|;&()]+)*)?[ \t]*(?=$|[;&|)\n])/g;

/** `echo rm -rf x | bash`: unquoted words echoed into a shell are its command line. */
const BARE_ECHO_TO_SHELL = /(?:^|[;&|(\n][ \t]*)echo[ \t]+([^\s"'|;&()<>$`-][^"'|;&()<>$`\n]*)\|[ \t]*(?:sudo[ \t]+)?(?:sh|bash|zsh|dash|ksh)\b/g;

/** `eval $(cat f)`, ``eval `cat f` ``, `bash -c "`cat f`"`: a file's content run, written without the quotes the splitter keeps together. */
const BARE_FILE_PROGRAM = /\b(eval|(?:sh|bash|zsh|dash|ksh)[ \t]+-[a-z]*c)[ \t]+(?:\$\(|["']?`)[ \t]*((?:cat|head|tail|sed|grep|awk|jq|cut)\b[^()`|;&\n]*|<[ \t]*[^\s()`|;&]+)/g;

/** A job given to `at` or `batch`: echoed into it, or as a here-string. */
const AT_JOB = /\b(?:echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\1).)*)\1\s*\|\s*(?:sudo\s+)?(?:\/usr\/bin\/)?(?:at|batch)\b|(?:^|[;&|(\n][ \t]*)(?:at|batch)\b[^<;&|\n()]*<<<\s*(["'])((?:(?!\3).)*)\3/g;

/** A crontab given on stdin: echoed or printed into `crontab -` (directly or from a group closed within 80 characters: linear), or a here-string. */
const CRON_TABLE = /\b(?:echo|printf)\s+(?:-\w+\s+)*(["'])((?:(?!\1).)*)\1[^|;&\n]{0,80}\|\s*(?:sudo\s+(?:-\S+\s+)*)?crontab\b|(?:^|[;&|(\n][ \t]*)crontab\b[^<;&|\n()]*<<<\s*(["'])((?:(?!\3).)*)\3/g;

/** The command lines of a crontab's text: each line after its five time fields or its `@daily`-like schedule (`\n` as printf writes it). */
function cronJobs(table: string): string[] {
  const jobs: string[] = [];
  for (const line of table.replace(/\\n/g, "\n").split("\n")) {
    const m = /^\s*(?:@\w+\s+|(?:\S+\s+){5})(\S.*)$/.exec(line);
    if (m && !line.trim().startsWith("#") && !/^\s*[A-Za-z_][A-Za-z0-9_]*=/.test(line)) jobs.push(m[1]!);
  }
  return jobs;
}

/**
 * A file a shell reads its program from on stdin (`cat F | bash`, `bash < F`): a script is
 * read by its name, as `bash F` is; any other file (`steps.txt`) holds commands the plan
 * does not show.
 */
function shellStdin(shown: string, file: string, out: CommandEffect[], depth: number): void {
  // `bash -s < /dev/null`: nothing to run.
  if (/^\/dev\//.test(file)) return;
  if (/\.(?:sh|bash|zsh|ksh)$/.test(file)) return commandEffect([file], out, depth + 1);
  out.push({ risk: "write", destructive: true, what: `\`${shown}\` (code the plan does not show)` });
}

/** What the command lines, hidden code and file effects a program's options or code name do (`depth`: the program's). */
function optionEffects(commands: readonly OptionCommand[], out: CommandEffect[], depth: number, line: Line = PLAIN_LINE): void {
  for (const c of commands) {
    if ("command" in c) pushAll(out, commandEffects(c.command, depth + 1, line));
    else if ("effect" in c) out.push({ risk: "write", destructive: c.effect.destructive, what: `\`${c.effect.what}\`` });
    else out.push({ risk: "write", destructive: true, what: `\`${c.unshown}\` (code the plan does not show)` });
  }
}

function commandEffect(words: string[], out: CommandEffect[], depth: number, line: Line = PLAIN_LINE): void {
  if (depth > MAX_DEPTH) {
    if (words.length > 0) out.push({ ...NESTED_TOO_DEEP });
    return;
  }
  let i = 0;
  // Wrappers and variable assignments in front of the program.
  for (;;) {
    const w = words[i];
    if (w === undefined) return;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || KEYWORDS.has(w)) {
      // `LD_PRELOAD=./x.so ls`, `env BASH_ENV=./x.sh bash -c …`: a library loaded into the program, a file bash runs
      // first: code the plan does not show, whatever the program is.
      if (LOADER_VARIABLES.test(w.slice(0, w.indexOf("="))) && /=\S/.test(w)) out.push({ risk: "write", destructive: true, what: `\`${w.length > 60 ? `${w.slice(0, 59)}…` : w}\` (code the plan does not show)` });
      i++;
    } else if (WRAPPERS.has(basename(w))) {
      const values = WRAPPER_VALUES[basename(w)] ?? /^-[ugn]$/;
      // `env -S "rm -rf x"`: the option's value is the command line.
      if (basename(w) === "env" && words[i + 1] === "-S" && words[i + 2] !== undefined && depth <= MAX_DEPTH) return void out.push(...commandEffects(words[i + 2]!, depth + 1));
      // (`env -S"rm -rf x"`, `env --split-string='rm -rf x'`: the same, attached.)
      const split = basename(w) === "env" ? /^(?:-S|--split-string=)(.+)$/s.exec(words[i + 1] ?? "") ?? (words[i + 1] === "--split-string" && words[i + 2] !== undefined ? [, words[i + 2]!] : undefined) : undefined;
      if (split && depth <= MAX_DEPTH) return void out.push(...commandEffects(split[1]!, depth + 1));
      const options = i + 1;
      i++;
      while (words[i]?.startsWith("-") && words[i] !== "--") i += values.test(words[i]!) ? 2 : 1;
      if (words[i] === "--") i++;
      // `sudo -s 'rm -rf x'`, `sudo -i '…'`: a shell runs the command as `-c`, one word of it a command line.
      if (basename(w) === "sudo" && words[i] !== undefined && words[i + 1] === undefined && /\s/.test(words[i]!) && words.slice(options, i).some((o) => /^-[a-zA-Z]*[si][a-zA-Z]*$|^--(?:shell|login)$/.test(o)) && depth <= MAX_DEPTH) {
        return programText("sudo -s", words[i]!, out, depth, line);
      }
    } else if (basename(w) === "timeout") {
      // `timeout -s KILL -k 5 10 cmd`: its options, then the duration.
      i++;
      while (words[i]?.startsWith("-")) i += /^(?:-s|--signal|-k|--kill-after)$/.test(words[i]!) ? 2 : 1;
      i++;
    }
    // `bundle exec fastlane supply`, `npx cdk destroy`, `pnpm exec prisma ...`, `npm exec rimraf`: the program is the word after.
    else if ((basename(w) === "bundle" || basename(w) === "pnpm" || basename(w) === "yarn") && words[i + 1] === "exec") i += 2;
    // `yarn turbo run clean`, `pnpm nx run web:clean`, `yarn rimraf dist`: a package's binary, run by the package manager.
    else if ((basename(w) === "yarn" || basename(w) === "pnpm") && RUN_BY_MANAGER.has(words[i + 1] ?? "")) i++;
    // `yarn run rimraf dist`, `yarn run -T rimraf dist`: such a binary (any other name is a script, read by its words below).
    else if (basename(w) === "yarn" && words[i + 1] === "run" && RUN_BY_MANAGER.has(words[afterOptionsAt(words, i + 2, NO_VALUES)] ?? "")) i = afterOptionsAt(words, i + 2, NO_VALUES);
    else if ((basename(w) === "yarn" || basename(w) === "pnpm") && words[i + 1] === "dlx") i += 2;
    else if (basename(w) === "npm" && (words[i + 1] === "exec" || words[i + 1] === "x")) {
      i += 2;
      while (words[i]?.startsWith("-") && words[i] !== "--") {
        if (npmCall(words, i, out, depth, line)) return;
        i += /^(?:-p|--package|-c|--call|-w|--workspace)$/.test(words[i]!) ? 2 : 1;
      }
      if (words[i] === "--") i++;
    }
    // `uv run python -c …`, `poetry run python …`: the program is the word after `run`.
    else if (/^(?:uv|poetry|pipenv|pdm|hatch|rye|conda|mamba|micromamba)$/.test(basename(w)) && words[i + 1] === "run") {
      i += 2;
      while (words[i]?.startsWith("-")) i += /^(?:-n|--name|-p|--prefix|--with|--python|-e|--env)$/.test(words[i]!) ? 2 : 1;
    }
    else if (/^(?:npx|bunx|pnpx)$/.test(basename(w))) {
      i++;
      while (words[i]?.startsWith("-")) {
        if (npmCall(words, i, out, depth, line)) return;
        i += /^(?:-p|--package|-c|--call)$/.test(words[i]!) ? 2 : 1;
      }
    }
    // `gdb -batch -ex run --args rm -rf x`: the program and its arguments after `--args`.
    else if (basename(w) === "gdb" && words.indexOf("--args", i + 1) > i) i = words.indexOf("--args", i + 1) + 1;
    // `screen -S work -X stuff "rm -rf x\n"`: text typed into the session's shell; `-X exec cmd` runs cmd; another `-X` command runs none.
    else if (basename(w) === "screen" && words.indexOf("-X", i + 1) > i) {
      const k = words.indexOf("-X", i + 1);
      const typed = words[k + 2];
      if (depth <= MAX_DEPTH && words[k + 1] === "stuff" && typed !== undefined) out.push(...commandEffects(typed.replace(/\\[nr]|\^M/g, "\n"), depth + 1));
      else if (depth <= MAX_DEPTH && (words[k + 1] === "exec" || words[k + 1] === "screen") && typed !== undefined) commandEffect(words.slice(k + 2), out, depth + 1, line);
      return;
    }
    // `tmux -L ops new -d "cmd"`, `tmux -S /tmp/s new-session …`: the server's options come before the subcommand; `tmux -c "cmd"` runs one.
    else if (basename(w) === "tmux" && words[i + 1]?.startsWith("-")) {
      let k = i + 1;
      while (words[k]?.startsWith("-")) {
        if (words[k] === "-c" && words[k + 1] !== undefined) {
          if (depth <= MAX_DEPTH) out.push(...commandEffects(words[k + 1]!, depth + 1));
          return;
        }
        k += /^-[SLfT]$/.test(words[k]!) ? 2 : 1;
      }
      // In place: a chain of them stays linear.
      words[k - 1] = w;
      i = k - 1;
    }
    // `systemd-run -p Nice=10 rm ...`, `chroot /mnt rm ...`, `flock /tmp/l rm ...`: the command after the wrapper's options and operands.
    else if (basename(w) in RUNS_AFTER) {
      const spec = RUNS_AFTER[basename(w)]!;
      // Its own options and operands come first: a `-c` further on is the command's (and a chain of wrappers stays linear).
      const rest = words.slice(i + 1, i + 12);
      // `su -c "..."`, `flock F -c "..."`, `script -c "..."`: the option's value is a command line.
      const c = spec.command ? rest.findIndex((a) => /^-[a-z]*c$|^--command(?:=|$)/.test(a)) : -1;
      if (c >= 0) {
        const text = rest[c]!.startsWith("--command=") ? rest[c]!.slice(10) : rest[c + 1];
        if (text !== undefined && depth <= MAX_DEPTH) programText(`${basename(w)} -c`, text, out, depth, line);
        return;
      }
      i += 1 + (spec.sub ?? 0);
      while (words[i] !== undefined && words[i]!.startsWith("-") && words[i] !== "--") i += spec.values.test(words[i]!) ? 2 : 1;
      if (words[i] === "--") i++;
      i += spec.operands;
      // `tmux new -d "rm -rf x"`: the command is one shell line.
      if (spec.line && words[i] !== undefined && depth <= MAX_DEPTH) {
        out.push(...commandEffects(words.slice(i).join(" "), depth + 1));
        return;
      }
    }
    // `php artisan migrate:fresh`, `sail artisan ...`, `php -d memory_limit=-1 artisan ...`: artisan is the program.
    else if (/^(?:php|sail)$/.test(basename(w)) && words.slice(i + 1, i + 4).includes("artisan")) i = words.indexOf("artisan", i + 1);
    // `python3 -m pip install x`, `python3 -u -m http.server`, `python3 -mhttp.server`: the module is the program.
    else if (/^python[0-9.]*$/.test(basename(w)) && pythonModule(words, i) !== undefined) {
      const m = pythonModule(words, i)!;
      i = m.at;
      words[i] = m.module;
    }
    // `python manage.py flush`, `node scripts/deploy.js`: the script is the program.
    else if (/^(?:python[0-9.]*|node|ruby|perl|php|Rscript|deno|bun|tsx|ts-node)$/.test(basename(w)) && words[i + 1] !== undefined && /^[\w./-]+\.(?:py|js|mjs|cjs|ts|rb|pl|php|R|r)$/.test(words[i + 1]!)) i++;
    // `uv pip install x`: pip's own command line.
    else if (basename(w) === "uv" && words[i + 1] === "pip") i++;
    // `yarn workspace web …`: yarn's own commands in that workspace (`add`, `run`, `dlx`) read as `yarn …`; any other
    // word is its script of that name or, with none, the binary (`yarn workspace web rimraf dist`), read as the binary first.
    else if (basename(w) === "yarn" && words[i + 1] === "workspace" && words[i + 3] !== undefined && depth <= MAX_DEPTH) {
      // `run` of a script keeps the workspace in what is shown (`yarn workspace web run clean`); of a binary, it is the binary.
      const script = words[i + 3] === "run" && !RUN_BY_MANAGER.has(words[afterOptionsAt(words, i + 4, NO_VALUES)] ?? "");
      if (script) break;
      if (YARN_OWN.has(words[i + 3]!)) {
        words[i + 2] = w;
        i += 2;
        continue;
      }
      const before = out.length;
      commandEffect(words.slice(i + 3), out, depth + 1, line);
      if (out.length > before) return;
      break;
    }
    // `yarn workspaces foreach -A run clean`: yarn's command line, in every workspace (read in place: a chain of them stays linear).
    else if (basename(w) === "yarn" && words[i + 1] === "workspaces" && words[i + 2] === "foreach") {
      let k = i + 3;
      for (; words[k]?.startsWith("-"); k += /^(?:--include|--exclude|--from|-j|--jobs)$/.test(words[k]!) ? 2 : 1) if (/^(?:-n|--dry-run)$/.test(words[k]!)) return;
      if (words[k] === undefined) return;
      words[k - 1] = w;
      i = k - 1;
    }
    // `lerna exec -- rm -rf dist`, `nx exec -- rm -rf dist`, `lerna exec --scope web 'rm -rf dist'`: the command line, in every package.
    else if ((basename(w) === "lerna" || basename(w) === "nx") && words[i + 1] === "exec") {
      const dashes = words.slice(i + 2, i + 14).indexOf("--");
      i = dashes >= 0 ? i + 2 + dashes + 1 : afterOptionsAt(words, i + 2, VALUE_FLAGS.lerna!);
      if (words[i] !== undefined && words[i + 1] === undefined && /\s/.test(words[i]!.trim())) {
        if (depth <= MAX_DEPTH) out.push(...commandEffects(words[i]!, depth + 1));
        return;
      }
    }
    // `clickhouse client --query …`: the client as one program.
    else if (basename(w) === "clickhouse" && words[i + 1] === "client") words.splice(i, 2, "clickhouse client");
    // `go run -tags postgres github.com/golang-migrate/migrate/v4/cmd/migrate … down`, `go run ./cmd/purge`: the command it builds, run.
    else if (basename(w) === "go" && words[i + 1] === "run") {
      const k = afterOptionsAt(words, i + 2, GO_BUILD_VALUES);
      // `go run -n`: the build's commands printed, nothing run.
      if (words[k] === undefined || words.slice(i + 2, k).includes("-n")) return;
      words[k] = goCommand(words[k]!);
      i = k;
    }
    else break;
  }
  // `echo 'rm -rf x' > s.sh; ./s.sh`, `source s.sh`: a script the line wrote is read as what it holds, not by its name.
  const script = line.written === undefined && line.outer === undefined ? undefined : writtenScript(line, /^(?:source|\.)$/.test(words[i]!) ? (words[i + 1] ?? "") : words[i]!);
  if (script !== undefined && depth <= MAX_DEPTH) return void pushAll(out, commandEffects(script, depth + 1));
  // `${CMD:-rm -rf x} args`: each command the expansion may give (`ssh host "${CMD:-…}"`).
  const defaulted = DEFAULTED.exec(words[i]!);
  if (defaulted && depth <= MAX_DEPTH) {
    const { variable, text } = defaultedTexts(defaulted, line);
    const rest = words.slice(i + 1);
    if (variable !== undefined) commandEffect([...words.slice(0, i), variable, ...rest], out, depth, line);
    if (text !== undefined) pushAll(out, commandEffects([text, ...rest].join(" "), depth + 1, line));
    return;
  }
  // `$CMD args`: the variable's value when the line sets it (`RM=rm; $RM -rf x`), else, for a name that says it holds a command, code the plan does not show.
  // `X=xrm; ${X#x} -rf y`, `${X/x/m}`: the value with its pattern removed or replaced, when the line sets it.
  const trimmed = TRIMMED.exec(words[i]!);
  if (trimmed && depth <= MAX_DEPTH) {
    const value = lineVar(line, trimmed[1]!);
    const result = value === undefined ? undefined : trimmedValue(value, trimmed[2]!, trimmed[3]!);
    if (result !== undefined) return void out.push(...commandEffects([result, ...words.slice(i + 1)].join(" "), depth + 1));
    if (value !== undefined) return void out.push({ risk: "write", destructive: true, what: `\`${words[i]!.slice(0, 60)}\` (code the plan does not show)` });
  }
  // `a=r; b=m; $a$b -rf x`: a command word joined from variables the line sets (and plain text), read as it comes out.
  if (depth <= MAX_DEPTH && words[i]!.includes("$") && JOINED_WORD.test(words[i]!) && !/^\$[A-Za-z_][A-Za-z0-9_]*$/.test(words[i]!)) {
    let known = true;
    // (`rm${IFS}-rf${IFS}/data`: IFS the line does not set is the shell's, a space, and the word is split there.)
    const joined = words[i]!.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => lineVar(line, name) ?? (name === "IFS" ? " " : ((known = false), "")));
    if (known) return void out.push(...commandEffects([joined, ...words.slice(i + 1)].join(" "), depth + 1));
  }
  // (`"${a[@]}"`, `"$@"`: an array's or the positional words, as the line sets them.)
  const held = /^\$\{?([A-Za-z_][A-Za-z0-9_]*|[@*])(?:\[[@*]\])?\}?$/.exec(words[i]!);
  if (held && depth <= MAX_DEPTH) {
    const set = lineVar(line, held[1]!);
    // (`IFS=,; cmd=rm,-rf,x; $cmd`: an unquoted value is split where the line's IFS says.)
    const ifs = set === undefined ? undefined : lineVar(line, "IFS");
    const value = ifs !== undefined && ifs !== "" ? set!.split("").map((ch) => (ifs.includes(ch) ? " " : ch)).join("") : set;
    if (value !== undefined) return void out.push(...commandEffects([value, ...words.slice(i + 1)].join(" "), depth + 1));
    if (/CMD|COMMAND|SCRIPT|ACTION|HOOK/i.test(held[1]!)) return void out.push({ risk: "write", destructive: true, what: `\`$${held[1]}\` (code the plan does not show)` });
  }
  // `npx rimraf@5`, `npx @scope/tool@latest`: the package's version is not its name.
  const program = basename(words[i]!).replace(/(.)@[^/@]*$/, "$1");
  const args = words.slice(i + 1);
  // `ssh -o ProxyCommand='…' host`, `git -c core.pager='…' log`, `tar --checkpoint-action=exec='…'`, `sed 's/^/rm /e'`: an
  // option's command line, run here (beside what the program itself does).
  if (OPTION_COMMAND_PROGRAMS.has(program) && depth <= MAX_DEPTH) {
    optionEffects(optionCommands(program, args), out, depth, line);
  }
  // `docker-compose exec web …`, `podman-compose run …`: compose's own program is `docker compose` (`podman compose`).
  if (program === "docker-compose" || program === "podman-compose") return commandEffect([...words.slice(0, i), program.slice(0, -8), "compose", ...args], out, depth, line);
  // `alias wipe='rm -rf'`: what the alias runs, read where it is defined.
  // `. /dev/stdin < steps.txt`: the shell sources the file (a script read by its name, any other code the plan does not show).
  if ((program === "source" || program === ".") && /^(?:\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(args[0] ?? "")) {
    const k = args.findIndex((a) => /^0?<(?!<)/.test(a));
    const file = k < 0 ? undefined : args[k]!.replace(/^0?</, "") || args[k + 1];
    if (file !== undefined && depth <= MAX_DEPTH) shellStdin(`${program} /dev/stdin < ${file}`, file, out, depth);
    return;
  }
  // `trap 'rm -rf x' EXIT`: the command line runs when the signal comes (`trap - EXIT` resets, `trap -p` prints).
  if (program === "trap") {
    const k = args[0] === "--" ? 1 : 0;
    if (args[k] !== undefined && args[k + 1] !== undefined && !/^-/.test(args[k]!) && depth <= MAX_DEPTH) programText("trap", args[k]!, out, depth, line);
    return;
  }
  if (program === "alias") {
    if (depth <= MAX_DEPTH) for (const a of args) if (a.includes("=")) out.push(...commandEffects(a.slice(a.indexOf("=") + 1), depth + 1));
    return;
  }
  // `eval "rm -rf /data"` runs its words as a command line.
  if (program === "eval") {
    if (args.length > 0 && depth <= MAX_DEPTH) programText("eval", args.join(" "), out, depth, line);
    return;
  }
  if (SHELLS.has(program)) {
    const c = args.findIndex((a) => /^-[a-z]*c$/.test(a));
    // `bash -n f`: a syntax check runs nothing.
    const at = args.findIndex((a) => !/^[-+][a-zA-Z]+$/.test(a) && a !== "--");
    if (args.slice(0, at < 0 ? args.length : at).some((a) => /^-[a-z]*n[a-z]*$/.test(a)) || depth > MAX_DEPTH) return;
    const first = at < 0 ? undefined : args[at];
    // (`bash -c -l '…'`: options after -c come before its command line.)
    const t = c < 0 ? -1 : args.findIndex((a, k) => k > c && !/^[-+][a-zA-Z]+$/.test(a));
    const text = t < 0 ? undefined : args[t]!;
    // `bash -c '…$X'`: a child shell, which sees only what is exported to it; `bash -c "…$X"` is expanded here first.
    if (text !== undefined) programText(`${program} -c`, text, out, depth, expandsHere(words, i + 1 + t) ? line : childLine(line, words.slice(0, i), text));
    // `bash < purge.sh`, `sh -s < steps.txt`: the program on stdin, a script read by its name as `bash purge.sh` is.
    else if (first === "<" && args[at + 1] !== undefined) shellStdin(`${program} < ${args[at + 1]}`, args[at + 1]!, out, depth);
    else if (first !== undefined && /^0?<[^<]/.test(first)) shellStdin(`${program} < ${first.replace(/^0?</, "")}`, first.replace(/^0?</, ""), out, depth);
    // `bash steps.txt`: a text file of commands.
    else if (first !== undefined && /\.txt$/.test(first)) shellStdin(`${program} ${first}`, first, out, depth);
    // `echo 'rm -rf x' > s.sh; bash s.sh`: a script the line wrote, read as what it holds.
    // `bash scripts/deploy.sh prod`: else the script, read by its name.
    else if (first !== undefined) {
      const script = writtenScript(line, first);
      if (script !== undefined) pushAll(out, commandEffects(script, depth + 1));
      else commandEffect(args.slice(at), out, depth + 1);
    }
    return;
  }
  if (FILE_SERVERS.has(program)) {
    // Bound to the loopback address (`--bind 127.0.0.1`, `-a localhost`) the files stay on the machine.
    const bind = args.findIndex((a) => /^(?:-b|--bind|-a|--address)$/.test(a));
    if (args.some((a) => /^(?:-h|--help)$/.test(a)) || (bind >= 0 && /^(?:127\.|localhost$|::1$|\[::1\]$)/.test(args[bind + 1] ?? ""))) return;
    out.push({ risk: "external", destructive: false, what: `\`${program}\` (serves files to the network)` });
    return;
  }
  if (program === "ssh" || program === "autossh") {
    // `ssh jump ssh db rm -rf x`: each hop's words in place (a chain of them stays linear, and is not cut at MAX_DEPTH);
    // the production host nearest the command among them is where it runs. ssh reads options after the host too
    // (`ssh host -t sudo …`, `ssh host -- rm …`): the command starts after them.
    let at = afterOptionsAt(words, i + 1, program === "autossh" ? AUTOSSH_VALUES : SSH_VALUES);
    let next = afterOptionsAt(words, at + 1, SSH_VALUES);
    let host = PRODUCTION.test(words[at] ?? "") ? words[at] : undefined;
    for (let hops = 0; hops < MAX_HOPS && basename(words[next] ?? "") === "ssh"; hops++) {
      at = afterOptionsAt(words, next + 1, SSH_VALUES);
      next = afterOptionsAt(words, at + 1, SSH_VALUES);
      if (PRODUCTION.test(words[at] ?? "")) host = words[at];
    }
    const rest = [words[at] ?? "", ...words.slice(next)];
    // `ssh host < steps.txt`: the remote shell's commands come from a file.
    const stdin = rest[1] === "<" ? rest[2] : /^0?<[^<]/.test(rest[1] ?? "") ? rest[1]!.replace(/^0?</, "") : undefined;
    if (stdin !== undefined && /^\/dev\//.test(stdin)) return;
    if (stdin !== undefined && depth <= MAX_DEPTH) return shellStdin(`ssh < ${stdin}`, stdin, out, depth);
    if (rest.length > 1 && depth <= MAX_DEPTH) {
      const inner = commandEffects(rest.slice(1).join(" "), depth + 1);
      // `ssh db01.prod.internal "rm -rf ..."`: the host is where the command runs.
      if (host !== undefined) for (const e of inner) e.production ??= host;
      out.push(...inner);
    }
    return;
  }
  // `mosh host -- rm -rf /x`, `lxc exec web -- rm -rf /x`, `crictl exec web rm -rf /x`: a command run where it is (another
  // host, a container that is there) and nothing else, as ssh and `docker exec` are: its effect is the command's.
  const elsewhere = runElsewhere(program, args);
  if (elsewhere !== undefined) {
    if (elsewhere.command.length > 0 && depth <= MAX_DEPTH) {
      const inner: CommandEffect[] = [];
      commandEffect(elsewhere.command, inner, depth + 1, line);
      if (elsewhere.host !== undefined && PRODUCTION.test(elsewhere.host)) for (const e of inner) e.production ??= elsewhere.host;
      pushAll(out, inner);
    }
    return;
  }
  const dry = args.some((a) => /^--dry-run(?:=(?!none)|$)|^--what-if$|^--check$/.test(a)) || (DRY_N.has(program) && args.some((a) => a === "-n" || (/^(?:g?make|rsync)$/.test(program) && /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a)) || (/^g?make$/.test(program) && /^(?:--just-print|--recon|-q|--question)$/.test(a))));
  // Named by the command's own words, by an assignment in front of it (`DATABASE_URL=…prod… goose reset`), or by a variable the line sets.
  // For a program that reads only its arguments (FILE_ONLY), only a variable the line expands hands it one.
  const fileOnly = FILE_ONLY.has(program);
  const production =
    args.find((a) => PRODUCTION.test(a)) ??
    words.slice(0, i).find((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a) && PRODUCTION.test(a.slice(a.indexOf("=") + 1)) && (!fileOnly || line.expanded?.has(a.slice(0, a.indexOf("="))) === true)) ??
    (fileOnly ? line.productionExpanded : line.production);
  const push = (e: Effect, what: string): void => {
    if (!e || dry) return;
    const effect: CommandEffect = { ...e, what: `\`${what}\`` };
    if (production !== undefined) effect.production = production;
    out.push(effect);
  };
  // `> file` writes whatever the program is (not `> /dev/null`, not `2>&1`).
  const redirect = words.findIndex((w, k) => {
    const m = /^\d?>>?(.*)$/.exec(w);
    if (!m) return false;
    const target = m[1] || words[k + 1] || "";
    // An empty target is `2>&1`, which the splitter cut at the `&`.
    return target !== "" && !/^&|^\/dev\/(?:null|stdout|stderr|tty)$/.test(target);
  });
  if (redirect >= 0 && !dry) {
    const w = words[redirect]!;
    const target = /^\d?>>?$/.test(w) ? (words[redirect + 1] ?? "") : w.replace(/^\d?>>?/, "");
    // Onto a disk (`> /dev/sda`) it overwrites what the disk holds; into `/proc/sysrq-trigger` it reboots or halts the machine.
    out.push({ risk: "write", destructive: DEVICE.test(target), what: `\`${/^\d?>>?$/.test(w) ? `${w} ${words[redirect + 1]}` : w}\`` });
  }
  // `cp /dev/zero /dev/sda`, `tee /dev/nvme0n1`: a disk written over.
  if (!dry && (program === "cp" || program === "tee" || program === "install" || program === "mv") && args.some((a) => DEVICE.test(a))) push(D, `${program} ${args.find((a) => DEVICE.test(a))}`);
  // `python3 -c "import shutil; shutil.rmtree(...)"`, `node -e ...`: the code, read by its calls.
  const inline = depth <= MAX_DEPTH ? inlineCode(program, args) : undefined;
  if (inline) {
    // The commands the code runs are reported as themselves (`kubectl delete`), its own calls under the interpreter's name.
    const effects = codeEffects(
      inline.code,
      inline.language,
      (line) => void out.push(...(dry ? [] : commandEffects(line, depth + 1))),
      (argv) => void (dry || commandEffect(argv, out, depth + 1)),
    );
    for (const e of effects) push(e, `${program} ${e.what}`);
  }
  const sub = subcommands(program, args);
  const s0 = sub[0] ?? "";
  switch (program) {
    case "rm": {
      const flags = args.filter((a) => /^-[a-zA-Z]+$/.test(a)).join(" ");
      return push(D, flags ? `rm ${flags}` : "rm");
    }
    case "kubectl":
    case "oc": {
      if (!s0 || KUBE_READ.has(s0) || (s0 === "rollout" && /^(?:status|history)$/.test(sub[1] ?? ""))) return;
      // `kubectl exec web-0 -- rm -rf /data`, `kubectl run x --image=alpine -- …`, `kubectl debug … -- …`: what the pod
      // runs after `--` is read as it is, beside the exec (external: the cluster's), as a container's command is.
      const dash = /^(?:exec|run|debug)$/.test(s0) ? args.indexOf("--") : -1;
      if (dash >= 0 && args[dash + 1] !== undefined && depth <= MAX_DEPTH) {
        const inner: CommandEffect[] = [];
        commandEffect(args.slice(dash + 1), inner, depth + 1, line);
        if (production !== undefined) for (const e of inner) e.production ??= production;
        pushAll(out, inner);
        // An exec runs the command in a pod that is there, and nothing else: its effect is the command's (`ssh host …`).
        if (s0 === "exec") return;
      }
      // `apply --prune` deletes what the manifests no longer name; `replace --force` deletes and re-creates.
      const deletes = (s0 === "apply" && args.some((a) => /^--prune(?:=true)?$/.test(a))) || (s0 === "replace" && args.some((a) => /^--force(?:=true)?$/.test(a)));
      return push(KUBE_DESTRUCTIVE.has(s0) || deletes ? XD : X, `${program} ${s0}${deletes ? ` ${s0 === "apply" ? "--prune" : "--force"}` : ""}`);
    }
    case "helm":
      if (!s0 || HELM_READ.has(s0)) return;
      return push(HELM_DESTRUCTIVE.has(s0) ? XD : X, `helm ${s0}`);
    case "terraform":
    case "tofu":
    case "terragrunt":
      if (!s0 || TF_READ.has(s0) || (s0 === "state" && /^(?:list|show|pull)$/.test(sub[1] ?? "")) || (s0 === "workspace" && sub[1] !== "delete")) return;
      // (A workspace deleted takes its state with it.)
      return push(s0 === "destroy" || args.includes("-destroy") || s0 === "state" || s0 === "workspace" ? XD : X, `${program} ${s0}`);
    case "git":
      // `git reflog expire|delete` drops the history a reset is undone from.
      if (s0 === "reflog" && /^(?:expire|delete)$/.test(sub[1] ?? "")) return push(D, `git reflog ${sub[1]}`);
      // A worktree removed goes with its files (`--force`: its changes too); one added or moved writes.
      if (s0 === "worktree" && sub[1] !== undefined && sub[1] !== "list") return push(sub[1] === "remove" ? D : W, `git worktree ${sub[1]}`);
      if (!s0 || GIT_READ.has(s0)) return;
      // Refs and history thrown away: a tag or ref deleted, history rewritten, unreachable objects pruned now, files
      // removed with `-f` (their changes too).
      if (
        (/^(?:tag|update-ref|replace|symbolic-ref)$/.test(s0) && args.some((a) => /^(?:-d|--delete)$/.test(a))) ||
        s0 === "prune" ||
        (s0 === "switch" && args.some((a) => /^(?:-f|--force|--discard-changes)$/.test(a))) ||
        /^filter-(?:branch|repo)$/.test(s0) ||
        (s0 === "gc" && args.some((a) => /^--prune=(?:now|all)$/.test(a))) ||
        (s0 === "rm" && !args.includes("--cached") && args.some((a) => a === "--force" || /^-[a-z]*f/.test(a)))
      )
        return push(D, `git ${s0}`);
      if (s0 === "push") {
        if (args.includes("-n")) return;
        const force = args.some((a) => /^(?:-f|--force(?:-with-lease)?(?:=.*)?|--delete|-d|--mirror|--prune|\+.*|:.+)$/.test(a));
        // A version tag (or every tag) is a release: pipelines publish it.
        const tag = args.find((a) => a === "--tags" || /^(?:refs\/tags\/)?v?\d+\.\d+(?:\.\d+)?(?:[-+.][\w.]+)?$/.test(a));
        if (force) return push(XD, `git push ${args.find((a) => /^[-+:]/.test(a))}`);
        return tag ? push(XP, `git push ${tag}`) : push(X, "git push");
      }
      // (`branch -f main HEAD~5`: the branch moved off its commits, as `-M` moves one over another.)
      if (s0 === "branch" && !args.some((a) => /^-[dDmMf]$|^--delete$|^--move$|^--force$/.test(a))) return;
      if (s0 === "tag" && !args.some((a) => /^-[ad]$|^-s$|^--delete$/.test(a)) && sub.length < 2) return;
      if (s0 === "stash" && /^(?:list|show)$/.test(sub[1] ?? "")) return;
      if (s0 === "clean" && args.some((a) => /^-[a-z]*n[a-z]*$|^--dry-run$/.test(a))) return;
      // Work thrown away: stashes cleared or dropped, changes checked out over (`checkout -- .`, `-f`) or restored (not only unstaged).
      if (s0 === "stash" && /^(?:clear|drop)$/.test(sub[1] ?? "")) return push(D, `git stash ${sub[1]}`);
      if (s0 === "checkout" && args.some((a) => /^(?:--|\.|-f|--force)$/.test(a))) return push(D, "git checkout --");
      if (s0 === "restore" && !args.some((a) => /^(?:-S|--staged)$/.test(a) || /^-[a-zA-Z]*S/.test(a))) return push(D, "git restore");
      return push((s0 === "reset" && args.includes("--hard")) || (s0 === "clean" && args.some((a) => /^-[a-z]*f/.test(a))) || s0 === "branch" ? D : W, `git ${s0}${s0 === "reset" && args.includes("--hard") ? " --hard" : ""}`);
    case "gh":
    case "glab": {
      const s1 = sub[1] ?? "";
      if (s0 === "api") {
        const m = args.findIndex((a) => a === "-X" || a === "--method");
        const method = (m >= 0 ? args[m + 1] : args.find((a) => /^--method=/.test(a))?.slice(9))?.toUpperCase();
        const fields = args.some((a) => /^(?:-f|-F|--field|--raw-field|--input)$/.test(a));
        if (method === "DELETE") return push(XD, `${program} api -X DELETE`);
        if ((method && method !== "GET" && method !== "HEAD") || (!method && fields)) return push(X, `${program} api -X ${method ?? "POST"}`);
        return;
      }
      if (!s1 || /^(?:list|view|diff|checks|status|download|watch|browse|clone|ls)$/.test(s1)) return;
      const destructive = /^(?:delete|archive|close|transfer)$/.test(s1);
      const isPublic = (s0 === "release" && s1 === "create") || (s0 === "repo" && args.includes("--public"));
      return push(destructive ? XD : isPublic ? XP : X, `${program} ${s0} ${s1}`);
    }
    case "docker":
    case "podman":
    case "nerdctl": {
      // `docker container rm`, `docker image push`, `docker compose down`: the verb is the second word (compose's after
      // its own options: `docker compose -f ops.yml exec`).
      const composeAt = s0 === "compose" ? args.indexOf("compose") : -1;
      const verb =
        composeAt >= 0
          ? (args[afterOptionsAt(args, composeAt + 1, COMPOSE_VALUES)] ?? "")
          : /^(?:container|image|volume|network|system|builder|compose|buildx|node|service|stack|secret|config|plugin)$/.test(s0)
            ? (sub[1] ?? "")
            : s0;
      if (!verb || DOCKER_READ.has(verb)) return;
      if (verb === "push") return push(X, `${program} push`);
      // `docker run alpine rm -rf /data`, `docker exec db psql -c '…'`, `docker compose run web sh -c '…'`: what the
      // container runs is read as it is (destroying there destroys a mounted volume, the container's data), beside the
      // container run itself, a write like any, and the run pulls the image. `docker run --rm migrate/migrate -path=/m
      // down`: the image of a tool runs that tool, read as it is, and its words as a command too (an image's entrypoint
      // may run whatever it is given: liquibase's runs an OS command named as its first argument).
      // (compose's own options before its subcommand, `docker compose -f ops.yml exec …`, are containerCommand's to skip.)
      const env: ContainerEnv = { assignments: [], at: new Set() };
      const run = (verb === "run" || verb === "exec" || s0 === "compose") && depth <= MAX_DEPTH ? containerCommand(args, env) : undefined;
      if (run) {
        // The container's environment is the command's, read as `K=production cmd` is (a program that reads only its
        // arguments is not handed it); what docker's own words name (`--context prod`) is where it all runs.
        const own = args.find((a, k) => !env.at.has(k) && PRODUCTION.test(a)) ?? words.slice(0, i).find((a) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a) && PRODUCTION.test(a.slice(a.indexOf("=") + 1)));
        const inner: CommandEffect[] = [];
        for (const command of run) commandEffect([...env.assignments, ...command], inner, depth + 1, line);
        if (own !== undefined) for (const e of inner) e.production ??= own;
        pushAll(out, inner);
        // `docker exec db psql -c 'SELECT 1'`, `docker compose exec db ls`: a container that is there runs the command
        // and nothing else (no image pulled, no container made, no entrypoint in front): its effect is the command's.
        if (verb === "exec") return;
      }
      return push(DOCKER_DESTRUCTIVE.has(verb) ? D : W, `${program} ${verb === s0 ? s0 : `${s0} ${verb}`}`);
    }
    case "aws":
    case "gcloud":
    case "az": {
      // The operation is the last subcommand word: `aws s3 rm`, `aws ec2 terminate-instances`, `gcloud run deploy`.
      const words = program === "aws" ? sub : subcommands(program, args, 4);
      const op = program === "aws" ? sub[1] ?? "" : [...words].reverse().find((w) => !CLOUD_READ.test(w) && /^(?:[a-z]+-)*[a-z]+$/.test(w) && (CLOUD_DESTRUCTIVE.test(w) || /^(?:create|update|deploy|set|add|put|start|stop|restart|resize|run|invoke|publish|send|attach|import|apply|enable|upload|cp|sync|mv|reboot|scale|patch|modify|tag)\b/.test(w))) ?? "";
      if (!op || CLOUD_READ.test(op)) return;
      // Copying from S3 to the workspace is a read; copying to S3 writes outside.
      // (The destination is an operand after the first, wherever the options are: `aws s3 sync . s3://b --delete` writes to S3,
      // and deletes there what is not here.)
      const operands = args.slice(args.indexOf(op) + 1).filter((a) => !a.startsWith("-"));
      const upload = operands.slice(1).some((a) => /^s3:\/\//.test(a));
      // (Down from S3, `--delete` removes the local files S3 lacks.)
      if (program === "aws" && s0 === "s3" && op === "sync" && args.includes("--delete")) return push(upload ? XD : D, "aws s3 sync --delete");
      if (program === "aws" && s0 === "s3" && (op === "cp" || op === "sync") && !upload) return;
      return push(CLOUD_DESTRUCTIVE.test(op) ? XD : X, `${program} ${program === "aws" ? `${s0} ${op}` : op}`);
    }
    case "http":
    case "https":
    case "xh":
    case "xhs": {
      // HTTPie and xh: `http [options] [METHOD] URL [items]`; data items (`a=b`, `a:=1`, `@file`) without a method POST.
      if (args.includes("--offline")) return;
      const words = afterEachOption(args, HTTPIE_VALUES);
      const named = /^(?:GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE)$/i.test(words[0] ?? "") ? words[0]!.toUpperCase() : undefined;
      const items = words.slice(named ? 2 : 1);
      const method = overriddenMethod(args) ?? named ?? (items.some((a) => /^[^=:/]+(?::=|=)(?!=)|^@/.test(a)) || words.includes("<") || args.some((a) => /^(?:--raw)(?:=|$)/.test(a)) ? "POST" : undefined);
      if (method === "DELETE") return push(XD, `${program} DELETE`);
      if (method && method !== "GET" && method !== "HEAD" && method !== "OPTIONS") return push(X, `${program} ${method}`);
      if (args.some((a) => /^(?:-d|--download|-o|--output)$/.test(a))) return push(W, `${program} --download`);
      return;
    }
  }
  switch (program) {
    case "curl":
    case "wget": {
      const m = args.findIndex((a) => a === "-X" || a === "--request" || a === "--method");
      // `-XPOST`, `--request=POST`, `--method=DELETE` (wget) name it too.
      const attached = args.map((a) => /^(?:-X|--request=|--method=)([A-Za-z]+)$/.exec(a)?.[1]).find((x) => x !== undefined);
      const method = overriddenMethod(args) ?? (m >= 0 ? args[m + 1] : attached)?.toUpperCase();
      const sends = args.some((a) => /^(?:-d|--data(?:-raw|-binary|-urlencode|-ascii)?|-F|--form(?:-string)?|-T|--upload-file|--json|--post-data|--post-file)(?:=|$)/.test(a) || (program === "curl" && /^-[dFT]./.test(a)));
      if (method === "DELETE") return push(XD, `${program} -X DELETE`);
      // A GraphQL mutation posted as the body (`-d '{"query": "mutation { deleteUser(id: 1) { id } }"}'`).
      const field = sends ? args.map((a) => graphqlMutation(a)).find((f) => f !== undefined) : undefined;
      if (field !== undefined && DESTROYING_MUTATION.test(field)) return push(XD, `${program} mutation ${field}`);
      if ((method && method !== "GET" && method !== "HEAD") || (!method && sends)) return push(X, `${program} ${method ? `-X ${method}` : "--data"}`);
      // A download kept in a file: `curl -o /usr/local/bin/x`, `curl -O`, `wget -O /etc/x` (not `-`, not /dev/null).
      if (program === "curl") {
        // `-o F`, `-sSLo F`, `-oF`, `--output=F`; `-O`, `-OJ`: the file is the URL's name.
        if (outputFile(args, /^(?:-[a-zA-Z]*o|--output)$/, /^-o(.+)$|^--output=(.+)$/) !== undefined) return push(W, "curl -o");
        if (args.some((a) => /^(?:--remote-name(?:-all)?|-[a-zA-Z]*O[a-zA-Z]*)$/.test(a))) return push(W, "curl -O");
        return;
      }
      // wget saves what it fetches unless told to print it (`-O -`, `-qO-`) or only to look (`--spider`).
      if (args.some((a) => /^(?:--spider|--help|-h|--version|-V)$/.test(a))) return;
      const named = args.some((a) => /^(?:-[a-zA-Z]*O.*|--output-document(?:=.*)?)$/.test(a));
      if (outputFile(args, /^(?:-[a-zA-Z]*O|--output-document)$/, /^-[a-zA-Z]*O(.+)$|^--output-document=(.+)$/) !== undefined) return push(W, "wget -O");
      if (!named && args.some((a) => !a.startsWith("-"))) return push(W, "wget");
      return;
    }
    case "find": {
      // Each `-exec`/`-execdir`/`-ok` command, with `{}` as a file: `rm` and `shred` are `find -delete`, the rest read as themselves.
      if (args.includes("-delete")) return push(D, "find -delete");
      for (let k = 0; k < args.length; k++) {
        if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[k]!)) continue;
        const end = args.findIndex((a, j) => j > k && (a === ";" || a === "+"));
        const inner = args.slice(k + 1, end < 0 ? args.length : end).map((a) => (a === "{}" ? "FILE" : a));
        if (/^(?:rm|shred|unlink)$/.test(basename(inner[0] ?? ""))) return push(D, "find -delete");
        if (inner.length > 0 && depth <= MAX_DEPTH) commandEffect(inner, out, depth + 1, line);
      }
      return;
    }
    case "ansible": {
      // `ansible hosts -m shell -a "rm -rf x"`: the module's arguments are its command line; other modules by what they change.
      // `-m shell`, `--module-name=shell`, `-m community.general.ufw` (a collection's module by its last name).
      // `-m shell`, `-mshell`, `--module-name=shell`.
      const valueOf = (short: string, long: string): string | undefined => {
        const k = args.findIndex((a) => a === short || a === long || a.startsWith(`${long}=`) || (a.startsWith(short) && a.length > short.length && !a.startsWith("--")));
        if (k < 0) return undefined;
        const a = args[k]!;
        return a.startsWith(`${long}=`) ? a.slice(long.length + 1) : a === short || a === long ? args[k + 1] : a.slice(short.length);
      };
      const module = valueOf("-m", "--module-name")?.replace(/^.*\./, "") ?? "command";
      const moduleArgs = valueOf("-a", "--args") ?? "";
      // The arguments as `key=value` words (quotes around a value are ansible's to strip) or as JSON.
      const json = moduleArgs.trim().startsWith("{") ? parsedObject(moduleArgs) : undefined;
      const argOf = (key: string): string | undefined => {
        if (json !== undefined) return typeof json[key] === "string" ? json[key] : undefined;
        const m = new RegExp(`(?:^|\\s)${key}=(?:"([^"]*)"|'([^']*)'|(\\S+))`).exec(moduleArgs);
        return m ? m[1] ?? m[2] ?? m[3] : undefined;
      };
      if (/^(?:shell|command|raw)$/.test(module)) {
        const line = json !== undefined ? argOf("cmd") ?? argOf("_raw_params") ?? argOf("argv") : moduleArgs;
        if (line && depth <= MAX_DEPTH) out.push(...commandEffects(line, depth + 1));
        return;
      }
      // `-m uri -a "url=… method=DELETE"`: a call with a method that changes something; `-m script -a ./cleanup.sh`: the script, read by its name.
      if (module === "uri") {
        const method = argOf("method")?.toUpperCase();
        if (method !== undefined && method !== "GET" && method !== "HEAD" && method !== "OPTIONS") return push(method === "DELETE" ? XD : X, `ansible -m uri method=${method}`);
        return;
      }
      if (module === "script") {
        const script = moduleArgs.trim().split(/\s+/)[0];
        if (script && depth <= MAX_DEPTH) commandEffect([script], out, depth + 1);
        return;
      }
      if (argOf("state") === "absent" || (module === "synchronize" && /^(?:yes|true)$/i.test(argOf("delete") ?? String(json?.delete ?? "")))) return push(D, `ansible -m ${module} ${module === "synchronize" ? "delete=yes" : "state=absent"}`);
      if (/^(?:copy|template|lineinfile|blockinfile|replace|file|user|group|package|apt|yum|dnf|pip|service|systemd|systemd_service|cron|git|unarchive|get_url|reboot|mount|sysctl|authorized_key|ufw|iptables|firewalld|synchronize)$/.test(module)) return push(W, `ansible -m ${module}`);
      return;
    }
    case "at":
    case "batch": {
      // `at -f job.sh now`: the job file, read by its name as a script is.
      const k = args.indexOf("-f");
      if (k >= 0 && args[k + 1] !== undefined && depth <= MAX_DEPTH) shellStdin(`at -f ${args[k + 1]}`, args[k + 1]!, out, depth);
      return;
    }
    case "ccache":
      if (args.some((a) => /^(?:-C|--clear|-c|--cleanup)$/.test(a))) return push(D, "ccache -C");
      return;
    case "php": {
      // `php -S 0.0.0.0:8000`: the built-in server, on an address other machines reach.
      const k = args.indexOf("-S");
      if (k >= 0 && !/^(?:127\.|localhost[:]|\[::1\])/.test(args[k + 1] ?? "")) return push(X, "php -S");
      return;
    }
    case "journalctl":
      if (args.some((a) => /^--vacuum-/.test(a))) return push(D, "journalctl --vacuum");
      if (args.includes("--rotate")) return push(W, "journalctl --rotate");
      return;
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      if (args.some((a, k) => (a === "-i" && args[k + 1] === "inplace") || a === "-iinplace" || a === "--inplace")) return push(W, `${program} -i inplace`);
      // `awk 'BEGIN { system("rm -rf x") }'`, `system("rm " $1)`: the command line a program's system() runs, from its first string.
      if (depth <= MAX_DEPTH) {
        // `-v cmd='rm -rf x'`, `-vcmd=…`, `--assign=…`: values the program may run.
        const isAssign = (k: number): boolean => args[k - 1] === "-v" || args[k - 1] === "--assign" || /^(?:-v|--assign=)./.test(args[k]!);
        const assigned = args.filter((_, k) => isAssign(k)).map((a) => a.slice(a.indexOf("=") + 1));
        // (Options are no program: with thousands of `-v` words, each read with every value would take the square of the line.)
        args.forEach((a, k) => void (isAssign(k) || /^-/.test(a) || awkCommands(program, a, assigned, out, depth)));
      }
      return;
    case "zip": {
      // `zip -sf a.zip` lists; `-d` deletes entries, `-m` moves the files into the archive (deleting them); any other use writes it.
      if (args.some((a) => /^(?:-sf|--show-files|-h|-h2|--help|-v|--version)$/.test(a))) return;
      // `-d` alone or in a bundle (`-qd`, `-dq`); not the display options `-db`, `-dc`, `-dd`, `-dg`, `-ds`, `-du`, `-dv` (`-qdb` too), nor `-s…`.
      if (args.some((a) => a === "-d" || a === "--delete" || zipDeletes(a))) return push(D, "zip -d");
      if (args.some((a) => a === "--move" || /^-(?!d)[a-zA-Z0-9]*m[a-zA-Z0-9]*$/.test(a))) return push(D, "zip -m");
      const operands = afterEachOption(args, new Set(["-b", "-n", "-P", "--password", "-t", "-tt", "-x", "-i", "-O", "--output-file"]));
      if (operands.length === 1 && args.some((a) => a === "--test" || /^-[a-zA-Z]*T[a-zA-Z]*$/.test(a))) return;
      if (operands.length > 0) return push(W, "zip");
      return;
    }
    case "7z":
    case "7za":
    case "7zr":
    case "7zz": {
      // The command letter: `a`dd, `u`pdate, e`x`tract, `e`xtract, `rn` rename write; `d`elete destroys; `l`ist, `t`est, `i`nfo, `h`ash read.
      const command = args.find((a) => !a.startsWith("-"));
      // `-so`: extracted to stdout; `-sdel`: the files added are deleted.
      if (args.includes("-so")) return;
      if (command === "d" || (command === "a" && args.includes("-sdel"))) return push(D, `${program} ${command}${command === "a" ? " -sdel" : ""}`);
      if (command !== undefined && /^(?:a|u|x|e|rn)$/.test(command)) return push(W, `${program} ${command}`);
      return;
    }
    case "cpio": {
      // `cpio -i` extracts (`-it` lists), `-p` copies into a directory; `-o` writes the archive to stdout (a redirect is read apart).
      const letters = args.filter((a) => /^-[a-zA-Z]+$/.test(a)).join("");
      if (/t/.test(letters) || args.includes("--list")) return;
      if (/i/.test(letters) || args.includes("--extract")) return push(W, "cpio -i");
      if (/p/.test(letters) || args.includes("--pass-through")) return push(W, "cpio -p");
      return;
    }
    case "sftp": {
      // `sftp -b batch.txt host`: the session's commands (put, rm, …) come from a file.
      const file = sftpBatchFile(words.slice(i));
      if (file !== undefined) return void out.push({ risk: "write", destructive: true, what: `\`sftp -b ${file}\` (code the plan does not show)` });
      // `sftp host < cmds.txt`: the session's commands from a file, as with `-b`.
      const k = args.findIndex((a) => /^0?<[^<]|^0?<$/.test(a));
      const stdin = k < 0 ? undefined : /^0?<$/.test(args[k]!) ? args[k + 1] : args[k]!.replace(/^0?</, "");
      if (stdin !== undefined && !/^\/dev\//.test(stdin)) return void out.push({ risk: "write", destructive: true, what: `\`sftp < ${stdin}\` (code the plan does not show)` });
      // `sftp host:/srv/report.csv .`: a download, written here.
      const remote = afterEachOption(args, new Set(["-b", "-B", "-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-R", "-S", "-s", "-X"])).find((a) => /^(?:[\w.-]+@)?[\w.-]+:\S/.test(a));
      if (remote !== undefined) push(W, `sftp ${remote}`);
      return;
    }
    case "firewall-cmd": {
      // `--add-*`, `--remove-*`, `--set-*`, `--reload`, …: the firewall changed; `--list-*`, `--get-*`, `--query-*`, `--state` read.
      const change = args.find((a) => /^--(?:add|remove|set|change|new|delete|reload|complete-reload|runtime-to-permanent|panic-on|lockdown-on|reset-to-defaults)\b/.test(a));
      if (change) return push(W, `firewall-cmd ${change.replace(/=.*$/, "")}`);
      return;
    }
    case "ifconfig":
      // `ifconfig`, `ifconfig -a`, `ifconfig eth0` show; more words set the interface (`down`, an address, `mtu 9000`).
      if (afterEachOption(args, new Set()).length > 1) return push(W, "ifconfig");
      return;
    case "ifdown":
    case "ifup":
    case "ifreload":
      // An interface taken down or brought up, or all reloaded; `-n` / `--no-act` (`-an` too) only says what would be done.
      if (args.some((a) => /^(?:-[a-zA-Z]*n[a-zA-Z]*|--no-act|-h|--help|-V|--version)$/.test(a))) return;
      return push(W, program);
    case "nmcli": {
      // `nmcli connection delete x`, `nmcli dev disconnect eth0`, `nmcli radio wifi off`: an object and a verb that changes it.
      // nmcli takes any prefix of a word (`nmcli c m` is `connection modify`): the first of its verbs that it begins.
      const words = afterEachOption(args, new Set(["-f", "--fields", "-g", "--get-values", "-m", "--mode", "-c", "--colors", "-e", "--escape", "-w", "--wait"]));
      const verbs = words[0] ? NMCLI_VERBS.find(([object]) => object.startsWith(words[0]!))?.[1] : undefined;
      const full = (w: string): string => verbs?.find((v) => v.startsWith(w)) ?? w;
      const verb = words.slice(1, 3).find((w) => NMCLI_CHANGE.test(full(w)));
      if (verb !== undefined) return push(/^del(?:ete)?$/.test(full(verb)) ? D : W, `nmcli ${words[0]} ${verb}`);
      // `nmcli general hostname NAME` (`nmcli g h NAME`) sets it; `general logging level X` changes logging.
      if (words[0] !== undefined && "general".startsWith(words[0]) && /^(?:hostname|logging)$/.test(full(words[1] ?? "")) && words[2] !== undefined) return push(W, `nmcli general ${full(words[1]!)}`);
      return;
    }
    case "route": {
      // `route add|del ...` changes the routing table; `route`, `route -n` show it.
      const verb = args.find((a) => !a.startsWith("-"));
      if (verb !== undefined && /^(?:add|del|delete|change|flush)$/.test(verb)) return push(W, `route ${verb}`);
      return;
    }
    case "tc": {
      // `tc qdisc add dev eth0 ...`: an object and a verb that changes it; `show`, `ls` read.
      if (args.some((a) => a === "-b" || a === "-batch")) return push(W, "tc -batch");
      const words = afterEachOption(args, new Set(["-n", "-netns"]));
      if (/^(?:add|del|delete|change|replace|link|flush)$/.test(words[1] ?? "")) return push(W, `tc ${words[0]} ${words[1]}`);
      return;
    }
    case "tar":
    case "gtar":
    case "bsdtar": {
      // The mode letters (`-xzf`, `xzf`, `-x -f`, `--extract`): extracting writes files; creating writes the archive unless it goes to stdout.
      const first = args[0] ?? "";
      const bundle = /^[a-zA-Z]+$/.test(first) ? first : "";
      // To stdout (`-O`, `xOf`, `--to-stdout`): extracting writes nothing.
      if (bundle.includes("O") || args.some((a) => /^(?:--to-stdout|--to-command.*)$/.test(a) || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a))) return;
      const letters = bundle + args.filter((a) => /^-[a-zA-Z]+$/.test(a)).join("");
      if (/x/.test(letters) || args.some((a) => /^--(?:extract|get)$/.test(a))) return push(W, "tar -x");
      if (args.includes("--delete")) return push(D, "tar --delete");
      // (`--remove-files`: the files archived are deleted, as `zip -m` does.)
      if (args.includes("--remove-files")) return push(D, "tar --remove-files");
      if (!/[cruA]/.test(letters) && !args.some((a) => /^--(?:create|append|update|concatenate)$/.test(a))) return;
      // The archive: `--file=F`, or the word after the option bundle that ends in `f`.
      const f = args.findIndex((a) => (a === bundle && bundle.includes("f")) || /^-[a-zA-Z]*f$/.test(a));
      if (outputFile(args, /^--file$/, /^--file=(.+)$/) !== undefined || (f >= 0 && isFile(args[f + 1]))) return push(W, "tar -c");
      return;
    }
    case "unzip":
      if (args.some((a) => /^-[a-zA-Z]*[lvtpZc]/.test(a))) return;
      return push(W, "unzip");
    case "gzip":
    case "gunzip":
    case "bzip2":
    case "bunzip2":
    case "xz":
    case "unxz":
    case "zstd":
    case "unzstd":
    case "lz4":
    case "compress":
    case "uncompress": {
      // Compressing a file in place replaces it; to stdout, a test or a listing writes nothing.
      if (args.some((a) => /^(?:--stdout|--to-stdout|--test|--list|--help|--version)$/.test(a) || /^-[a-zA-Z0-9]*[ctlhVL]/.test(a))) return;
      if (!args.some((a) => !a.startsWith("-") && a !== "<")) return;
      return push(W, program);
    }
    case "iptables":
    case "ip6tables":
    case "iptables-legacy":
    case "iptables-nft":
    case "ip6tables-legacy":
    case "ip6tables-nft": {
      if (args.some((a) => /^(?:-[A-Z]*[FX][A-Z]*|--flush|--delete-chain)$/.test(a))) return push(D, `${program} -F`);
      const change = args.find((a) => /^(?:-[AIDRPNEZ]\S*|--(?:append|insert|delete|replace|policy|new-chain|rename-chain|zero))$/.test(a));
      if (change) return push(W, `${program} ${change}`);
      return;
    }
    case "iptables-restore":
    case "ip6tables-restore":
      if (args.some((a) => /^(?:-t|--test)$/.test(a))) return;
      return push(D, program);
    case "nft":
      if (args.some((a) => /^(?:-c|--check)$/.test(a))) return;
      if (s0 === "flush" || s0 === "delete" || s0 === "destroy") return push(D, `nft ${s0}`);
      if (/^(?:add|insert|replace|create|rename|reset|-f)$/.test(s0) || args.includes("-f")) return push(W, `nft ${s0 || "-f"}`);
      return;
    case "ufw":
      if (s0 === "reset") return push(D, "ufw reset");
      if (/^(?:enable|disable|allow|deny|reject|limit|delete|default|insert|route|reload|prepend|logging)$/.test(s0)) return push(W, `ufw ${s0}`);
      return;
    case "sysctl":
      if (args.some((a) => /^(?:-[a-zA-Z]*[wp][a-zA-Z]*|--write|--load|--system)$/.test(a) || (!a.startsWith("-") && a.includes("=")))) return push(W, "sysctl -w");
      return;
    case "ip": {
      // `ip netns exec ns cmd`: the command, in another namespace.
      if (args.some((a) => /^-(?:b|batch)$/.test(a))) return push(W, "ip -batch");
      // `ip link set`, `ip addr add`, `ip route flush`: an object and a verb that changes it, or a prefix of each (`ip r d`, `ip l s`, `ip a fl`);
      // xfrm's and mptcp's verb follows what it acts on (`ip xfrm state flush`, `ip mptcp endpoint add`).
      const object = s0 ? IP_OBJECTS.find((o) => o.startsWith(s0)) : undefined;
      const words3 = subcommands(program, args, 3);
      const at = object === "xfrm" || object === "mptcp" ? 2 : 1;
      const written = words3[at] ?? "";
      const verb = (written && object && (IP_VERBS[object] ?? IP_GENERIC_VERBS).find((v) => v.startsWith(written))) || written;
      // `ip netns exec ns cmd`, `ip vrf exec blue cmd`: the command, in another namespace or VRF.
      if (verb === "exec" && (object === "netns" || object === "vrf")) {
        const k = args.indexOf(written);
        if (depth <= MAX_DEPTH && args[k + 2] !== undefined) commandEffect(args.slice(k + 2), out, depth + 1, line);
        return;
      }
      if (written && /^(?:set|add|del|delete|change|chg|replace|flush|append|prepend|restore|attach|up|down)$/.test(verb)) return push(W, `ip ${words3.slice(0, at + 1).join(" ")}`);
      return;
    }
    case "mount":
      // `mount -t nfs` lists; a device, a mount point or `-a` mounts.
      if (args.some((a) => /^(?:-a|--all)$/.test(a)) || afterEachOption(args, new Set(["-t", "--types", "-o", "--options", "-O", "--test-opts", "-L", "--label", "-U", "--uuid"])).length > 0) return push(W, "mount");
      return;
    case "logrotate":
      if (args.some((a) => /^(?:-[a-zA-Z]*d[a-zA-Z]*|--debug)$/.test(a))) return;
      return push(W, "logrotate");
    case "scp": {
      // To another host leaves the machine; from one writes here.
      const operands = afterEachOption(args, new Set(["-i", "-P", "-o", "-F", "-J", "-l", "-c", "-S"]));
      if (operands.length < 2) return;
      return push(REMOTE_PATH.test(operands[operands.length - 1]!) ? X : W, "scp");
    }
    case "systemctl":
    case "service": {
      const verb = program === "service" ? sub[1] ?? "" : s0;
      if (/^(?:stop|restart|disable|mask|kill|reload|isolate)$/.test(verb)) return push(W, `${program} ${verb}`);
      return;
    }
    case "fastlane": {
      // Store uploads leave the machine; the Play production track (supply's default) is a public release.
      const action = s0;
      if (/^(?:supply|upload_to_play_store)$/.test(action)) {
        const t = args.findIndex((a) => a === "--track" || a.startsWith("--track=") || a.startsWith("track:"));
        const track = t < 0 ? "production" : args[t]!.includes("=") || args[t]!.includes(":") ? args[t]!.replace(/^[^=:]*[=:]/, "") : args[t + 1] ?? "";
        return push(/^(?:internal|alpha|beta)$/.test(track) ? X : XP, `fastlane ${action}`);
      }
      if (/^(?:deliver|upload_to_app_store|appstore)$/.test(action)) return push(XP, `fastlane ${action}`);
      if (/^(?:pilot|upload_to_testflight|testflight|firebase_app_distribution|appcenter_upload)$/.test(action)) return push(X, `fastlane ${action}`);
      return;
    }
    case "sed":
    case "perl":
      // (perl's `-i` after switches that take nothing: `-pi`, `-0777 -ni`; not a module's or a directory's name, `-MFile::Path`, `-Ilib`.)
      if (args.some((a) => (program === "perl" ? /^-[nplsaw0-9]*i/ : /^-[a-zA-Z]*i|^--in-place/).test(a))) push(W, `${program} -i`);
      return;
    case "dd":
      if (args.some((a) => a.startsWith("of="))) push(D, "dd of=");
      return;
    case "truncate":
      return push(D, "truncate");
    case "crontab":
      // `crontab -l` lists; `-r` removes the table; a file or `-e` replaces it.
      if (args.some((a) => /^-[a-zA-Z]*r[a-zA-Z]*$/.test(a) && !/^-u$/.test(a))) return push(D, "crontab -r");
      if (args.some((a) => /^-[a-zA-Z]*l[a-zA-Z]*$/.test(a) || a === "--help")) return;
      return push(W, "crontab");
    case "tee":
      // Into a device only (`| tee /dev/stderr`), nothing is written.
      if (afterEachOption(args, NO_VALUES).every((f) => /^\/dev\//.test(f))) return;
      return push(W, "tee");
    // PostgreSQL's and MySQL's administration programs: a database or a role dropped, made, restored into, or the server changed.
    case "dropdb":
    case "dropuser":
    case "createdb":
    case "createuser":
      if (args.some((a) => /^(?:--help|-\?|-V|--version)$/.test(a))) return;
      return push(program.startsWith("drop") ? D : W, program);
    case "pg_restore":
      // `-l` lists the archive; into a database (`-d`) it writes, with `-c` / `--clean` it drops what it restores first; `-f F` writes a script.
      if (args.some((a) => /^(?:-l|--list|--help|-V|--version)$/.test(a))) return;
      if (args.some((a) => /^(?:-c|--clean)$/.test(a))) return push(D, "pg_restore --clean");
      // A script to stdout (`-f -`), not into a database: nothing written.
      if (!args.some((a) => /^(?:-d|--dbname)(?:=|$)|^-d./.test(a)) && outputFile(args, /^(?:-f|--file)$/, /^-f(.+)$|^--file=(.+)$/) === undefined) return;
      return push(W, "pg_restore");
    case "pg_dump":
    case "pg_dumpall":
      if (outputFile(args, /^(?:-f|--file)$/, /^-f(.+)$|^--file=(.+)$/) !== undefined) return push(W, `${program} -f`);
      return;
    case "mysqladmin": {
      const verb = afterEachOption(args, new Set(["-u", "--user", "-h", "--host", "-P", "--port", "-S", "--socket", "-p", "--password", "-c", "--count", "-i", "--sleep", "-w", "--wait", "--defaults-file"]))[0] ?? "";
      if (verb === "drop") return push(D, "mysqladmin drop");
      if (/^(?:create|flush-\w+|reload|refresh|shutdown|kill|password|old-password|start-(?:replica|slave)|stop-(?:replica|slave)|debug|purge)$/.test(verb)) return push(W, `mysqladmin ${verb}`);
      return;
    }
    case "sort":
      if (outputFile(args, /^(?:-o|--output)$/, /^-o(.+)$|^--output=(.+)$/) !== undefined) return push(W, "sort -o");
      return;
    // Mail sent to an address leaves the machine (`mail -s x ops@example.com < f`); reading a mailbox does not.
    case "mail":
    case "mailx":
    case "mutt":
    case "sendmail":
    case "msmtp":
      if (afterEachOption(args, new Set(["-s", "-c", "-b", "-r", "-a", "-S", "-f", "-F", "-q", "-e", "-i"])).some((a) => a.includes("@")) || (program === "sendmail" && args.includes("-t"))) return push(X, program);
      return;
  }
  if (SQL_CLIENTS.has(program)) {
    const sql: string[] = [];
    const pushSqlFile = (what: string, file: string): void => {
      const kind = sqlFileKind(file);
      if (kind !== undefined) push(kind, what);
    };
    args.forEach((a, k) => {
      if (SQL_FLAGS.has(a) && args[k + 1] !== undefined) sql.push(args[k + 1]!);
      else if (/^--(?:command|execute|query)=/.test(a)) sql.push(a.slice(a.indexOf("=") + 1));
    });
    // `bq query 'DELETE …'`: the statement after the subcommand and its options; `bq rm -f d.t` removes a table or dataset.
    if (program === "bq") {
      const rest = args.filter((a) => !a.startsWith("-"));
      const sub = rest.findIndex((w) => /^(?:query|rm|cp|load|insert|mk|update|truncate|undelete|set-iam-policy|add-iam-policy-binding|ls|show|head|help|version|wait|init|shell|extract|partition|cancel|get-iam-policy)$/.test(w));
      const verb = rest[sub] ?? "";
      if (verb === "query" && rest[sub + 1] !== undefined) sql.push(rest.slice(sub + 1).join(" "));
      else if (verb === "rm") push(D, "bq rm");
      else if (/^(?:cp|load|insert|mk|update|truncate|undelete|set-iam-policy|add-iam-policy-binding)$/.test(verb)) push(W, `bq ${verb}`);
    }
    // sqlite3 and duckdb run every argument after the database file, and each `-cmd` before them.
    if (/^(?:sqlite3?|duckdb)$/.test(program)) {
      args.forEach((a, k) => void (/^-?-cmd$/.test(args[k - 1] ?? "") && sql.push(a)));
      // Not a redirect's words (`< restore.sql` is read below, as a file).
      if (!args.some((a) => SQL_FLAGS.has(a))) pushAll(sql, afterEachOption(args.filter((a, k) => !/^\d?[<>]/.test(a) && !/^\d?[<>]>?$/.test(args[k - 1] ?? "")), SQLITE_VALUES).slice(1));
    }
    if (/^(?:sqlite3?|duckdb)$/.test(program)) {
      // `-init F`: a file of SQL and client commands run first, read by its name as `.read F` is.
      const init = args.findIndex((a) => /^-?-init$/.test(a));
      if (init >= 0 && isFile(args[init + 1])) pushSqlFile(`${program} -init ${args[init + 1]}`, args[init + 1]!);
      // `sqlite3 a.sqlar -Acf x`: the archive command, its letters after `-A` (sqlite takes its options with one dash or two: `--Ax`).
      const a = args.findIndex((w) => /^--?A[a-zA-Z]*$/.test(w));
      const archive = a >= 0 && program !== "duckdb" ? sqliteArchive([`-${args[a]!.replace(/^--?A/, "")}`, ...args.slice(a + 1)]) : undefined;
      if (archive) push(archive.effect, `${program} -A ${archive.option}`);
    }
    // SQL from a file the plan does not show: `psql -f purge.sql`, `mysql db < drop_all.sql`.
    args.forEach((a, k) => {
      // (bq's `-f` forces.)
      const psqlFile = program !== "mysql" && program !== "mariadb" && program !== "bq";
      const file = ((a === "-f" || a === "--file") && psqlFile) || (a === "-i" && program === "sqlcmd") || a === "--queries-file" ? args[k + 1] : /^--file=/.test(a) ? a.slice(7) : psqlFile && /^-f[^-]/.test(a) ? a.slice(2) : a === "<" ? args[k + 1] : /^<[^<]/.test(a) ? a.slice(1) : undefined;
      if (file !== undefined && file !== "-" && !/^\/dev\//.test(file)) pushSqlFile(`${program} ${a.startsWith("<") ? "<" : a.startsWith("--file=") || /^-f./.test(a) ? "-f" : a} ${file}`, file);
    });
    for (const text of sql) {
      clientCommands(program, text, out, depth, push);
      for (const e of sqlEffects(text, "strong")) push(e, `${program} ${e.what.replace(/`/g, "")}`);
    }
    return;
  }
  if (program in PUBLISHERS && s0 === PUBLISHERS[program]) return push(XP, `${program} ${s0}`);
  if (program === "yarn" && s0 === "npm" && sub[1] === "publish") return push(XP, "yarn npm publish");
  if (program === "npm" && /^(?:unpublish|deprecate)$/.test(s0)) return push(XD, `npm ${s0}`);
  // A sync that deletes at the far end what is not here: `gsutil rsync -d`, `s3cmd sync --delete-removed`.
  if (program === "gsutil" && args.includes("rsync") && args.slice(args.indexOf("rsync") + 1).some((a) => /^-[a-zA-Z]*d[a-zA-Z]*$/.test(a))) return push(XD, "gsutil rsync -d");
  if (program === "s3cmd" && s0 === "sync" && args.some((a) => /^--delete-(?:removed|after)$/.test(a)) && !dry) return push(XD, "s3cmd sync --delete-removed");
  const cli = cliEffect(program, args, subcommands(program, args, 4), words[i]!.includes("/") || (line.sourced && (FUNCTION_NAME.test(program) || (/^[a-z]+(?:[A-Z][a-z0-9]*)*$/.test(program) && !TERMINAL_WORDS.has(program)))));
  if (cli) return push({ risk: cli.risk, destructive: cli.destructive }, cli.what);
  if (LOCAL_DESTRUCTIVE.has(program) || program.startsWith("mkfs") || PS_DESTRUCTIVE.has(program.toLowerCase())) return push(D, program);
  // `rsync --delete` removes at the destination what the source lacks; `--remove-source-files` the files it sent.
  if (program === "rsync" && args.some((a) => /^--(?:delete(?:-[a-z]+)?|del|remove-source-files)$/.test(a))) return push(D, "rsync --delete");
  // A disk's partitions: parted's `rm` and a new label (`mklabel`), sgdisk's zapping, clearing and deleting destroy them.
  if (program === "parted" && args.some((a) => /^(?:rm|mklabel|mktable)$/.test(a))) return push(D, "parted rm");
  if (program === "parted" && args.some((a) => /^(?:mkpart|resizepart|name|set|toggle|rescue)$/.test(a))) return push(W, "parted");
  if ((program === "sgdisk" || program === "gdisk") && args.some((a) => /^(?:--zap-all|--zap|--clear|--delete(?:=.*)?|-[a-zA-Z]*[Zzod])$/.test(a))) return push(D, `${program} --zap-all`);
  if (LOCAL_WRITES.has(program)) return push(W, program);
}

/** `go build`'s options that take a value, which `go run` takes before the package (`-tags postgres`; `-tags=postgres` is one word). */
const GO_BUILD_VALUES: ReadonlySet<string> = new Set(["-tags", "-ldflags", "-gcflags", "-asmflags", "-gccgoflags", "-mod", "-modfile", "-p", "-pkgdir", "-toolexec", "-exec", "-C", "-buildmode", "-compiler", "-installsuffix", "-overlay", "-pgo", "-covermode", "-coverpkg"].flatMap((f) => [f, `-${f}`]));

/**
 * The command `go run` builds from `pkg`, as a path the reader reads as a script by path:
 * named by the package's last element (`…/cmd/migrate@v4.17.0` is `migrate`, a major version
 * `…/goose/v3` is not a name), by the Go file (`./scripts/cleanup.go`), or by its directory
 * when the file is `main.go` (`./cmd/migrate/main.go` builds `migrate`, as `go build` names it).
 */
function goCommand(pkg: string): string {
  const path = pkg.replace(/@[^/@]*$/, "").replace(/\/+$/, "").replace(/\/v\d+$/, "").replace(/([^/])\/main\.go$/, "$1");
  return path.includes("/") ? path : `./${path}`;
}

/** Images whose entrypoint is a tool the reader knows (Docker Hub's names; a registry, a tag or a digest aside). */
const TOOL_IMAGES: Readonly<Record<string, string>> = lookup({
  "migrate/migrate": "migrate",
  "flyway/flyway": "flyway",
  "redgate/flyway": "flyway",
  "liquibase/liquibase": "liquibase",
  liquibase: "liquibase",
  "amacneil/dbmate": "dbmate",
});

/** `docker run`'s options that take a value (`--name=x` is one word). */
const DOCKER_RUN_VALUES: ReadonlySet<string> = new Set(["--volume", "--env", "--env-file", "--network", "--net", "--network-alias", "--workdir", "--user", "--name", "--publish", "--mount", "--platform", "--label", "--label-file", "--add-host", "--dns", "--dns-search", "--dns-option", "--hostname", "--domainname", "--cpus", "--cpu-shares", "--cpuset-cpus", "--memory", "--memory-swap", "--memory-reservation", "--link", "--pull", "--restart", "--log-driver", "--log-opt", "--volumes-from", "--device", "--cap-add", "--cap-drop", "--security-opt", "--ulimit", "--tmpfs", "--gpus", "--ipc", "--pid", "--uts", "--userns", "--runtime", "--shm-size", "--stop-signal", "--stop-timeout", "--cidfile", "--cgroup-parent", "--expose", "--group-add", "--ip", "--ip6", "--mac-address", "--sysctl", "--attach", "--health-cmd", "--pids-limit", "--annotation", "--volume-driver", "--blkio-weight", "--cpu-period", "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime", "--cpuset-mems", "--device-cgroup-rule", "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops", "--health-interval", "--health-retries", "--health-start-period", "--health-timeout", "--isolation", "--kernel-memory", "--log-opt", "--oom-score-adj", "--storage-opt", "--cgroupns", "--detach-keys"]);

/** `docker compose`'s own options that take a value, before its subcommand. */
const COMPOSE_VALUES: ReadonlySet<string> = new Set(["-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi", "--progress", "--parallel"]);

/**
 * The command lines a container runs, from `docker run [options] IMAGE command…` (or
 * `docker container run`, `docker exec [options] CONTAINER command…`, `docker compose run|exec
 * SERVICE command…`): the words after the image, the container or the service, with the
 * `--entrypoint` in front of them when one is given; for a tool's own image, also the tool's
 * words (`migrate/migrate -path=/m down` is `migrate -path=/m down`). Undefined when it names
 * none (`docker run -d nginx`); an option misread only leaves the run read as a write.
 */
function containerCommand(args: readonly string[], env?: ContainerEnv): string[][] | undefined {
  let k = afterOptionsAt(args, 0, VALUE_FLAGS.docker!);
  const compose = args[k] === "compose";
  if (compose) k = afterOptionsAt(args, k + 1, COMPOSE_VALUES);
  else if (args[k] === "container") k++;
  if (args[k] !== "run" && args[k] !== "exec") return undefined;
  let entrypoint: string | undefined;
  for (k++; args[k]?.startsWith("-"); k += DOCKER_RUN_VALUES.has(args[k]!) || /^-[a-zA-Z]*[evpwumhlac]$/.test(args[k]!) || args[k] === "--index" ? 2 : 1) {
    const m = /^--entrypoint(?:=(.*))?$/.exec(args[k]!);
    if (m) entrypoint = m[1] ?? args[k + 1];
    // `-e K=V`, `--env K=V`, `--env=K=V`, `-eK=V`: the container's environment (`-e K` passes the caller's on).
    const e = /^(?:-[a-zA-Z]*e|--env)$/.test(args[k]!) ? k + 1 : /^(?:--env=|-e)[A-Za-z_][A-Za-z0-9_]*=/.test(args[k]!) ? k : -1;
    if (env !== undefined && e >= 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[e]?.replace(/^(?:--env=|-e)/, "") ?? "")) {
      env.assignments.push(args[e]!.replace(/^(?:--env=|-e)(?=[A-Za-z_][A-Za-z0-9_]*=)/, ""));
      env.at.add(e);
    }
  }
  const image = args[k];
  if (image === undefined) return undefined;
  const words = args.slice(k + 1);
  const commands = entrypoint !== undefined ? [[entrypoint, ...words]] : words.length > 0 ? [words] : [];
  // `docker.io/migrate/migrate:v4`, `ghcr.io/amacneil/dbmate@sha256:…`: the name without its registry, tag and digest.
  const name = image.replace(/@.*$/, "").replace(/:[^/]*$/, "").replace(/^[^/]*[.:][^/]*\/|^localhost\//, "").replace(/^library\//, "");
  const tool = compose || entrypoint !== undefined ? undefined : TOOL_IMAGES[name];
  if (tool !== undefined) commands.unshift([tool, ...words]);
  return commands.length > 0 ? commands : undefined;
}

/** A container's environment as its run or exec gives it: the assignments, and where they are among the words. */
interface ContainerEnv {
  assignments: string[];
  at: Set<number>;
}

/** sqlite3's options that take a value (`-cmd` is read as SQL). */
const SQLITE_VALUES: ReadonlySet<string> = new Set(["-cmd", "--cmd", "-init", "-separator", "-newline", "-nullvalue", "-vfs", "-mmap", "-maxsize", "-heap", "-lookaside", "-pagecache", "-escape"]);

/** sqlite's archive commands by their letter and long name: `c`reate, `i`nsert, `u`pdate, e`x`tract write, `r`emove destroys (`t`, list, reads). */
const SQLITE_ARCHIVE: ReadonlyArray<readonly [string, string, Effect]> = [["c", "create", W], ["i", "insert", W], ["u", "update", W], ["x", "extract", W], ["r", "remove", D]];

/**
 * What sqlite's archive command does with its words (`.ar -cf a.sqlar x`, `.archive
 * --remove x`, `sqlite3 a.sqlar -Ax`): the command of its option letters (the first word may
 * give them without a dash, as tar's do) or its long option (any prefix of two letters or
 * more); a dry run (`-n`, `--dryrun`) changes nothing.
 */
function sqliteArchive(words: readonly string[]): { effect: Effect; option: string } | undefined {
  const letters = words.filter((w, k) => /^-[a-zA-Z]+$/.test(w) || (k === 0 && /^[a-zA-Z]+$/.test(w))).join("");
  const long = words.filter((w) => /^--[a-z]{2,}$/.test(w)).map((w) => w.slice(2));
  if (letters.includes("n") || long.some((w) => "dryrun".startsWith(w))) return undefined;
  for (const [letter, name, effect] of SQLITE_ARCHIVE) {
    if (letters.includes(letter)) return { effect, option: `-${letter}` };
    if (long.some((w) => name.startsWith(w))) return { effect, option: `--${name}` };
  }
  return undefined;
}

/** sqlite's dot-commands that change things, by any prefix of three letters or more (`.res` is `.restore`). */
const SQLITE_DOT: ReadonlyArray<readonly [string, Effect]> = [["restore", D], ["backup", W], ["save", W], ["import", W], ["clone", W]];

/**
 * The client commands in a SQL client's input (`text`), given to `push` with what they
 * show: a file run (psql `\\i f`, mysql `SOURCE f` / `\\. f`, sqlite `.read f`, by its
 * name), a shell command (psql `\\! cmd`, sqlite `.shell` / `.system`, mysql `system`), a
 * file written (`\\o f`, `.output f`), sqlite's `.restore` (destructive), `.backup`, `.import`.
 */
function clientCommands(program: string, text: string, out: CommandEffect[], depth: number, push: (e: Effect, what: string) => void): void {
  for (const m of text.matchAll(/(?:^|[\n;])\s*(\\i[r]?|\\include(?:_relative)?|\\\.|SOURCE|\.read)\s+(\S+?);?(?=\s|$)/gim)) {
    const kind = sqlFileKind(m[2]!);
    if (kind !== undefined) push(kind, `${program} ${/^source$/i.test(m[1]!) ? "SOURCE" : m[1]} ${m[2]}`);
  }
  // (sqlite takes any prefix of `.shell` and `.system`: `.sh`, `.sys`.)
  if (depth <= MAX_DEPTH) for (const m of text.matchAll(/(?:^|\n)\s*(?:\\!|\.(?:sh(?:e(?:ll?)?)?|sy(?:s(?:t(?:em?)?)?)?)(?=\s))\s*([^\n]*)/g)) out.push(...commandEffects(m[1]!, depth + 1));
  // mysql's `system` starts a statement (a line, or after a `;`) and runs the rest of its line.
  if (depth <= MAX_DEPTH && /^(?:mysql|mariadb)$/.test(program)) for (const m of text.matchAll(/(?:^|[\n;])\s*system\s+([^\n]*)/gi)) out.push(...commandEffects(m[1]!.replace(/;\s*$/, ""), depth + 1));
  if (/^sqlite3?$/.test(program)) {
    for (const m of text.matchAll(/(?:^|\n)\s*\.([a-z]{3,})\b/g)) {
      const command = SQLITE_DOT.find(([name]) => name.startsWith(m[1]!));
      if (command) push(command[1], `${program} .${m[1]}`);
    }
    // `.log FILE` writes the log to a file (not `off`, `stdout`, `stderr` or a device); a quoted name may hold blanks (`.log 'my log.txt'`).
    for (const m of text.matchAll(/(?:^|\n)\s*\.log[ \t]+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'";]+))/g)) {
      const file = m[1] ?? m[2] ?? m[3]!;
      if (!/^(?:on|off|stdout|stderr|\/dev\/.*)$/.test(file)) push(W, `${program} .log ${file}`);
    }
    // `.load LIB` (or `.l`, `.lo`, `.loa`: sqlite takes a prefix, and `.load` before `.log`) runs a library's native code, which the plan does not show.
    for (const m of text.matchAll(/(?:^|\n)\s*\.l(?:o(?:ad?)?)?[ \t]+(['"]?)([^\s'";]+)\1/g)) push(D, `${program} .load ${m[2]}`);
    // `.archive --create F`, `.ar -x`: an archive in the database changed, or its files written here.
    for (const m of text.matchAll(/(?:^|\n)\s*\.(ar(?:c(?:h(?:i(?:ve?)?)?)?)?)(?=[ \t]|$)([^\n;]*)/g)) {
      const archive = sqliteArchive(m[2]!.trim().split(/\s+/).filter(Boolean));
      if (archive) push(archive.effect, `${program} .${m[1]} ${archive.option}`);
    }
  }
  // `\\o f`, `.output f`, `.once f` write a file (not the terminal: `stdout`, `stderr`, /dev/…); `.output |cmd`, `\\o |cmd` pipe to a command.
  for (const m of text.matchAll(/(?:^|\n|\\)\s*(?:o|out|\.output|\.once)\s+(?!\/dev\/(?:null|stdout|stderr))(['"]?)(\S[^\n]*?)\1\s*;?\s*(?=\n|$)/g)) {
    const target = m[2]!;
    if (target.startsWith("|")) {
      if (depth <= MAX_DEPTH) out.push(...commandEffects(target.slice(1), depth + 1));
    } else if (!/^(?:stdout|stderr|-[a-z])/.test(target)) out.push({ risk: "write", destructive: false, what: `\`${program} \\o ${target.split(/\s/)[0]}\`` });
  }
}

/** A JSON object's members, or undefined for text that is not one. */
function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a zip option bundle holds `d` (delete), read letter by letter: `-qd` does, `-qdb` (q, then display bytes) and `-sd` do not. */
function zipDeletes(option: string): boolean {
  if (!/^-[a-zA-Z0-9]+$/.test(option) || option.startsWith("-s")) return false;
  for (let k = 1; k < option.length; k++) {
    if (option[k] !== "d") continue;
    if (!/[bcdgsuv]/.test(option[k + 1] ?? "")) return true;
    k++;
  }
  return false;
}

/** The first `n` non-option words after the program (options that take a value skip it). */
function subcommands(program: string, args: readonly string[], n = 2): string[] {
  const flags = VALUE_FLAGS[program === "oc" ? "kubectl" : program === "podman" || program === "nerdctl" ? "docker" : program];
  const out: string[] = [];
  for (let k = 0; k < args.length && out.length < n; k++) {
    const a = args[k]!;
    // `cargo +nightly …`: a toolchain, not a subcommand.
    if (k === 0 && a.startsWith("+") && program === "cargo") continue;
    if (a.startsWith("-")) {
      if (flags?.has(a)) k++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** The index of the first word from `k` on that is not an option or the value of one. */
function afterOptionsAt(words: readonly string[], k: number, valueFlags: ReadonlySet<string>): number {
  while (k < words.length && words[k]!.startsWith("-")) k += valueFlags.has(words[k]!) ? 2 : 1;
  return k;
}

/** The words after the leading options (and their values). */
function afterOptions(args: readonly string[], valueFlags: ReadonlySet<string>): string[] {
  return args.slice(afterOptionsAt(args, 0, valueFlags));
}

/** `user@host:path`, `host:path`, `[fe80::1]:path` or `scp://host/path` (not `C:\\`, not another URL). */
const REMOTE_PATH = /^(?:(?:[\w.-]+@)?(?:[\w.-]+|\[[0-9a-fA-F:.%\w]+\]):(?!\/\/)|scp:\/\/)/;

/** HTTPie's and xh's options that take a value (its `-a user:pass` is not a method). */
const HTTPIE_VALUES: ReadonlySet<string> = new Set(["-a", "--auth", "-A", "--auth-type", "--timeout", "--session", "--session-read-only", "-p", "--print", "-o", "--output", "--verify", "--cert", "--cert-key", "--proxy", "--max-redirects", "--pretty", "-s", "--style", "--format-options", "--boundary", "--default-scheme", "--ssl", "--ciphers", "--response-charset", "--response-mime"]);

/** The operands of a command line: every word that is not an option or the value of one. */
function afterEachOption(args: readonly string[], valueFlags: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a.startsWith("-") && a !== "-") {
      if (valueFlags.has(a)) k++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** The file a download or an archive is written to, unless it is stdout or /dev/*; undefined when none is named. */
/**
 * The method a server takes over the request line's, on an HTTP client's command line: an override header (curl's and
 * wget's `-H 'X-HTTP-Method-Override: DELETE'`, `--header=…`, HTTPie's `X-HTTP-Method-Override:DELETE` item) or a URL's
 * `?_method=DELETE`.
 */
function overriddenMethod(args: readonly string[]): string | undefined {
  for (const a of args) {
    const header = /^([\w-]+)\s*:\s*([A-Za-z]+)\s*$/.exec(a.replace(/^(?:-H|--header=)\s*/, ""));
    if (header && METHOD_OVERRIDE_KEYS.has(header[1]!.toLowerCase())) return header[2]!.toUpperCase();
    const param = METHOD_PARAM.exec(a);
    if (param) return param[1]!.toUpperCase();
  }
  return undefined;
}

function outputFile(args: readonly string[], flag: RegExp, attached: RegExp): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    const file = flag.test(a) ? args[k + 1] : (() => {
      const m = attached.exec(a);
      return m ? m[1] ?? m[2] : undefined;
    })();
    if (isFile(file)) return file;
  }
  return undefined;
}

/** A path that names a file: not stdout (`-`), not a device (`/dev/null`). */
const isFile = (path: string | undefined): path is string => path !== undefined && path !== "-" && !/^\/dev\//.test(path);

function basename(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash >= 0 ? word.slice(slash + 1) : word;
}

/**
 * The text of the double-quoted string opening at `open` and the index of its closing quote
 * (the text's end when none closes it): a backslash there escapes `"`, `\\`, `$` and a
 * backquote (`"VACUUM \"main\" INTO …"` is `VACUUM "main" INTO …`), and is kept before any other.
 */
function doubleQuoted(text: string, open: number): { text: string; end: number } {
  let out = "";
  let from = open + 1;
  let i = from;
  for (; i < text.length && text[i] !== '"'; i++) {
    if (text[i] !== "\\" || !/["\\$`]/.test(text[i + 1] ?? "")) continue;
    out += text.slice(from, i);
    from = ++i;
  }
  return { text: out + text.slice(from, i), end: i };
}

/**
 * The index just after the parameter expansion `${…}` at `at` (its `$`): its braces matched,
 * quotes and backslashes inside it skipped (`${X:-'a }'}`); the text's end when none closes it.
 */
function expansionEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") i++;
    else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      i = close < 0 ? text.length : close;
    } else if (c === '"') i = doubleQuoted(text, i).end;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return text.length;
}

/** A word with its quotes removed, as the shell removes them: `'…'` as written, `"…"` with its escapes undone, a backslash's character kept. */
function quoteRemoved(word: string): string {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === "'") {
      const close = word.indexOf("'", i + 1);
      const end = close < 0 ? word.length : close;
      out += word.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const quoted = doubleQuoted(word, i);
      out += quoted.text;
      i = quoted.end;
    } else if (c === "\\") out += word[++i] ?? "";
    else out += c;
  }
  return out;
}

/**
 * Splits a command line into simple commands of words: quotes group, `;`, `&&`, `||`,
 * `|`, `&`, newlines, parentheses, backticks and `$(` separate. Good enough to read what
 * a plan asks a shell to do; not a shell.
 */
export function splitCommands(text: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  // Whether the word has a `$` the shell expands (unquoted or in double quotes), and the words of the command that do.
  let expands = false;
  let expanding: number[] = [];
  const endWord = () => {
    if (inWord) {
      if (expands) expanding.push(words.length);
      words.push(word);
    }
    word = "";
    inWord = false;
    expands = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) {
      commands.push(words);
      EXPANDING.set(words, expanding);
    }
    words = [];
    expanding = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const close = text.indexOf(c, i + 1);
      const end = close < 0 ? text.length : close;
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      const quoted = doubleQuoted(text, i);
      word += quoted.text;
      inWord = true;
      expands ||= DOLLAR_EXPANDED.test(text.slice(i, quoted.end));
      i = quoted.end;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (c === " " || c === "\t") {
      endWord();
    } else if (c === "{" && BRACE_LIST.test(text.slice(i, i + BRACE_SPAN))) {
      // `{rm,-rf,/x}`, `r{m,}`, `notes.{txt,bak}`: a brace expansion is its words, each with the word's text before and after it.
      const m = BRACE_LIST.exec(text.slice(i, i + BRACE_SPAN))!;
      for (const w of m[1]!.split(",")) if (word + w + m[2]! !== "") words.push(word + w + m[2]!);
      word = "";
      inWord = false;
      expands = false;
      i += m[0].length - 1;
    } else if (c === ";" || c === "|" || c === "&" || c === "\n" || c === "(" || c === ")" || c === "`" || c === "{" || c === "}") {
      endCommand();
    } else if (c === "$" && text[i + 1] === "(") {
      endCommand();
      i++;
    } else if (c === "$" && text[i + 1] === "'") {
      // `$'\x72m'`: an ANSI-C string, its escapes undone (a `\'` in it does not close it).
      let j = i + 2;
      while (j < text.length && text[j] !== "'") j += text[j] === "\\" ? 2 : 1;
      word += ansiC(text.slice(i + 2, Math.min(j, text.length)));
      inWord = true;
      i = j;
    } else if (c === "$" && text[i + 1] === "{") {
      // `${X:-'rm -rf x'}`: a parameter expansion is part of its word, as written (its braces are no group).
      const end = expansionEnd(text, i);
      word += text.slice(i, end);
      inWord = true;
      expands = true;
      i = end - 1;
    } else if (c === "#" && !inWord) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl - 1;
    } else {
      word += c;
      inWord = true;
      expands ||= c === "$";
    }
  }
  endCommand();
  return commands;
}

/** A brace expansion of plain words (`{rm,-rf,/x}`; group 1 the list, group 2 the word's text after it, then a blank, an operator or the end), within BRACE_SPAN characters. */
const BRACE_LIST = /^\{([^\s{}'"$`\\;&|()<>,]*(?:,[^\s{}'"$`\\;&|()<>,]*)+)\}([^\s{}'"$`\\;&|()<>]*)(?=[\s;&|()<>]|$)/;
const BRACE_SPAN = 400;

/** A `$` in double-quoted text that is not escaped: the shell expands it. */
const DOLLAR_EXPANDED = /(?<!\\)\$/;

/** The words of each command splitCommands made that hold a `$` the shell expands there (not one in single quotes or escaped). */
const EXPANDING = new WeakMap<readonly string[], readonly number[]>();

/**
 * Whether the shell that splits `words` expands a `$` in its word `k` (`"…$X…"`, `$X`), rather than handing it on as
 * written (`'…$X…'`, `\$X`). Words not split from a line here (rebuilt by a reader) may: they count as expanding.
 */
function expandsHere(words: readonly string[], k: number): boolean {
  const expanding = EXPANDING.get(words);
  return expanding === undefined || expanding.includes(k);
}
