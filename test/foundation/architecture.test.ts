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
    for (const folder of ["rest-server", "mcp-server", "worker"]) {
      for (const file of sources(path.join(ROOT, folder))) {
        for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
          const target = resolved(file, specifier);
          if (target.startsWith("core")) expect(`${path.relative(ROOT, file)} → ${target}`).toMatch(/→ core\/index\.js$/);
        }
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

  it("only the provider registry imports the vendor folders", () => {
    for (const file of sources(path.join(ROOT, "core"))) {
      const relative = path.relative(ROOT, file);
      if (relative.startsWith("core/providers/vendor") || relative === "core/providers/registry.ts") continue;
      for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
        expect(`${relative} → ${resolved(file, specifier)}`).not.toMatch(/→ core\/providers\/vendor/);
      }
    }
  });
});
