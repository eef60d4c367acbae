/**
 * Red team, 8 December (night): destructive effects through common CLIs' less-known subcommands and flags (git's
 * worktrees, tags and refs, pulumi's stacks, terraform's workspaces, kubectl's prune, podman's reset, gio and srm), a
 * method a server takes from a header or a `_method` parameter on curl's, wget's and HTTPie's command lines, a command
 * word joined with `$IFS`, and toybox's applets. Every escape row failed at 0336f88 (read as a read, or as a write that
 * destroys nothing) unless marked "as before"; the reads are hard negatives and must stay.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { commandVerdict as verdict, SHELL, stepRisk } from "./step-risk.js";

describe("less-known subcommands that destroy", () => {
  it.each([
    ["git worktree remove --force wt", "write"],
    ["git worktree remove wt", "write"],
    ["git tag -d v1", "write"],
    ["git tag --delete v1", "write"],
    ["git update-ref -d refs/heads/main", "write"],
    ["git rm -rf src", "write"],
    ["git filter-branch --force --tree-filter 'true' HEAD", "write"],
    ["git filter-repo --path secrets --invert-paths", "write"],
    ["git gc --prune=now", "write"],
    ["pulumi stack rm prod --yes", "external"],
    ["pulumi state delete urn:pulumi:prod::x", "external"],
    ["terraform workspace delete prod", "external"],
    ["kubectl apply --prune -f dir/ -l app=x", "external"],
    ["kubectl apply -f dir/ --prune --all", "external"],
    ["kubectl replace --force -f x.yaml", "external"],
    ["podman system reset -f", "write"],
    ["gio trash f", "write"],
    ["gio remove f", "write"],
    ["srm -r secrets", "write"],
  ])("%s: destructive", (command, risk) => {
    expect(verdict(command)).toEqual([risk, true]);
  });

  it.each([
    ["git worktree list", "read", false],
    ["git worktree add ../wt main", "write", false], // (a read at 0336f88: worktree was read whole)
    ["git tag -l", "read", false],
    ["git tag v1", "write", false],
    ["git rm --cached f", "write", false],
    ["git update-ref refs/heads/x HEAD", "write", false],
    ["git gc", "write", false],
    ["pulumi stack ls", "read", false],
    ["pulumi stack select dev", "read", false],
    ["pulumi stack output", "read", false],
    ["terraform workspace list", "read", false],
    ["terraform workspace select prod", "read", false],
    ["kubectl apply -f x.yaml", "external", false],
    ["kubectl replace -f x.yaml", "external", false],
    ["podman system df", "write", false],
    ["gio list .", "read", false],
    ["gio info f", "read", false],
  ] as const)("%s: %s, destroys nothing (as before)", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("a method a server takes from a header or a `_method` parameter, on a command line", () => {
  it.each([
    "curl -H 'X-HTTP-Method-Override: DELETE' -X POST https://api.example.com/x/1",
    `curl -H "X-HTTP-Method-Override: DELETE" https://api.example.com/x/1`,
    "curl -HX-HTTP-Method-Override:DELETE https://api.example.com/x/1",
    "curl --header 'X-Method-Override: delete' https://api.example.com/x/1",
    "curl --header='X-HTTP-Method: DELETE' https://api.example.com/x/1",
    "curl 'https://api.example.com/x/1?_method=DELETE' -X POST",
    "curl https://api.example.com/x/1?_method=DELETE",
    "wget --header='X-HTTP-Method-Override: DELETE' https://api.example.com/x/1",
    "http POST https://api.example.com/x/1 X-HTTP-Method-Override:DELETE",
    "http https://api.example.com/x/1?_method=DELETE",
  ])("%s: an external delete", (command) => {
    expect(verdict(command)).toEqual(["external", true]);
  });

  it.each([
    ["curl -H 'X-HTTP-Method-Override: PATCH' https://api.example.com/x/1", "external"],
    ["curl 'https://api.example.com/x/1?_method=PUT'", "external"],
    ["curl -H 'X-HTTP-Method-Override: GET' https://api.example.com/x", "read"],
    ["curl 'https://api.example.com/x?_method=GET'", "read"],
    ["curl -H 'Accept: application/json' https://api.example.com/x", "read"],
    ["curl 'https://api.example.com/x?my_method=DELETE'", "read"],
    ["http https://api.example.com/x X-Request-Id:DELETE", "read"],
  ] as const)("%s: %s, destroys nothing", (command, risk) => {
    expect(verdict(command)).toEqual([risk, false]);
  });
});

describe("a command word joined with $IFS, and toybox's applets", () => {
  it.each([
    "rm${IFS}-rf${IFS}/data",
    "rm$IFS-rf$IFS/data",
    "toybox rm -rf x",
    "/bin/toybox rm -rf x",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    "cat${IFS}/etc/passwd",
    "echo${IFS}hi",
    "toybox cat f",
    "toybox ls -l",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });

  it("IFS set on the line splits where it says (as before)", () => {
    expect(verdict("IFS=,; c=rm,-rf,x; $c")).toEqual(["write", true]);
  });
});

describe("an expression of literals alone, in a step's arguments: the text it gives", () => {
  const TOOLS = "{ http.request: { risk: read, description: Make an HTTP request }, exec: { risk: read, description: Run a program } }";
  const step = (tool: string, w: string) => {
    const r = stepRisk(TOOLS, `kind: read\ngoal: Run it\ntool: ${tool}\nwith: ${w}`);
    return [r.risk, r.destructive];
  };

  it.each([
    ["exec", `{ command: "\${{ 'rm -rf' }} /data" }`, "write"],
    ["exec", `{ command: "\${{ 'r' + 'm' }} -rf /data" }`, "write"],
    ["exec", `{ command: "\${{ 'rm -rf /data' }}" }`, "write"],
    ["exec", `{ args: ["\${{ 'rm' }}", "-rf", "/data"] }`, "write"],
    ["http.request", `{ url: "https://api.example.com/users/1", method: "\${{ 'DEL' + 'ETE' }}" }`, "external"],
    ["http.request", `{ url: "https://api.example.com/users/1", method: "\${{ upper('delete') }}" }`, "external"],
  ])("%s %s: destructive", (tool, w, risk) => {
    expect(step(tool, w)).toEqual([risk, true]);
  });

  it.each([
    ["exec", `{ command: "\${{ 'ls' }} -l" }`, "read"],
    ["exec", `{ command: "ls \${{ run.id }}" }`, "read"],
    ["exec", `{ command: "rm -rf \${{ run.id }}" }`, "write"],
    ["http.request", `{ url: "https://api.example.com/users/1", method: "\${{ 'GE' + 'T' }}" }`, "read"],
  ])("%s %s: as before, or a read", (tool, w, risk) => {
    expect(step(tool, w)[0]).toBe(risk);
  });

  it("a GraphQL mutation inside a JSON body given as a string", () => {
    expect(step("http.request", `{ url: "https://api.example.com/graphql", method: POST, body: "{\\"query\\": \\"mutation { deleteUser(id: 1) { id } }\\"}" }`)).toEqual(["external", true]);
    expect(step("http.request", `{ url: "https://api.example.com/graphql", method: POST, body: "{\\"query\\": \\"mutation { createUser(name: 1) { id } }\\"}" }`)).toEqual(["external", false]);
  });
});

describe("options in front of aws's service, a library or a start-up file the environment loads, a mutation posted by curl", () => {
  it.each([
    ["aws --profile prod s3 rm s3://b --recursive", "external"],
    ["aws --region us-east-1 dynamodb delete-table --table-name t", "external"],
    ["aws --endpoint-url http://localhost:4566 s3 rb s3://b --force", "external"],
    ["aws --output json ec2 terminate-instances --instance-ids i-1", "external"],
    ["LD_PRELOAD=/tmp/x.so ls", "write"],
    ["env LD_PRELOAD=./evil.so cat f", "write"],
    ["LD_AUDIT=./a.so cat f", "write"],
    ["BASH_ENV=./x.sh bash -c ls", "write"],
    [`curl -X POST https://api.example.com/graphql -d '{"query":"mutation { deleteUser(id: 1) { id } }"}'`, "external"],
    [`curl https://api.example.com/graphql --data-raw '{"query": "mutation {\\n  deleteUser(id: 1) { id }\\n}"}'`, "external"],
    [`curl https://api.example.com/graphql --json '{"query":"mutation Drop { removeAllUsers { count } }"}'`, "external"],
  ])("%s: destructive", (command, risk) => {
    expect(verdict(command)).toEqual([risk, true]);
  });

  it.each([
    ["aws --profile prod s3 ls", "read"], // (an external write at 0336f88: `prod` was read as the service)
    ["aws --output json ec2 describe-instances", "read"], // (the same)
    ["aws --no-cli-pager s3 ls", "read"],
    ["LD_PRELOAD= ls", "read"],
    ["LD_LIBRARY_PATH=./lib ls", "read"],
    [`curl https://api.example.com/graphql -d '{"query":"mutation { createUser(name: \\"a\\") { id } }"}'`, "external"],
    [`curl https://api.example.com/graphql -d '{"query":"query { deleteRequests { id } }"}'`, "external"],
  ] as const)("%s: %s, destroys nothing", (command, risk) => {
    expect(verdict(command)).toEqual([risk, false]);
  });
});

describe("more subcommands and flags that destroy: git's refs and branches, tar, azcopy, redis, mongo's command documents", () => {
  it.each([
    ["git branch -f main HEAD~5", "write"], // (a read at 90cdf07)
    ["git switch -f main", "write"],
    ["git switch --discard-changes main", "write"],
    ["git replace -d abc123", "write"],
    ["git symbolic-ref -d HEAD", "write"],
    ["git prune", "write"],
    ["git push --prune origin", "external"],
    ["tar -czf a.tgz --remove-files data", "write"],
    ["azcopy remove https://acct.blob.core.windows.net/c --recursive", "external"], // (a read at 90cdf07)
    ["redis-cli SCRIPT FLUSH", "write"], // (reads at 90cdf07)
    ["redis-cli FUNCTION FLUSH", "write"],
    ["redis-cli SHUTDOWN NOSAVE", "write"],
    [`mongosh --eval 'db.runCommand({drop: "users"})'`, "write"], // (a read at 90cdf07)
    [`mongosh --eval 'db.users.bulkWrite([{deleteMany: {filter: {}}}])'`, "write"],
  ])("%s: destructive", (command, risk) => {
    expect(verdict(command)).toEqual([risk, true]);
  });

  it.each([
    ["git branch feature", "read"],
    ["git switch main", "write"],
    ["git push origin main", "external"],
    ["tar -czf a.tgz data", "write"],
    ["azcopy list https://acct.blob.core.windows.net/c", "read"],
    ["redis-cli SCRIPT EXISTS abc", "read"],
    ["redis-cli SHUTDOWN", "write"], // (a read at 90cdf07: the server stopped, what was saved kept)
    [`mongosh --eval 'db.runCommand({ping: 1})'`, "read"],
    [`mongosh --eval 'db.users.find({drop: 1})'`, "read"],
    [`mongosh --eval 'db.users.find({}, {delete: 0})'`, "read"],
  ] as const)("%s: %s, destroys nothing", (command, risk) => {
    expect(verdict(command)).toEqual([risk, false]);
  });
});

describe("a for_each over literal items: each item is what the step is handed", () => {
  const TOOLS = "{ http.request: { risk: read, description: Make an HTTP request }, exec: { risk: read, description: Run a program } }";
  const each = (items: string, tool: string, w: string) => {
    const r = stepRisk(TOOLS, `kind: read\ngoal: Run each\nfor_each: { items: "\${{ ${items} }}" }\ntool: ${tool}\nwith: ${w}`);
    return [r.risk, r.destructive];
  };

  it.each([
    ["['ls', 'rm -rf /data']", "exec", `{ command: "\${{ item }}" }`, "write"],
    ["['ls', 'rm']", "exec", `{ command: "\${{ item }} -rf /data" }`, "write"],
    ["['GET', 'DELETE', 'POST']", "http.request", `{ url: "https://api.example.com/x", method: "\${{ item }}" }`, "external"],
  ])("%s, %s %s: destructive", (items, tool, w, risk) => {
    expect(each(items, tool, w)).toEqual([risk, true]);
  });

  it.each([
    ["['ls', 'cat f']", "exec", `{ command: "\${{ item }}" }`, "read"],
    ["['a', 'b']", "http.request", `{ url: "https://api.example.com/\${{ item }}" }`, "read"],
    ["['POST', 'GET']", "http.request", `{ url: "https://api.example.com/x", method: "\${{ item }}" }`, "external"],
    ["run.id", "exec", `{ command: "\${{ item }}" }`, "read"],
  ])("%s, %s %s: destroys nothing", (items, tool, w, risk) => {
    expect(each(items, tool, w)).toEqual([risk, false]);
  });
});

describe("time", () => {
  it("long inputs stay under 10 s", () => {
    const t = Date.now();
    commandEffects(`curl ${"-H 'X-HTTP-Method-Override: GET' ".repeat(8000)}https://api.example.com/x`);
    commandEffects(`curl 'https://api.example.com/x?${"_method=GET&".repeat(20000)}'`);
    commandEffects(`${"a${IFS}".repeat(20000)}b`);
    commandEffects(`${"$IFS".repeat(20000)}rm`);
    commandEffects(`git worktree ${"remove ".repeat(20000)}`);
    commandEffects(`curl -d '{"query": "mutation ${"a".repeat(200000)}'`);
    commandEffects(`curl -d '${'{"query": "mutation '.repeat(20000)}'`);
    commandEffects(`${"LD_PRELOAD=x ".repeat(20000)}ls`);
    commandEffects(`mongosh --eval 'db.runCommand(${"{ ".repeat(50000)}'`);
    commandEffects(`mongosh --eval '${"runCommand( { x".repeat(20000)}'`);
    stepRisk("{ exec: { risk: read, description: Run a program } }", `kind: read\ngoal: Run each\nfor_each: { items: "\${{ [${"'ls', ".repeat(20000)}'ls'] }}" }\ntool: exec\nwith: { command: "\${{ item }} \${{ item }} \${{ 'x' + 'y' }}" }`);
    expect(Date.now() - t).toBeLessThan(10_000);
  });
});

describe("a library or a start-up file given in a shell step's env map, not on its command line", () => {
  const withEnv = (env: string) => {
    const r = stepRisk(SHELL, `kind: read\ngoal: Run the report\ntool: shell.run\nwith: { command: ./report.sh, env: ${env} }`);
    return [r.risk, r.destructive];
  };
  it.each(["{ LD_PRELOAD: /tmp/x.so }", "{ LD_AUDIT: ./a.so }", "{ BASH_ENV: ./rc.sh }", '{ PATH: /usr/bin, LD_PRELOAD: "/opt/libs/${{ run.id }}.so" }'])(
    "%s: code the plan does not show, destructive (it was a read at 87c0672)",
    (env) => {
      expect(withEnv(env)).toEqual(["write", true]);
    },
  );

  it.each(["{ LD_PRELOAD: '' }", "{ LD_LIBRARY_PATH: ./lib }", "{ LANG: C.UTF-8, TZ: UTC }"])("%s: still a read", (env) => {
    expect(withEnv(env)).toEqual(["read", false]);
  });
});
