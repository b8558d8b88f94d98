import { expect } from "vitest";

// The emulator's control routes: scripted faults and the log of the requests it received. `at` is anything that
// knows the emulator's address (a harness, a deployment).
type EmulatorAt = { emulatorUrl: string };

export interface ScriptedFault {
  family: string;
  // Only this model's requests; every request of the family when absent.
  model?: string;
  kind: string;
  times?: number;
  retry_after_seconds?: number;
}

export async function queueFault(at: EmulatorAt, fault: ScriptedFault): Promise<void> {
  const response = await fetch(`${at.emulatorUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fault),
  });
  expect(response.status).toBe(201);
}

export interface ReceivedRequest {
  family: string;
  model: string | null;
  method: string;
  path: string;
}

export async function emulatorRequests(at: EmulatorAt): Promise<ReceivedRequest[]> {
  return (await (await fetch(`${at.emulatorUrl}/_emulator/requests`)).json()) as ReceivedRequest[];
}
