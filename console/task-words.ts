import { credits } from "./prices";
import { LEAD_TEXT } from "./schema";
import type { Task } from "./types";

// A task in a few words, for lists and headings: what it was asked (its prompt, speech input or instruction, or a
// clone's name), what it cost, and when.

export function promptOf(task: Task): string | null {
  const input = task.input;
  const words = [...LEAD_TEXT, "display_name"].map((name) => input[name]).find((value): value is string => typeof value === "string");
  return words ?? null;
}

// What the task costs: charged (less refunds) once it has ended; held while it runs, for a prepaid task.
export function costOf(task: Task): string {
  const { net_charged_credits: net, charged_credits: charged } = task.billing;
  if (task.completed_at) return `${credits(net)} credits`;
  return Number(charged) > 0 ? `${credits(charged)} credits held` : "priced when it ends";
}

export function when(iso: string): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay ? date.toLocaleTimeString() : date.toLocaleString();
}
