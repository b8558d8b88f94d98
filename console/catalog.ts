import { api, operationRoute, type ApiRoute } from "./api";
import type { CapabilityCard, CapabilitySummary, ModelCard } from "./types";

// The catalog as the console reads it (GET /v1/catalog/...): asked once per page load and shared by every page,
// since it changes only when the service is redeployed or an operator sets a model's retirement (a reload shows
// that). A failed read is forgotten, so the next use asks again.

const answers = new Map<string, Promise<unknown>>();

function once<T>(route: ApiRoute): Promise<T> {
  let answer = answers.get(route.path) as Promise<T> | undefined;
  if (!answer) {
    answer = api<T>(route);
    answers.set(route.path, answer);
    answer.catch(() => answers.delete(route.path));
  }
  return answer;
}

export const capabilityList = () => once<{ data: CapabilitySummary[] }>(operationRoute("listCatalogCapabilities")).then((list) => list.data);
export const capabilityCard = (id: string) => once<CapabilityCard>(operationRoute("getCatalogCapability", { capability: id }));
export const modelCard = (id: string) => once<ModelCard>(operationRoute("getCatalogModel", { model: id }));

// A capability's name for people: its summary up to the colon ("Image to video: animate a strict first frame…").
export function capabilityTitle(capability: Pick<CapabilitySummary, "id" | "summary">): string {
  const head = capability.summary.split(":")[0]?.trim();
  return head && head.length < capability.summary.length ? head : capability.id.replace(/_/g, " ");
}

// The area a capability belongs to, from its path (/v1/images/…, /v1/videos/…): how the picker groups them.
export function capabilityArea(capability: Pick<CapabilitySummary, "path">): string {
  const area = capability.path.split("/")[2] ?? "";
  return area.charAt(0).toUpperCase() + area.slice(1);
}
