/**
 * Deploy, infrastructure and data tools a plan runs through a shell, beyond the ones
 * risk-shell.ts reads by hand (kubectl, helm, terraform, git, cloud CLIs): one table of
 * programs, each with the subcommands that change something elsewhere (external), that
 * destroy (destructive), or that write a database. A subcommand the table does not name is
 * a read, as for the programs above: `pulumi preview`, `heroku logs`, `flyway info`.
 * Task runners (`make`, `npm run`, `./deploy.sh`) are read by their target's words.
 */
import type { Risk } from "../ir.js";
import { lookup } from "../util/lookup.js";

export interface CliEffect {
  risk: Risk;
  destructive: boolean;
  /** What a reviewer would quote, without backticks: "pulumi destroy". */
  what: string;
}

type Kind = "x" | "xd" | "w" | "d";

const EFFECT: Record<Kind, { risk: Risk; destructive: boolean }> = {
  x: { risk: "external", destructive: false },
  xd: { risk: "external", destructive: true },
  w: { risk: "write", destructive: false },
  d: { risk: "write", destructive: true },
};

/** sqlx's database and migration commands (`db` is `database`), alone or as `cargo sqlx`. */
const SQLX: Readonly<Record<string, Kind>> = lookup({ "migrate revert": "d", "database drop": "d", "database reset": "d", "db drop": "d", "db reset": "d", "migrate run": "w", "migrate add": "w", "database create": "w", "database setup": "w", "db create": "w", "db setup": "w" });

/** Sequelize's tasks, under its two package names. */
const SEQUELIZE: Readonly<Record<string, Kind>> = lookup({ "db:drop": "d", "db:migrate:undo": "d", "db:migrate:undo:all": "d", "db:seed:undo": "d", "db:seed:undo:all": "d", "db:migrate": "w", "db:seed": "w", "db:seed:all": "w", "db:create": "w" });

/** Program -> subcommand (first word after the options; `pg:reset` whole) -> effect. `""`: the program alone. */
const SUBCOMMANDS: Readonly<Record<string, Readonly<Record<string, Kind>>>> = lookup({
  pulumi: lookup({ up: "x", update: "x", destroy: "xd", import: "x", cancel: "x", "stack rm": "xd", "state delete": "xd" }),
  cdk: lookup({ deploy: "x", destroy: "xd", bootstrap: "x", import: "x" }),
  serverless: lookup({ deploy: "x", remove: "xd", invoke: "x", rollback: "x" }),
  sls: lookup({ deploy: "x", remove: "xd", invoke: "x", rollback: "x" }),
  firebase: lookup({ deploy: "x", "hosting:disable": "xd", "firestore:delete": "xd", "database:remove": "xd", "database:set": "x", "functions:delete": "xd" }),
  vercel: lookup({ "": "x", deploy: "x", rm: "xd", remove: "xd", promote: "x", rollback: "x", alias: "x" }),
  netlify: lookup({ deploy: "x", "sites:delete": "xd", "env:set": "x" }),
  wrangler: lookup({ deploy: "x", publish: "x", delete: "xd", rollback: "x" }),
  fly: lookup({ deploy: "x", destroy: "xd", scale: "x", launch: "x" }),
  flyctl: lookup({ deploy: "x", destroy: "xd", scale: "x", launch: "x" }),
  heroku: lookup({ "pg:reset": "xd", "apps:destroy": "xd", destroy: "xd", "ps:scale": "x", "config:set": "x", "releases:rollback": "x", run: "x", "pg:promote": "x" }),
  gsutil: lookup({ rm: "xd", cp: "x", mv: "x", rsync: "x", rb: "xd" }),
  mc: lookup({ rm: "xd", rb: "xd", cp: "x", mv: "x", mirror: "x" }),
  flyway: lookup({ migrate: "w", clean: "d", repair: "w", baseline: "w", undo: "d" }),
  liquibase: lookup({ update: "w", dropall: "d", rollback: "w", "rollback-count": "w", "update-sql": "w" }),
  alembic: lookup({ upgrade: "w", downgrade: "d", stamp: "w" }),
  "ansible-playbook": lookup({ "": "x" }),
  // Key-value and secret stores: a key deleted is gone.
  etcdctl: lookup({ del: "d", put: "w", txn: "w", "lease revoke": "d", compact: "d", defrag: "w" }),
  consul: lookup({ "kv delete": "xd", "kv put": "x", "kv import": "x" }),
  vault: lookup({ "kv delete": "xd", "kv destroy": "xd", "kv metadata": "xd", delete: "xd", "secrets disable": "xd", "kv put": "x", write: "x", "secrets enable": "x" }),
  snap: lookup({ remove: "d", install: "w", refresh: "w" }),
  azcopy: lookup({ remove: "xd", rm: "xd", copy: "x", cp: "x", sync: "x", make: "x" }),
  // GNOME's file tool: a file trashed or removed is gone from where it was.
  gio: lookup({ trash: "d", remove: "d", copy: "w", move: "w", rename: "w", save: "w", mkdir: "w", set: "w" }),
  // Storage pools and volumes: destroying one (or rolling it back) loses its data.
  zfs: lookup({ destroy: "d", rollback: "d", create: "w", set: "w", snapshot: "w", rename: "w", send: "w", receive: "w", recv: "w", mount: "w", umount: "w" }),
  zpool: lookup({ destroy: "d", labelclear: "d", create: "w", add: "w", remove: "d", attach: "w", detach: "w", export: "w", import: "w", scrub: "w" }),
  btrfs: lookup({ "subvolume delete": "d", "subvolume create": "w", "subvolume snapshot": "w", "device delete": "d", "device remove": "d", "device add": "w" }),
  // Migration and ORM tools (two or three words: `supabase db reset`, `dotnet ef database drop`).
  artisan: lookup({ "migrate:fresh": "d", "migrate:reset": "d", "migrate:refresh": "d", "migrate:rollback": "d", "db:wipe": "d", migrate: "w", "db:seed": "w", "cache:clear": "d" }),
  knex: lookup({ "migrate:rollback": "d", "migrate:down": "d", "migrate:latest": "w", "migrate:up": "w", "seed:run": "w" }),
  sequelize: SEQUELIZE,
  typeorm: lookup({ "schema:drop": "d", "migration:revert": "d", "schema:sync": "w", "migration:run": "w" }),
  "drizzle-kit": lookup({ drop: "d", push: "w", migrate: "w" }),
  supabase: lookup({ "db reset": "d", "db push": "w", "projects delete": "xd", "functions deploy": "x", "functions delete": "xd", "secrets set": "x" }),
  dotnet: lookup({ "ef database drop": "d", "ef database update": "w", "ef migrations remove": "w", clean: "d" }),
  "sequelize-cli": SEQUELIZE,
  // Caches and build outputs removed (`make clean` by another name).
  npm: lookup({ "cache clean": "d" }),
  yarn: lookup({ "cache clean": "d" }),
  pnpm: lookup({ "store prune": "d" }),
  // `go mod tidy` rewrites go.mod and go.sum.
  go: lookup({ clean: "d", "mod tidy": "w", "mod edit": "w", "mod vendor": "w" }),
  cargo: lookup({ clean: "d", yank: "xd", ...Object.fromEntries(Object.entries(SQLX).map(([k, v]) => [`sqlx ${k}`, v])) }),
  mvn: lookup({ clean: "d" }),
  gradle: lookup({ clean: "d" }),
  gradlew: lookup({ clean: "d" }),
  brew: lookup({ cleanup: "d" }),
  composer: lookup({ "clear-cache": "d", clearcache: "d" }),
  conda: lookup({ clean: "d" }),
  uv: lookup({ "cache clean": "d", "cache prune": "d" }),
  poetry: lookup({ "cache clear": "d" }),
  flutter: lookup({ clean: "d" }),
  bazel: lookup({ clean: "d" }),
  sbt: lookup({ clean: "d" }),
  mix: lookup({ clean: "d", "ecto.drop": "d", "ecto.reset": "d", "ecto.rollback": "d", "ecto.migrate": "w", "ecto.create": "w" }),
  ngrok: lookup({ http: "x", tcp: "x", tls: "x", start: "x", tunnel: "x" }),
  // Sync and object-store tools: `rclone sync` and `move` delete what is not (or no longer) at the source.
  rclone: lookup({ sync: "xd", bisync: "xd", move: "xd", moveto: "xd", delete: "xd", deletefile: "xd", purge: "xd", rmdir: "xd", rmdirs: "xd", cleanup: "xd", dedupe: "xd", copy: "x", copyto: "x", copyurl: "x", mkdir: "x", touch: "x", rcat: "x", settier: "x", link: "x", serve: "x" }),
  s3cmd: lookup({ del: "xd", rm: "xd", rb: "xd", mv: "xd", delpolicy: "xd", dellifecycle: "xd", delcors: "xd", put: "x", sync: "x", cp: "x", mb: "x", setacl: "x", setpolicy: "x", setcors: "x", setlifecycle: "x", modify: "x", restore: "x", expire: "x", get: "w" }),
  // Migration tools: going down or resetting drops what the migrations made.
  dbmate: lookup({ drop: "d", rollback: "d", down: "d", up: "w", migrate: "w", create: "w", new: "w", load: "w", dump: "w" }),
  diesel: lookup({ "migration revert": "d", "migration redo": "d", "database reset": "d", "database drop": "d", "migration run": "w", "migration generate": "w", "database setup": "w", setup: "w" }),
  // golang-migrate: `drop` empties the database, `down` undoes every migration (or N); `force` and `goto` set its version.
  migrate: lookup({ down: "d", drop: "d", up: "w", goto: "w", force: "w", create: "w" }),
  sqlx: SQLX,
  // `lerna clean` removes every package's node_modules; `lerna version` commits, tags and pushes; `lerna run x` is the packages' script (below).
  lerna: lookup({ clean: "d", version: "x" }),
});

/** goose's commands, found after its driver and connection string (`goose -dir m postgres "$DB" down`). */
const GOOSE: Readonly<Record<string, Kind>> = lookup({ down: "d", "down-to": "d", reset: "d", redo: "d", up: "w", "up-by-one": "w", "up-to": "w", fix: "w", create: "w" });

/**
 * Package managers: an install changes the machine and runs the packages' install scripts
 * (a write); removing packages destroys. Their look-ups (`pip list`, `npm ls`) read.
 */
const INSTALL = ["install", "i", "ci", "add", "update", "upgrade", "up", "reinstall", "dist-upgrade", "full-upgrade", "link", "rebuild", "get", "require", "create", "tap"];
// `apt-get clean`, `dnf clean all`: the package cache removed.
const UNINSTALL = ["uninstall", "remove", "rm", "un", "r", "purge", "autoremove", "erase", "del", "clean", "autoclean"];
const packages = (install: readonly string[], uninstall: readonly string[]): Readonly<Record<string, Kind>> =>
  lookup(Object.fromEntries([...install.map((w) => [w, "w"] as const), ...uninstall.map((w) => [w, "d"] as const)]));
const PACKAGE_MANAGERS: Readonly<Record<string, Readonly<Record<string, Kind>>>> = lookup({
  pip: packages(["install"], ["uninstall"]),
  pip3: packages(["install"], ["uninstall"]),
  pipx: packages(["install", "upgrade", "reinstall"], ["uninstall"]),
  npm: packages(["install", "i", "ci", "add", "update", "upgrade", "up", "link", "rebuild"], ["uninstall", "remove", "rm", "un", "r", "prune"]),
  pnpm: packages(["install", "i", "add", "update", "up"], ["remove", "rm", "uninstall", "un"]),
  yarn: packages(["add", "install", "upgrade"], ["remove"]),
  bun: packages(["install", "i", "add", "update"], ["remove", "rm"]),
  apt: packages(INSTALL, UNINSTALL),
  "apt-get": packages(INSTALL, UNINSTALL),
  yum: packages(INSTALL, UNINSTALL),
  dnf: packages(INSTALL, UNINSTALL),
  zypper: packages(INSTALL, UNINSTALL),
  apk: packages(["add", "upgrade"], ["del"]),
  brew: packages(["install", "upgrade", "reinstall", "tap", "link"], ["uninstall", "remove", "rm"]),
  gem: packages(["install", "update"], ["uninstall", "cleanup"]),
  cargo: packages(["install"], ["uninstall"]),
  go: packages(["install", "get"], []),
  conda: packages(["install", "update", "create"], ["remove", "uninstall"]),
  mamba: packages(["install", "update", "create"], ["remove", "uninstall"]),
  composer: packages(["install", "require", "update"], ["remove"]),
  uv: packages(["add", "sync"], ["remove"]),
  poetry: packages(["add", "install", "update"], ["remove"]),
  pipenv: packages(["install", "update", "sync"], ["uninstall"]),
  pdm: packages(["add", "install", "update", "sync"], ["remove"]),
  rye: packages(["add", "sync"], ["remove"]),
});

/** Subcommands of a program that acts alone which only read: `vercel ls`. */
const ALONE_READS: Readonly<Record<string, ReadonlySet<string>>> = lookup({
  vercel: new Set(["ls", "list", "inspect", "logs", "env", "domains", "whoami", "help", "dev", "pull", "login", "logout", "link", "build", "certs", "dns", "projects", "teams", "switch"]),
});

/** Database tools whose task names what they do: `rails db:drop`, `rake db:migrate`, `manage.py flush`. */
const DB_TASKS: Readonly<Record<string, Kind>> = lookup({
  "db:drop": "d", "db:reset": "d", "db:purge": "d", "db:schema:load": "d", "db:truncate_all": "d", "db:migrate": "w", "db:rollback": "d", "db:seed": "w", "db:setup": "w",
  flush: "d", migrate: "w", loaddata: "w", sqlflush: "d", clean: "d", clobber: "d",
});
// `python -m django flush` is django-admin by its module name.
const TASK_RUNNERS = new Set(["rails", "rake", "manage.py", "django-admin", "django"]);

/** Redis commands by what they do to the data. */
const REDIS_DESTRUCTIVE = /^(?:FLUSHALL|FLUSHDB|DEL|UNLINK|EXPIRE|PEXPIRE|GETDEL|SPOP|LPOP|RPOP|HDEL|SREM|ZREM|XDEL|XTRIM)$/i;
const REDIS_WRITE = /^(?:SET|SETEX|MSET|HSET|HMSET|LPUSH|RPUSH|SADD|ZADD|INCR|INCRBY|DECR|APPEND|RENAME|XADD|PUBLISH|CONFIG|RESTORE|MIGRATE|MOVE|COPY|SHUTDOWN)$/i;
const REDIS_VALUE_FLAGS = new Set(["-h", "-p", "-a", "-n", "-u", "--user", "--pass", "-s", "--tls", "--cacert", "--cert", "--key"]);

/** What a mongo shell script does: `db.users.deleteMany({})`, `db.dropDatabase()`. */
// (Also as a command document or a bulk operation: `runCommand({drop: "c"})`, `bulkWrite([{deleteMany: …}])`.)
const MONGO_DESTRUCTIVE = /\.(?:drop|dropDatabase|deleteMany|deleteOne|remove|findOneAndDelete|dropIndexes?)\s*\(|\brunCommand\s*\(\s*\{\s*["']?(?:drop|dropDatabase|delete)["']?\s*:|\{\s*["']?(?:deleteMany|deleteOne)["']?\s*:/;
const MONGO_WRITE = /\.(?:insert(?:One|Many)?|update(?:One|Many)?|replaceOne|findOneAndUpdate|findOneAndReplace|bulkWrite|createIndex|renameCollection)\s*\(/;

const TARGET_READ = new Set(["check", "checks", "status", "report", "dry", "dryrun", "list", "ls", "show", "preview", "diff", "plan", "verify", "lint", "audit", "info"]);

/** Words of a task runner's target that name an effect: `make deploy`, `npm run db:drop`, `./teardown.sh`. */
const TARGET_EXTERNAL = new Set(["deploy", "publish", "rollout", "promote", "ship"]);
// Infrastructure torn down (external), or data destroyed where the target does not say (a write).
const TARGET_TEARDOWN = new Set(["destroy", "teardown", "nuke"]);
// `make clean`, `npm run clear-cache`, `make prune`, `task flush`: a target by these words deletes what it names.
const TARGET_DESTRUCTIVE = new Set(["purge", "wipe", "drop", "delete", "remove", "erase", "truncate", "cleanup", "rm", "clean", "distclean", "clobber", "clear", "prune", "flush", "expunge", "cleanall", "mrproper"]);
// What `remove_background.py` removes is part of an image or a recording: a transformation, not a removal.
const MEDIA_OBJECT = new Set(["background", "bg", "watermark", "watermarks", "noise", "silence", "vocals", "echo", "blur", "redeye", "object", "objects", "text", "shadows"]);
// A script whose name says it changes data or the machine: `./migrate.sh`, `seed_db.py`.
const TARGET_WRITE = new Set(["reset", "migrate", "migration", "migrations", "seed", "backfill", "install", "upgrade", "restore", "import", "rotate", "fix", "repair", "tidy"]);

/** What a SQL file does, by its path's words: undefined for one named for a look-up (`report.sql`), a write when the name says nothing. */
export function sqlFileKind(file: string): { risk: Risk; destructive: boolean } | undefined {
  const words = file.toLowerCase().replace(/\.sql$/, "").split(/[^a-z0-9]+/).filter(Boolean);
  if (words.some((w, k) => (TARGET_DESTRUCTIVE.has(w) && !MEDIA_OBJECT.has(words[k + 1] ?? "")) || TARGET_TEARDOWN.has(w))) return EFFECT.d;
  if (words.some((w) => TARGET_WRITE.has(w) || SQL_FILE_WRITE.has(w))) return EFFECT.w;
  if (words.some((w) => SQL_FILE_READ.has(w))) return undefined;
  return EFFECT.w;
}
const SQL_FILE_READ = new Set(["report", "reports", "stats", "statistics", "select", "query", "queries", "count", "counts", "list", "show", "metrics", "summary", "analytics", "lookup", "view", "views", "check", "checks", "audit", "health", "inspect", "explain", "kpi", "kpis", "dashboard"]);
const SQL_FILE_WRITE = new Set(["update", "insert", "upsert", "alter", "schema", "ddl", "create", "fix", "patch", "load", "grant", "revoke", "set", "init", "setup"]);

/** The effect of `program args` when the table knows it; `sub` are the first words after the options. */
export function cliEffect(program: string, args: readonly string[], sub: readonly string[], byPath = false): CliEffect | undefined {
  const s0 = sub[0] ?? "";
  // `lerna clean --help`, `sqlx migrate revert --help`: a known program's usage. Not a script's (it may not read its
  // options), nor a package manager's or a task runner's, which hand the words after a script's name to the script (`yarn clean --help`).
  if (!byPath && !/\.[a-z]+$/.test(program) && !SCRIPT_RUNNERS.has(program) && args.includes("--help") && (!args.includes("--") || args.indexOf("--help") < args.indexOf("--"))) return undefined;
  const pkg = PACKAGE_MANAGERS[program]?.[s0.toLowerCase()];
  if (pkg) return { ...EFFECT[pkg], what: `${program} ${s0}` };
  if (program === "pip" || program === "pip3") {
    if (s0 === "cache" && /^(?:purge|remove)$/.test(sub[1] ?? "")) return { ...EFFECT.d, what: `${program} cache ${sub[1]}` };
  }
  // `mvn clean install`, `gradle clean build`: a goal anywhere among the first words.
  if ((program === "mvn" || program === "gradle" || program === "gradlew") && sub.includes("clean")) return { ...EFFECT.d, what: `${program} clean` };
  if (program === "stripe") return stripeEffect(sub);
  // `dotnet ef database update 0`: back to before the first migration, every table dropped.
  if (program === "dotnet" && sub.slice(0, 3).join(" ") === "ef database update" && args.includes("0")) return { ...EFFECT.d, what: "dotnet ef database update 0" };
  const table = SUBCOMMANDS[program];
  if (table) {
    // The longest run of subcommand words the table names: `dotnet ef database drop`, `supabase db reset`, `pulumi up`.
    const n = [3, 2, 1].find((k) => sub.length >= k && table[sub.slice(0, k).join(" ").toLowerCase()] !== undefined);
    const named = n !== undefined ? table[sub.slice(0, n).join(" ").toLowerCase()] : undefined;
    // A program that acts alone (`vercel`, `vercel ./site`, `ansible-playbook site.yml`) unless its subcommand reads.
    const kind = named ?? (table[""] !== undefined && !ALONE_READS[program]?.has(s0.toLowerCase()) ? table[""] : undefined);
    if (kind) return { ...EFFECT[kind], what: named ? `${program} ${sub.slice(0, n).join(" ")}` : program };
    if (!TASK_RUNNERS.has(program) && !TASK_TOOLS.has(program)) return undefined;
  }
  if (program === "prisma") {
    const two = `${s0} ${sub[1] ?? ""}`.trim();
    if (two === "migrate reset" || (two === "db push" && args.includes("--accept-data-loss"))) return { ...EFFECT.d, what: `prisma ${two}` };
    if (two === "migrate deploy" || two === "migrate dev" || two === "db push" || two === "db execute") return { ...EFFECT.w, what: `prisma ${two}` };
    return undefined;
  }
  if (program === "goose") {
    const command = sub.find((w) => w in GOOSE);
    return command ? { ...EFFECT[GOOSE[command]!], what: `goose ${command}` } : undefined;
  }
  if (TASK_RUNNERS.has(program)) {
    const task = sub.find((w) => w in DB_TASKS);
    return task ? { ...EFFECT[DB_TASKS[task]!], what: `${program} ${task}` } : undefined;
  }
  if (program === "redis-cli") {
    const command = redisCommand(args);
    // (`SCRIPT FLUSH`, `FUNCTION FLUSH`: the server's scripts; `SHUTDOWN NOSAVE`: what was not saved.)
    const next = command ? (args[args.findIndex((a) => a === command) + 1] ?? "") : "";
    const flushes = (/^(?:script|function)$/i.test(command ?? "") && /^flush$/i.test(next)) || (/^shutdown$/i.test(command ?? "") && /^nosave$/i.test(next));
    if (command && (REDIS_DESTRUCTIVE.test(command) || flushes)) return { ...EFFECT.d, what: `redis-cli ${command.toUpperCase()}${flushes ? ` ${next.toUpperCase()}` : ""}` };
    // `CONFIG GET` (and `HELP`) reads; `CONFIG SET|REWRITE|RESETSTAT` changes the server.
    if (command && /^config$/i.test(command) && /^(?:get|help)$/i.test(args[args.findIndex((a) => a === command) + 1] ?? "")) return undefined;
    if (command && REDIS_WRITE.test(command)) return { ...EFFECT.w, what: `redis-cli ${command.toUpperCase()}` };
    return undefined;
  }
  if (program === "mongo" || program === "mongosh") {
    const script = args.find((a, k) => args[k - 1] === "--eval") ?? "";
    const d = MONGO_DESTRUCTIVE.exec(script);
    if (d) return { ...EFFECT.d, what: `${program} ${d[0].replace(/\W+/g, " ").trim()}` };
    const w = MONGO_WRITE.exec(script);
    if (w) return { ...EFFECT.w, what: `${program} ${w[0].slice(1).replace(/\s*\($/, "")}` };
    return undefined;
  }
  // `--graph` draws the tasks, `--dry` / `--dry-run` lists them: nothing runs.
  if ((program === "nx" || program === "turbo") && args.some((a) => /^--(?:graph|dry(?:-run)?)(?:=|$)/.test(a))) return undefined;
  if (program === "nx") return nxEffect(args, sub);
  if (program === "turbo") {
    // `turbo run build clean`, `turbo clean`: every task named (they run in each workspace); words after `--` are the tasks' arguments.
    const own = args.includes("--") ? sub.slice(0, sub.length - args.slice(args.indexOf("--") + 1).filter((a) => !a.startsWith("-")).length) : sub;
    const tasks = own[0] === "run" ? own.slice(1) : own[0] !== undefined && !TURBO_COMMANDS.has(own[0]) ? own : [];
    for (const t of tasks) {
      const e = targetEffect(t, `turbo${sub[0] === "run" ? " run" : ""} ${t}`);
      if (e) return e;
    }
    return undefined;
  }
  return taskTarget(program, sub, byPath);
}

/** turbo's own commands: any other first word is a task (`turbo build`). */
const TURBO_COMMANDS = new Set(["prune", "login", "logout", "link", "unlink", "ls", "query", "info", "daemon", "gen", "generate", "telemetry", "bin", "scan", "watch", "boundaries", "completion", "devtools"]);

/** nx's own commands: any other first word is a target (`nx build web`). */
const NX_COMMANDS = new Set(["graph", "dep-graph", "list", "show", "report", "format", "format:check", "format:write", "generate", "g", "init", "daemon", "repair", "watch", "exec", "view-logs", "connect", "connect-to-nx-cloud", "migrate", "reset", "release", "add", "import", "sync", "sync:check", "login", "logout", "mcp", "configure-ai-agents"]);

/**
 * `nx run web:clean` (project:target[:configuration]), `nx run-many -t clean`, `nx affected
 * --target=deploy` (one target or a comma list), `nx clean web`: the target, read by its words.
 */
function nxEffect(args: readonly string[], sub: readonly string[]): CliEffect | undefined {
  const s0 = sub[0] ?? "";
  if (s0 === "run") {
    const target = /^[^:]*:([^:]+)/.exec(sub[1] ?? "")?.[1];
    return target ? targetEffect(target, `nx run ${sub[1]}`) : undefined;
  }
  if (s0 === "run-many" || s0 === "affected") {
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      const m = /^(?:-t|--targets?)(?:=(.*))?$/.exec(a);
      if (!m) continue;
      // `-t build,deploy`, `--target=deploy`, `-t build deploy` (the words up to the next option).
      const values = m[1] !== undefined ? [m[1]] : args.slice(k + 1, k + 1 + Math.max(1, args.slice(k + 1).findIndex((x) => x.startsWith("-")) >>> 0));
      for (const t of values.flatMap((v) => v.split(","))) {
        const e = targetEffect(t, `nx ${s0} ${m[1] !== undefined ? a : `${a} ${t}`}`);
        if (e) return e;
      }
    }
    return undefined;
  }
  // `nx release` versions, tags and publishes; `nx g`, `nx migrate`, `nx format:write` change the workspace.
  if (s0 === "release") return { ...EFFECT.x, what: "nx release" };
  if (/^(?:g|generate|migrate|format|format:write|import|add|sync|repair)$/.test(s0)) return { ...EFFECT.w, what: `nx ${s0}` };
  return s0 && !NX_COMMANDS.has(s0) ? targetEffect(s0, `nx ${s0}`) : undefined;
}

/** Programs that pass the words after a script's or task's name to it. */
const SCRIPT_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun", "just", "task", "gulp", "grunt"]);

/** Programs in the table above that also run tasks by name (`npm run clean`, `yarn clear-cache`): looked at again below. */
const TASK_TOOLS = new Set(["npm", "pnpm", "yarn", "lerna"]);

/** `stripe <resource> <verb>`: a change to the account (external); deleting or cancelling destroys. */
function stripeEffect(sub: readonly string[]): CliEffect | undefined {
  const [resource, verb] = sub;
  // `stripe trigger <event>` and `stripe fixtures f.json` create real objects in the account; `stripe delete|post /v1/...` call the API.
  if (resource === "trigger" || resource === "fixtures" || resource === "post") return { ...EFFECT.x, what: `stripe ${resource}` };
  if (resource === "delete") return { ...EFFECT.xd, what: "stripe delete" };
  if (!resource || !verb || /^(?:list|retrieve|get|search|listen|logs|login|config|version|help|samples|open|status)$/.test(resource) || /^(?:list|retrieve|get|search)$/.test(verb)) return undefined;
  const destructive = /^(?:delete|cancel|void|close|reject|expire|deactivate|detach)$/.test(verb);
  return { ...EFFECT[destructive ? "xd" : "x"], what: `stripe ${resource} ${verb}` };
}

/** The Redis command word of a `redis-cli` line: the first word after its options. */
function redisCommand(args: readonly string[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a.startsWith("-")) {
      if (REDIS_VALUE_FLAGS.has(a)) k++;
      continue;
    }
    return a;
  }
  return undefined;
}

/** `make deploy`, `npm run deploy:prod`, `yarn publish-site`, `just teardown`, `./scripts/deploy.sh`. */
function taskTarget(program: string, sub: readonly string[], path: boolean): CliEffect | undefined {
  let target: string | undefined;
  let shown: string;
  if (program === "make" || program === "just" || program === "task" || program === "gulp" || program === "grunt") {
    target = sub.find((w) => !w.includes("="));
    shown = `${program} ${target}`;
  } else if (program === "yarn" && sub[0] === "workspace" && sub[1] !== undefined) {
    // `yarn workspace web clean`, `yarn workspace @acme/web run clean`: a workspace's script.
    const run = sub[2] === "run";
    target = run ? sub[3] : sub[2];
    shown = `yarn workspace ${sub[1]}${run ? " run" : ""} ${target}`;
  } else if (program === "lerna" && sub[0] === "run") {
    // `lerna run clean`: the script of every package that has one.
    target = sub[1];
    shown = `lerna run ${target}`;
  } else if (program === "npm" || program === "pnpm" || program === "yarn" || program === "bun") {
    // `npm run x`, `pnpm run x`, `yarn x` (npm publish is risk-shell's).
    target = sub[0] === "run" || sub[0] === "run-script" ? sub[1] : program === "npm" ? undefined : sub[0];
    shown = `${program}${sub[0] === "run" || sub[0] === "run-script" ? ` ${sub[0]}` : ""} ${target}`;
  } else if (/\.(?:sh|bash|zsh|ps1|py|rb|js|mjs|cjs|ts|pl|php|R|r)$/.test(program) || path) {
    target = program.replace(/\.[a-z0-9]+$/, "");
    shown = program;
  } else {
    return undefined;
  }
  return target ? targetEffect(target, shown) : undefined;
}

/** What a task or script named `target` does, by its words (`clean`, `db:drop`, `deploy-site`); shown as `shown`. */
function targetEffect(target: string, shown: string): CliEffect | undefined {
  // `purgeCache`, `deleteOldBackups.py`: camelCase words too.
  const words = target.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
  // `clean:check`, `prune:dry`, `flush-status`: a target that ends in a look-up reports on the effect.
  if (TARGET_READ.has(words[words.length - 1]!)) return undefined;
  if (words.some((w) => TARGET_TEARDOWN.has(w))) return { ...EFFECT.xd, what: shown };
  if (words.some((w) => TARGET_EXTERNAL.has(w))) return { ...EFFECT.x, what: shown };
  if (words.some((w, k) => TARGET_DESTRUCTIVE.has(w) && !MEDIA_OBJECT.has(words[k + 1] ?? ""))) return { ...EFFECT.d, what: shown };
  if (words.some((w) => TARGET_WRITE.has(w))) return { ...EFFECT.w, what: shown };
  return undefined;
}
