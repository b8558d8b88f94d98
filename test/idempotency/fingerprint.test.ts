import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, requestFingerprint } from "../../core/idempotency/fingerprint.js";

// A key's stored fingerprint is compared with the one a retry computes, possibly on a newer deployment: the
// canonical text, and so the hash, must stay exactly what it has been.
describe("request fingerprints", () => {
  it("writes keys sorted at every depth, drops undefined members, and keeps arrays in order", () => {
    const value = { b: [3, { z: 1, a: undefined, "é": "x" }, null], a: { d: true, c: "q\"" }, e: undefined, "10": 1, "2": 2 };
    expect(canonicalJson(value)).toBe('{"10":1,"2":2,"a":{"c":"q\\"","d":true},"b":[3,{"z":1,"é":"x"},null]}');
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("hashes the capability with the input, whatever order the members came in", () => {
    const expected = createHash("sha256").update('{"capability":"text_to_speech","input":{"input":"Hello","voice":"en_female_aria"}}').digest("hex");
    expect(requestFingerprint("text_to_speech", { voice: "en_female_aria", input: "Hello" })).toBe(expected);
    expect(requestFingerprint("text_to_speech", { input: "Hello", voice: "en_female_aria" })).toBe(expected);
    expect(requestFingerprint("image_generation", { input: "Hello", voice: "en_female_aria" })).not.toBe(expected);
  });
});
