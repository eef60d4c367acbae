/**
 * Red-team rows of 7 December against the readings merged at 664f5d3 and 185be03 (joined
 * here-strings, awk's system(), eval and `sh -c` with the line, what a container runs, every
 * ssh hop, the depth read). Each row failed at aa80640 (37 of them): an escape read as a
 * read or as a write that destroys nothing, a shell's syntax check of a here-string read as
 * the destructive write it only checks, an awk line read in time that grew with the square
 * of its length. The hard negatives (`: as before`, the other reads, and `sudo bash -n`,
 * which read nothing at aa80640 either) held then and must stay as they are.
 */
import { describe, expect, it } from "vitest";
import { commandEffects } from "../../src/lint/risk-shell.js";
import { commandVerdict as verdict, runCommand } from "./step-risk.js";

describe("a here-string to a shell behind a wrapper, a keyword or an option", () => {
  it.each([
    "sudo sh <<< 'rm -rf /x'",
    "env sh <<< 'rm -rf /x'",
    "nice sh <<< 'rm -rf /x'",
    "timeout 5 sh <<< 'rm -rf /x'",
    "sudo -u root bash -s <<< 'rm -rf /x'",
    "{ sh <<< 'rm -rf /x'; }",
    "if true; then sh <<< 'rm -rf /x'; fi",
    "bash --norc <<< 'rm -rf /x'",
    "sh /dev/stdin <<< 'rm -rf /x'",
    "source /dev/stdin <<< 'rm -rf /x'",
    ". /dev/stdin <<< 'rm -rf /x'",
    "docker exec -i db sh <<< 'rm -rf /x'",
    "echo 'rm -rf /x' | docker exec -i db sh",
    "echo 'rm -rf /x' | sudo docker compose exec -T web bash",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    ["sudo cat <<< 'rm -rf /x'", "read", false],
    ["sudo grep -c rm <<< 'rm -rf /x'", "read", false],
    ["sudo sh ./check.sh <<< 'rm -rf /x'", "read", false],
    ["sudo sh <<< 'ls /x'", "read", false],
    // (Reads since a command run in a container that is there is its own effect: see below.)
    ["docker exec -i db sh <<< 'ls /x'", "read", false],
    ["echo 'rm -rf /x' | docker exec -i db grep -c rm", "read", false],
    ["echo 'rm -rf /x' | docker exec -i db sh ./check.sh", "read", false],
  ] as const)("%s: as before", (command, risk, destructive) => {
    expect(verdict(command)).toEqual([risk, destructive]);
  });
});

describe("a shell's syntax check of a here-string (a false alarm at aa80640)", () => {
  it.each(["sh -n <<< 'rm -rf /x'", "bash -n <<< \"rm -rf /x\"", "sudo bash -n <<< 'rm -rf /x'"])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
  it("sh <<< 'rm -rf /x' is still a destructive write", () => {
    expect(verdict("sh <<< 'rm -rf /x'")).toEqual(["write", true]);
  });
});

describe("awk's system() given a sprintf, or strings joined across a continued line", () => {
  it.each([
    "awk 'BEGIN { system(sprintf(\"rm -rf %s\", \"/x\")) }'",
    "awk 'BEGIN { system(\"r\" \\\n \"m -rf /x\") }'",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it("reads a sprintf of a read", () => {
    expect(verdict("awk 'BEGIN { system(sprintf(\"ls %s\", \"/x\")) }'")).toEqual(["read", false]);
  });
});

describe("a shell's -c with its options after it", () => {
  it("bash -c -l 'rm -rf /x': a destructive write", () => {
    expect(verdict("bash -c -l 'rm -rf /x'")).toEqual(["write", true]);
  });
  it("bash -c -l 'ls /x': a read", () => {
    expect(verdict("bash -c -l 'ls /x'")).toEqual(["read", false]);
  });
});

describe("compose's own program, and docker's options that take a value", () => {
  it.each([
    "docker-compose run web rm -rf /x",
    "docker-compose exec web rm -rf /x",
    "docker-compose -f ops.yml exec -T web rm -rf /x",
    "docker-compose down -v",
    "podman-compose exec web rm -rf /x",
    "docker run --detach-keys ctrl-x alpine rm -rf /x",
    "docker exec --detach-keys ctrl-x db rm -rf /x",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each(["docker-compose ps", "docker-compose logs web", "podman-compose ps"])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("ssh's options after the host, and those that take a value", () => {
  it.each([
    "ssh host -- rm -rf /x",
    "ssh -p 2222 host -- rm -rf /x",
    "ssh host -t rm -rf /x",
    "ssh jump -t ssh db rm -rf /x",
    "ssh -B eth0 host rm -rf /x",
    "ssh -P tag host rm -rf /x",
    "ssh -w 0:1 host rm -rf /x",
    "ssh -e none host rm -rf /x",
    "ssh -I pkcs11.so host rm -rf /x",
    "autossh -M 0 host rm -rf /x",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each(["ssh host -- ls /x", "ssh host -t top -b -n1", "ssh -B eth0 host uptime", "autossh -M 0 -N -L 5432:db:5432 bastion"])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("what a pod runs (kubectl and oc exec, run, debug after `--`)", () => {
  // Left by the red team as a question; at 4e747db each was read as `kubectl exec`, external and not destructive.
  // An exec runs the command in a pod that is there, and nothing else: its effect is the command's, as `ssh host …` is.
  it.each([
    "kubectl exec web-0 -- rm -rf /data",
    "kubectl exec -n shop -it web-0 -c app -- rm -rf /data",
    "kubectl exec web-0 -- sh -c 'rm -rf /data'",
    "oc exec web-0 -- rm -rf /data",
    "kubectl exec db-0 -- psql -c 'DROP TABLE users'",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  // A run or a debug session makes a pod (or a container in one) as well: external, and destructive by its command.
  it.each(["kubectl run wipe --image=alpine --restart=Never -- rm -rf /data", "kubectl debug -it web-0 --image=busybox -- rm -rf /data"])(
    "%s: external and destructive",
    (command) => {
      expect(verdict(command)).toEqual(["external", true]);
    },
  );

  it("names the production context for what the pod runs", () => {
    expect(commandEffects("kubectl --context prod-eu-1 exec web-0 -- rm -rf /data").some((e) => e.destructive && e.production === "prod-eu-1")).toBe(true);
  });
});

describe("a command run in a container or pod that is there is its own effect (false alarms of the red team, at 29403d4 writes or external)", () => {
  it.each([
    "docker exec db ls /var",
    "docker exec db cat /etc/hosts",
    "docker exec db psql -c 'SELECT 1'",
    "docker exec -it db psql -c 'SELECT 1'",
    "docker exec -e PGPASSWORD=x db psql -c 'SELECT 1'",
    "docker compose exec db psql -c 'SELECT 1'",
    "docker compose -f a.yml exec db ls",
    "podman exec db ls /var",
    "ssh host docker exec db ls",
    "kubectl exec web-0 -- ls /data",
    "kubectl exec web-0 -- cat /etc/os-release",
    "oc exec web-0 -- ls",
  ])("%s: a read", (command) => {
    expect(runCommand(command).risk).toBe("read");
  });

  it.each([
    // A new container (and its image, and its entrypoint in front of the command) stays a write.
    ["docker run --rm alpine cat /etc/os-release", "write", false],
    ["docker compose run --rm web ls", "write", false],
    ["kubectl run t --image=alpine --restart=Never -- ls", "external", false],
    // An exec with no command to read, and one whose command writes.
    ["docker exec db", "write", false],
    ["docker exec db touch /tmp/x", "write", false],
    ["docker exec db rm -rf /var/lib/data", "write", true],
    ["kubectl exec -it web-0 -- sh", "read", false],
  ] as const)("%s: %s", (command, risk, destructive) => {
    const r = runCommand(command);
    expect([r.risk, r.destructive]).toEqual([risk, destructive]);
  });
});

describe("other runners of a command where it is: mosh, lxc and incus exec, crictl exec (unread at 03c5fbb)", () => {
  it.each([
    "mosh host -- rm -rf /x",
    "mosh --ssh='ssh -p 2222' host -- rm -rf /x",
    "lxc exec web -- rm -rf /x",
    "lxc exec web --env A=1 --cwd /srv -- rm -rf /x",
    "lxc exec web rm -rf /x",
    "incus exec web -- sh -c 'rm -rf /x'",
    "crictl exec -it web rm -rf /x",
    "crictl exec --timeout 5 web rm -rf /x",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it("names the production host mosh runs the command on", () => {
    expect(commandEffects("mosh db01.prod.internal -- rm -rf /srv/cache").map((e) => e.production)).toEqual(["db01.prod.internal"]);
  });

  it.each(["mosh host", "mosh host -- ls /x", "lxc exec web -- ls /x", "lxc list", "incus exec web -- cat /etc/hosts", "crictl exec web cat /etc/hosts", "crictl ps"])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("time", () => {
  // At aa80640 each `-v` word read every value again: 80k characters took 1.8 s, 160k four times that.
  it("awk with 20,000 -v assignments is read in linear time", () => {
    const command = "awk " + "-v a=b ".repeat(20_000) + "'BEGIN { system(a) }'";
    const t0 = performance.now();
    commandEffects(command);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
