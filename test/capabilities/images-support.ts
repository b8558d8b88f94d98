import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { ApiResponse, Harness } from "../support/harness.js";

// Assertions shared by the image endpoint tests. Admission only: no worker runs, so 202 `queued` is the result.

export const IMAGE = { type: "url", url: "https://example.com/a.png" } as const;

export function images(n: number) {
  return Array.from({ length: n }, (_, i) => ({ type: "url", url: `https://example.com/${i}.png` }));
}

export function poster(h: Harness, path: string) {
  return (body: unknown): Promise<ApiResponse> => h.request("POST", path, { body, idempotencyKey: randomUUID() });
}

export function expectQueued(response: ApiResponse, capability: string, resolvedModel?: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  expect(response.body).toMatchObject({ object: "task", status: "queued", capability });
  expect(response.body.resolved_model).toBeTypeOf("string");
  if (resolvedModel !== undefined) expect(response.body.resolved_model).toBe(resolvedModel);
}

export function expectInvalid(response: ApiResponse, param: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.error.code).toBe("invalid_request");
  expect(response.body.error.param).toBe(param);
  expect(response.body.error.details.errors[0].param).toBe(param);
}

export interface ExpectedRejection {
  model: string;
  code: string;
  param: string;
  received: unknown;
  supported: unknown;
}

// A concrete model lacking a control: 422 unsupported_option whose first candidate failure is specific.
export function expectUnsupported(response: ApiResponse, expected: ExpectedRejection): void {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.error.code).toBe("unsupported_option");
  expect(response.body.error.param).toBe(expected.param);
  expect(response.body.error.details.candidate_failures[0]).toMatchObject(expected);
}

export function expectNoEligibleModel(response: ApiResponse, candidateCount: number): void {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.error.code).toBe("no_eligible_model");
  const failures = response.body.error.details.candidate_failures as { model: string }[];
  expect(new Set(failures.map((f) => f.model)).size).toBe(candidateCount);
}

export function expectUnknownModel(response: ApiResponse): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error).toMatchObject({ code: "unsupported_model", param: "/model" });
}
