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
    const loops: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        loops.push([...trail.slice(trail.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "open");
      for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file, []);
    expect(loops).toEqual([]);
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

// core/tasks/state.ts is the task state machine: a status written anywhere else could skip its guard and end a
// task twice.
describe("the task state machine", () => {
  it("every statement that sets a task's status takes it from core/tasks/state.ts's transition table", () => {
    const writers: string[] = [];
    for (const file of sources(path.join(ROOT, "core"))) {
      const relative = path.relative(ROOT, file);
      const text = readFileSync(file, "utf8");
      for (const [, set] of text.matchAll(/\.update\(tasks\)\s*\.set\(\{([^}]*)\}/g)) {
        expect(`${relative}: ${set}`).not.toMatch(/\bstatus\b/);
      }
      for (const [, assignments] of text.matchAll(/update tasks set([\s\S]*?)\bwhere\b/gi)) {
        if (!/\bstatus\b/.test(assignments ?? "")) continue;
        writers.push(relative);
        // Set to the transition's `to`, or (a start deferred for its tenant's slots) left as it is.
        expect(`${relative}: ${assignments}`).toMatch(/status: to\b|status = \$\{to\}|status = case when [^\n]* then tasks\.status else \$\{to\} end/);
        expect(text, relative).toMatch(/\bTASK_TRANSITIONS\b/);
      }
    }
    expect(writers.sort()).toEqual(["core/tasks/state.ts", "core/tasks/task-starts.ts"]);
  });
});
