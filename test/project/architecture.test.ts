import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)[^"']*?from\s+["']([^"']+)["']/gm)].map((m) => m[1] as string);
}

function resolved(file: string, specifier: string): string {
  return path.relative(ROOT, path.resolve(path.dirname(file), specifier));
}

// Every loop of a graph of imports, as `a → b → a`.
function loopsOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const loops: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") {
      loops.push([...trail.slice(trail.indexOf(node)), node].join(" → "));
      return;
    }
    state.set(node, "open");
    for (const target of graph.get(node) ?? []) if (graph.has(target)) visit(target, [...trail, node]);
    state.set(node, "done");
  };
  for (const node of graph.keys()) visit(node, []);
  return loops;
}

// DESIGN.md's dependency direction, kept by a test rather than by memory.
describe("import graph", () => {
  it("surfaces and the worker reach core only through core/index.ts", () => {
    for (const folder of ["http-face", "rest-server", "mcp-server", "worker"]) {
      for (const file of sources(path.join(ROOT, folder))) {
        for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
          const target = resolved(file, specifier);
          if (target.startsWith("core")) expect(`${path.relative(ROOT, file)} → ${target}`).toMatch(/→ core\/index\.js$/);
        }
      }
    }
  });

  // cli/commands.ts is the CLI's argument table: it takes two data modules that import nothing else, so that
  // `svc --help` and argument errors answer without loading the service's core.
  it("the CLI reaches core only through core/index.ts, but for its argument table's data", () => {
    const argumentData = ["core/auth/areas.ts", "core/oauth/scopes.ts"];
    for (const file of sources(path.join(ROOT, "cli"))) {
      const relative = path.relative(ROOT, file);
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
        const target = resolved(file, specifier).replace(/\.js$/, ".ts");
        if (!target.startsWith("core")) continue;
        if (relative === "cli/commands.ts" && argumentData.includes(target)) continue;
        expect(`${relative} → ${target}`).toMatch(/→ core\/index\.ts$/);
      }
    }
    for (const data of argumentData) {
      for (const specifier of importsOf(path.join(ROOT, data)).filter((s) => s.startsWith("."))) {
        expect(argumentData, `${data} imports ${specifier}`).toContain(resolved(path.join(ROOT, data), specifier).replace(/\.js$/, ".ts"));
      }
    }
  });

  it("core imports no server, worker, emulator or CLI code", () => {
    for (const file of sources(path.join(ROOT, "core"))) {
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
        expect(resolved(file, specifier)).toMatch(/^core\//);
      }
    }
  });

  it("has no import loops: every file can be understood from the files below it", () => {
    const graph = new Map<string, string[]>();
    for (const folder of ["core", "cli", "http-face", "worker", "rest-server", "mcp-server", "emulator"]) {
      for (const file of sources(path.join(ROOT, folder))) {
        const targets = importsOf(file).filter((s) => s.startsWith(".")).map((s) => resolved(file, s).replace(/\.js$/, ".ts"));
        graph.set(path.relative(ROOT, file), targets);
      }
    }
    expect(loopsOf(graph)).toEqual([]);
  });

  // Core's folders (and its top-level files) stand on floors: no two of them import each other, directly or round a
  // longer loop, so each can be read from those below it (docs/decisions.md, "The layout of core").
  it("core's folders import downward only: no loop between them", () => {
    const folderOf = (file: string) => file.split("/")[1]!.replace(/\.[jt]s$/, "");
    const graph = new Map<string, string[]>();
    for (const file of sources(path.join(ROOT, "core"))) {
      const from = folderOf(path.relative(ROOT, file));
      const targets = importsOf(file)
        .filter((s) => s.startsWith("."))
        .map((s) => resolved(file, s))
        .filter((target) => target.startsWith("core/"))
        .map(folderOf)
        .filter((to) => to !== from);
      graph.set(from, [...new Set([...(graph.get(from) ?? []), ...targets])]);
    }
    expect(loopsOf(graph)).toEqual([]);
  });

  // core/runtime.ts assembles every part of the runtime (database, clock, ids, signer, stores, metrics…); a function
  // takes the parts it uses, typed where each part is implemented (core/db/client.ts, core/clock.ts, core/ids.ts…),
  // so a lower folder depends on those parts and not on the module above them all. Callers pass their whole Core.
  it("nothing in core imports core/runtime.ts but core/index.ts", () => {
    const importers: string[] = [];
    for (const file of sources(path.join(ROOT, "core"))) {
      const relative = path.relative(ROOT, file);
      if (relative === "core/runtime.ts" || relative === "core/index.ts") continue;
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
        if (resolved(file, specifier) === "core/runtime.js") importers.push(relative);
      }
    }
    expect(importers).toEqual([]);
  });

  // core/db is the ground floor: the domain folders run its statements, so it imports none of them, only its own
  // files and core's leaf modules (files that import nothing of core, such as core/vendor-families.ts). A value a
  // statement needs from a domain module is handed in by the caller, so the layers never import each other.
  it("core/db imports only core/db and core's leaf modules", () => {
    const isLeaf = (target: string) => importsOf(path.join(ROOT, target)).every((specifier) => !specifier.startsWith("."));
    const upward: string[] = [];
    for (const file of sources(path.join(ROOT, "core/db"))) {
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
        const target = resolved(file, specifier).replace(/\.js$/, ".ts");
        if (!target.startsWith("core/db/") && !isLeaf(target)) upward.push(`${path.relative(ROOT, file)} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  // Callbacks read tasks; a task's end reaches the callbacks only as a finish participant the runtime gives it
  // (core/tasks/finish-batch.ts), and signing keys are a folder of their own that both use.
  it("core/tasks imports nothing from core/callbacks, and core/signing-keys neither", () => {
    for (const folder of ["core/tasks", "core/signing-keys"]) {
      for (const file of sources(path.join(ROOT, folder))) {
        for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
          expect(`${path.relative(ROOT, file)} → ${resolved(file, specifier)}`).not.toMatch(/→ core\/callbacks\//);
        }
      }
    }
  });

  // The emulator stands in for the vendors, so it describes them from their own references: were it to read our
  // catalog or our adapters, it would accept whatever the service wrongly promises. It may use core's media
  // utilities (decoding, probing, sniffing) and the HTTP face through core/index.ts.
  it("the emulator imports nothing of core's catalog, adapters or capabilities", () => {
    const imports: string[] = [];
    for (const file of sources(path.join(ROOT, "emulator"))) {
      const relative = path.relative(ROOT, file);
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) imports.push(`${relative} → ${resolved(file, specifier)}`);
    }
    expect(imports.filter((line) => /→ core\/(catalog|providers|capabilities)\//.test(line))).toEqual([]);
  });

  it("only the provider registry imports the vendor folders", () => {
    for (const file of sources(path.join(ROOT, "core"))) {
      const relative = path.relative(ROOT, file);
      if (/^core\/providers\/vendor[A-Z]\//.test(relative) || relative === "core/providers/registry.ts") continue;
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
        expect(`${relative} → ${resolved(file, specifier)}`).not.toMatch(/→ core\/providers\/vendor[A-Z]\//);
      }
    }
  });
});

// core/db/task-state-machine.ts is the task state machine: a status written anywhere else could skip its guard and
// end a task twice. So the text that assigns a task's status exists only there, as the fragments it exports with
// their transition's guard, and only the statements of core/db/statements/ that apply a transition place them.
function statusAssignments(text: string): string[] {
  const found: string[] = [];
  // In an UPDATE's SET list: `set status = …` or `…, status = …` (a `status = 'queued'` inside a CASE compares).
  for (const [, assignments] of text.matchAll(/update\s+tasks\s+set\b([\s\S]*?)\bwhere\b/gi)) {
    found.push(...[...(assignments ?? "").matchAll(/(?:^|,)\s*"?status"?\s*=[^,\n]*/g)].map((m) => m[0]));
  }
  // A fragment for a SET list: a template that begins with the assignment.
  found.push(...[...text.matchAll(/`\s*"?status"?\s*=[^`\n]*/g)].map((m) => m[0]));
  // drizzle's builder on the tasks table, and the column named as an identifier.
  found.push(...[...text.matchAll(/\.update\(tasks\)\s*\.set\(\{[^}]*\bstatus\b[^}]*\}/g)].map((m) => m[0]));
  found.push(...[...text.matchAll(/sql\.identifier\(["']status["']\)/g)].map((m) => m[0]));
  return found;
}

describe("the task state machine", () => {
  it("finds a status assignment in each form a statement could write one", () => {
    expect(statusAssignments("sql`update tasks set status = ${to}, progress = ${p} where id = ${id}`")).not.toEqual([]);
    expect(statusAssignments("update tasks set progress = 1, \"status\" = 'failed' where id = $1")).not.toEqual([]);
    expect(statusAssignments("const failed = sql`status = 'failed'`;")).not.toEqual([]);
    expect(statusAssignments("db.update(tasks).set({ status: 'failed', progress })")).not.toEqual([]);
    expect(statusAssignments("sql`${sql.identifier(\"status\")} = ${value}`")).not.toEqual([]);
    expect(statusAssignments("db.update(voices).set({ status: 'deleted' })")).toEqual([]);
    expect(statusAssignments("update tasks set attempts = attempts + case when status = 'queued' then 1 else 0 end where id = $1")).toEqual([]);
    expect(statusAssignments("select * from tasks where status in ('queued') and t.status = 'queued'")).toEqual([]);
  });

  it("assigns a status only in core/db/task-state-machine.ts, placed only by the statements that apply a transition", () => {
    const writers: string[] = [];
    const placers: string[] = [];
    for (const file of sources(path.join(ROOT, "core"))) {
      const relative = path.relative(ROOT, file);
      const text = readFileSync(file, "utf8");
      if (statusAssignments(text).length > 0) writers.push(relative);
      if (/\b(?:transitionStatus|startStatus)\(/.test(text)) placers.push(relative);
    }
    expect(writers).toEqual(["core/db/task-state-machine.ts"]);
    expect(placers.sort()).toEqual(["core/db/statements/start-tasks.ts", "core/db/statements/transition-task.ts", "core/db/task-state-machine.ts"]);
  });
});
