/**
 * The gate's leftovers of 7 December, late evening (bench/README.md, "The gate: wrapper chains, interpreter code and
 * SQL", "Left (not closed)"): SQL built from pieces that are not literals, a program run through node's internal
 * bindings, a shell given code on a pipe (perl's `open(P, "| sh")`, Tcl's `open "|…"`, `IO.popen("sh", "w")`), a
 * program and its argument vector (`system2("find", c(…))`, `execFileSync("find", […])`), R's `do.call`, vim scripts
 * by name, and sudo's env_reset. Every escape row failed at 61095c6 (read as a read or as a write that destroys
 * nothing) unless marked "as before"; the reads and the writes that destroy nothing are hard negatives and must stay.
 */
import { describe, expect, it } from "vitest";
import { commandVerdict as verdict, runSql } from "./step-risk.js";

describe("SQL built from pieces that are not literals: code the plan does not show", () => {
  it.each([
    `psql -c "DO \\$\\$ BEGIN EXECUTE chr(68) || 'ROP TABLE t'; END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE concat('DR', 'OP TABLE t'); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE reverse('t ELBAT PORD'); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE format('%s', current_setting('app.q')); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE v_sql; END \\$\\$"`,
    `psql -c "DO \\$\\$ DECLARE q text := chr(68) || 'ROP TABLE t'; BEGIN EXECUTE q; END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'DR' || chr(79) || 'P TABLE t'; END \\$\\$"`,
    `sqlcmd -Q "EXEC('DR' + 'OP TABLE t')"`,
    `sqlcmd -Q "EXECUTE ('DR' + 'OP DATABASE app')"`,
    `sqlcmd -Q "EXEC(CHAR(68) + 'ROP TABLE t')"`,
    `sqlcmd -Q "DECLARE @s nvarchar(100) = 'DR' + 'OP TABLE t'; EXEC(@s)"`,
    `sqlcmd -Q "EXEC sp_executesql @q"`,
    `mysql -e "PREPARE s FROM CONCAT('DR', 'OP TABLE t'); EXECUTE s"`,
    `mysql -e "SET @q = CONCAT('DR','OP TABLE t'); PREPARE s FROM @q; EXECUTE s"`,
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it("through a SQL tool too", () => {
    expect(runSql("DO $$ BEGIN EXECUTE chr(68) || 'ROP TABLE t'; END $$")).toMatchObject({ risk: "write", destructive: true });
    expect(runSql("EXEC(CHAR(68) + 'ROP TABLE t')")).toMatchObject({ risk: "write", destructive: true });
    expect(runSql("DO $$ BEGIN EXECUTE 'SELECT 1'; END $$")).toMatchObject({ risk: "write", destructive: false });
  });

  it.each([
    // As before: the pieces are literals, joined by `||`; a statement named whole.
    `psql -c "DO \\$\\$ BEGIN EXECUTE format('DR' || 'OP TABLE %I', t); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'DELETE FROM ' || quote_ident(t); END \\$\\$"`,
    `mysql -e "PREPARE s FROM 'DROP TABLE t'; EXECUTE s"`,
    `sqlcmd -Q "EXEC sp_executesql N'DROP TABLE t'"`,
  ])("%s: a destructive write (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // A block or EXECUTE whose statement is shown, and starts with a verb that does not destroy: as before, a write.
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'SELECT 1'; END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'VACUUM ' || quote_ident(t); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE format('ANALYZE %I', t); END \\$\\$"`,
    `psql -c "DO \\$\\$ BEGIN EXECUTE 'SELECT count(*) FROM ' || quote_ident(t) INTO n; END \\$\\$"`,
    `psql -c "DO \\$\\$ DECLARE q text := 'SELECT 1'; BEGIN EXECUTE q; END \\$\\$"`,
    `sqlcmd -Q "EXEC('SELECT 1')"`,
    `sqlcmd -Q "DECLARE @s nvarchar(100) = 'SELECT ' + '1'; EXEC(@s)"`,
    `mysql -e "PREPARE s FROM 'SELECT 1'; EXECUTE s"`,
    `mysql -e "SET @q = 'SELECT 1'; PREPARE s FROM @q; EXECUTE s"`,
    `psql -c "EXECUTE my_plan(1)"`,
  ])("%s: a write that destroys nothing (as before)", (command) => {
    expect(verdict(command)).toEqual(["write", false]);
  });

  it.each([
    `psql -c "SELECT chr(68) || 'ROP TABLE t'"`,
    `psql -c "SELECT concat('DR', 'OP TABLE t')"`,
    `sqlcmd -Q "SELECT 'DR' + 'OP TABLE t'"`,
    `mysql -e "SELECT CONCAT('a', 'b')"`,
    `sqlcmd -Q "EXEC sp_helpdb"`,
    `sqlcmd -Q "EXEC dbo.usp_get_orders @id = 1"`,
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});

describe("sudo starts its program with a new environment (env_reset), not the line's exported variables", () => {
  it.each([
    // Under sudo X is unset: the child shell runs the default.
    "export X=ls; sudo bash -c '${X:-rm -rf /data}'",
    "export X=ls; sudo -u app sh -c '${X:-rm -rf /data}'",
    "export X=ls; doas sh -c '${X:-rm -rf /data}'",
  ])("%s: a destructive write", (command) => {
    expect(verdict(command)).toEqual(["write", true]);
  });

  it.each([
    // Kept: -E, --preserve-env, and what is assigned after sudo.
    "export X=ls; sudo -E bash -c '${X:-rm -rf /data}'",
    "export X=ls; sudo --preserve-env bash -c '${X:-rm -rf /data}'",
    "export X=ls; sudo --preserve-env=X bash -c '${X:-rm -rf /data}'",
    "sudo X=ls bash -c '${X:-rm -rf /data}'",
    "export X=ls; bash -c '${X:-rm -rf /data}'",
  ])("%s: a read", (command) => {
    expect(verdict(command)).toEqual(["read", false]);
  });
});
