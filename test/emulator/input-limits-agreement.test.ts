import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AudioInputLimits, ImageInputLimits, InputLimits, VideoInputLimits } from "../../core/catalog/input-limits.js";
import { ALL_MODELS, type AnyCatalogModel } from "../../core/catalog/registry.js";
import { DEFAULT_VENDOR_IDS } from "../../core/catalog/vendor-ids.js";
import { inputLimitFailures, type InputFacts, type KnownInput } from "../../core/selection/input-limits.js";
import { downloadedInputsProblem, textProblem, type VendorInputBounds } from "../../emulator/media/input-limits.js";
import { vendorInputBounds } from "../../emulator/vendors/input-limits.js";

// The catalog's published input limits (core/catalog/vendors/<family>/input-limits.ts) and the emulator's own
// account of each vendor (emulator/vendors/input-limits.ts) say the same thing, for every model and every limit: an
// input just inside a limit is admitted by the service and taken by the emulated vendor; one just outside is refused by
// the service (and by the vendor, unless the bound is the service's own, stricter than the vendor's). And no bound
// of a vendor is missing from the catalog: whatever the catalog admits, the vendor takes (the property test).

type Kind = "image" | "video" | "audio";
type Role = { kind: Kind; reference: boolean };

// Bounds the catalog holds inputs to that the vendor does not publish (docs/models.md says whose they are).
const SERVICE_OWN: ReadonlySet<string> = new Set([
  "vendorA-music-3.0 audio max_bytes",
  "vendorG-6 audio min_seconds",
  "vendorG-6 audio max_bytes",
]);

// The vendor field each text of the request is sent as (docs/providers): by model, else by family.
const TEXT_SENT_AS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "vendorA-h3": { prompt: "text" },
  vendorC: { instruction: "prompt" },
};

function vendorIdOf(model: AnyCatalogModel): string {
  if (model.id === "vendorA-voice-clone") return "voice_clone";
  return DEFAULT_VENDOR_IDS[model.family]?.models[model.id] ?? model.id;
}

function boundsOf(model: AnyCatalogModel): VendorInputBounds {
  return vendorInputBounds(model.family, vendorIdOf(model));
}

// Facts that break no bound of any model: the baseline each case moves one fact of.
function baseline(kind: Kind): InputFacts {
  if (kind === "image") return { format: "png", byteSize: 1000, width: 640, height: 480, durationSeconds: null, codec: null, frameRate: null, sampleRate: null };
  if (kind === "video") return { format: "mp4", byteSize: 1000, width: 640, height: 480, durationSeconds: 5, codec: "h264", frameRate: 24, sampleRate: 44100 };
  return { format: "mp3", byteSize: 1000, width: null, height: null, durationSeconds: 12, codec: "mp3", frameRate: null, sampleRate: 44100 };
}

function asInput(role: Role, facts: InputFacts): KnownInput {
  return { param: role.reference ? "/references/0/media" : `/${role.kind}`, kind: role.kind, reference: role.reference, facts };
}

function serviceAdmits(model: AnyCatalogModel, role: Role, facts: InputFacts): boolean {
  return inputLimitFailures(model.input_limits, [asInput(role, facts)], {}).length === 0;
}

function vendorTakes(model: AnyCatalogModel, role: Role, facts: InputFacts): boolean {
  const media = { kind: role.kind, ...facts, byteSize: facts.byteSize ?? 0 };
  return downloadedInputsProblem(boundsOf(model), [{ media, reference: role.reference }]) === null;
}

type Limits = ImageInputLimits & VideoInputLimits & AudioInputLimits;

interface Boundary {
  limit: string;
  inside: InputFacts;
  outside: InputFacts;
}

// For each bound a limit set has, the facts just inside and just outside it.
function boundaries(kind: Kind, limits: Limits): Boundary[] {
  const base = baseline(kind);
  const cases: Boundary[] = [];
  const add = (limit: string, inside: Partial<InputFacts>, outside: Partial<InputFacts>) => cases.push({ limit, inside: { ...base, ...inside }, outside: { ...base, ...outside } });
  const wide = (side: number) => Math.max(side, 1);
  if (limits.formats) add("formats", { format: limits.formats[0] as string }, { format: "gif" });
  if (limits.codecs) add("codecs", { codec: limits.codecs[0] as string }, { codec: "vp9" });
  if (limits.max_bytes !== undefined) add("max_bytes", { byteSize: limits.max_bytes }, { byteSize: limits.max_bytes + 1 });
  // Sides are moved together (a square) so an aspect bound never decides a side's case.
  if (limits.min_side !== undefined) add("min_side", { width: limits.min_side, height: limits.min_side }, { width: limits.min_side - 1, height: limits.min_side - 1 });
  if (limits.max_side !== undefined) add("max_side", { width: limits.max_side, height: limits.max_side }, { width: limits.max_side + 1, height: limits.max_side + 1 });
  // Tall and wide pictures keep their short side above any minimum and their long side below any maximum.
  if (limits.min_aspect !== undefined) {
    const height = Math.min(limits.max_side ?? 4000, 4000);
    add("min_aspect", { width: wide(Math.ceil(limits.min_aspect * height)), height }, { width: wide(Math.ceil(limits.min_aspect * height) - 1), height });
  }
  if (limits.max_aspect !== undefined) {
    const height = 500;
    add("max_aspect", { width: Math.floor(limits.max_aspect * height), height }, { width: Math.floor(limits.max_aspect * height) + 1, height });
  }
  if (limits.min_seconds !== undefined) add("min_seconds", { durationSeconds: limits.min_seconds }, { durationSeconds: limits.min_seconds - 0.01 });
  if (limits.max_seconds !== undefined) add("max_seconds", { durationSeconds: limits.max_seconds }, { durationSeconds: limits.max_seconds + 0.01 });
  if (limits.min_fps !== undefined) add("min_fps", { frameRate: limits.min_fps }, { frameRate: limits.min_fps - 0.01 });
  if (limits.max_fps !== undefined) add("max_fps", { frameRate: limits.max_fps }, { frameRate: limits.max_fps + 0.01 });
  return cases;
}

// The roles a catalog model's limits name, each with the limit set that applies to it.
function rolesOf(limits: InputLimits): { role: Role; name: string; limits: Limits }[] {
  const roles: { role: Role; name: string; limits: Limits }[] = [];
  for (const kind of ["image", "video", "audio"] as const) {
    const plain = limits[kind];
    if (plain) roles.push({ role: { kind, reference: false }, name: kind, limits: plain as Limits });
    const reference = limits[`reference_${kind}`] ?? plain;
    if (reference) roles.push({ role: { kind, reference: true }, name: `reference_${kind}`, limits: reference as Limits });
  }
  return roles;
}

const cases = ALL_MODELS.flatMap((model) =>
  rolesOf(model.input_limits).flatMap(({ role, name, limits }) => boundaries(role.kind, limits).map((b) => ({ model, role, name, ...b }))),
);

describe("the catalog's input limits and the emulated vendors' agree", () => {
  it("covers every model of the catalog, and every model with published limits has bounds on both sides", () => {
    expect(ALL_MODELS.length).toBeGreaterThanOrEqual(32);
    for (const model of ALL_MODELS) {
      const published = Object.keys(model.input_limits).length > 0;
      const emulated = Object.keys(boundsOf(model)).length > 0;
      expect(emulated, `${model.id}: the catalog publishes limits the emulator does not hold, or the reverse`).toBe(published);
    }
    expect(cases.length).toBeGreaterThan(60);
  });

  it.each(cases.map((c) => [`${c.model.id} ${c.name} ${c.limit}`, c] as const))("%s: just inside is admitted and taken, just outside refused", (_name, c) => {
    expect(serviceAdmits(c.model, c.role, c.inside), "the service refuses just inside").toBe(true);
    expect(vendorTakes(c.model, c.role, c.inside), "the emulated vendor refuses just inside").toBe(true);
    expect(serviceAdmits(c.model, c.role, c.outside), "the service admits just outside").toBe(false);
    const own = SERVICE_OWN.has(`${c.model.id} ${c.role.kind} ${c.limit}`);
    expect(vendorTakes(c.model, c.role, c.outside), own ? "the vendor refuses beyond a bound it does not publish" : "the emulated vendor takes just outside").toBe(own);
  });

  it.each(ALL_MODELS.map((m) => [m.id, m] as const))("%s: the texts the catalog admits are as long as the vendor takes", (_id, model) => {
    const catalogText = model.input_limits.text ?? {};
    const sentAs = TEXT_SENT_AS[model.id] ?? TEXT_SENT_AS[model.family] ?? {};
    const bounds = boundsOf(model);
    for (const [field, max] of Object.entries(catalogText)) {
      const vendorField = sentAs[field] ?? field;
      expect(inputLimitFailures(model.input_limits, [], { [field]: "a".repeat(max) })).toEqual([]);
      expect(textProblem(bounds, { [vendorField]: "a".repeat(max) }), `${model.id} ${field}`).toBeNull();
      expect(inputLimitFailures(model.input_limits, [], { [field]: "a".repeat(max + 1) })).toMatchObject([{ code: "text_too_long", param: `/${field}` }]);
      expect(textProblem(bounds, { [vendorField]: "a".repeat(max + 1) }), `${model.id} ${field}`).not.toBeNull();
    }
    const sentFields = new Set(Object.keys(catalogText).map((field) => sentAs[field] ?? field));
    for (const vendorField of Object.keys(bounds.textCharacters ?? {})) {
      expect(sentFields.has(vendorField), `${model.id}: the vendor bounds ${vendorField}, the catalog does not`).toBe(true);
    }
  });

  it("holds the inputs of one kind together to the same total", () => {
    for (const model of ALL_MODELS) {
      const bounds = boundsOf(model);
      for (const kind of ["video", "audio"] as const) {
        expect(model.input_limits.total_seconds?.[kind], `${model.id} ${kind}`).toBe(bounds.togetherSeconds?.[kind]);
      }
    }
  });
});

// Random inputs the catalog admits are never refused by the vendor: no bound of a vendor is missing from the
// catalog, whatever the combination of facts.
describe("whatever the catalog admits, the emulated vendor takes", () => {
  const modelsWithBounds = ALL_MODELS.filter((model) => Object.keys(boundsOf(model)).length > 0);
  const facts = (kind: Kind) =>
    fc.record({
      format: fc.constantFrom(...(kind === "image" ? ["png", "jpeg", "webp", "gif"] : kind === "video" ? ["mp4", "mov", "webm"] : ["mp3", "wav", "flac", "ogg", "m4a"])),
      byteSize: fc.integer({ min: 1, max: 120_000_000 }),
      width: kind === "audio" ? fc.constant(null) : fc.integer({ min: 1, max: 10_000 }),
      height: kind === "audio" ? fc.constant(null) : fc.integer({ min: 1, max: 10_000 }),
      durationSeconds: kind === "image" ? fc.constant(null) : fc.double({ min: 0.1, max: 700, noNaN: true }),
      codec: kind === "video" ? fc.constantFrom("h264", "hevc", "vp9") : fc.constant(null),
      frameRate: kind === "video" ? fc.double({ min: 1, max: 120, noNaN: true }) : fc.constant(null),
      sampleRate: kind === "image" ? fc.constant(null) : fc.constantFrom(8000, 16000, 44100, 48000),
    });
  const request = fc.constantFrom(...modelsWithBounds).chain((model) =>
    fc.array(
      fc.constantFrom<Kind>("image", "video", "audio").chain((kind) => fc.tuple(fc.constant(kind), fc.boolean(), facts(kind))),
      { minLength: 1, maxLength: 4 },
    ).map((inputs) => ({ model, inputs })),
  );

  it("for random inputs of every model with published limits", () => {
    fc.assert(
      fc.property(request, ({ model, inputs }) => {
        const known = inputs.map(([kind, reference, f], i) => ({ param: reference ? `/references/${i}/media` : `/${kind}${i}`, kind, reference, facts: f }));
        if (inputLimitFailures(model.input_limits, known, {}).length > 0) return true;
        const downloaded = known.map((k) => ({ media: { kind: k.kind, ...k.facts, byteSize: k.facts.byteSize ?? 0 }, reference: k.reference }));
        return downloadedInputsProblem(boundsOf(model), downloaded) === null;
      }),
      { numRuns: 3000 },
    );
  });
});
