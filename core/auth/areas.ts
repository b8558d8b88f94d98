// The permission unit of an API key: a key limited to some areas gets 403 forbidden elsewhere.
export const AREAS = ["tasks", "credits", "catalog", "speech", "voices", "music", "images", "videos", "assets", "callbacks"] as const;
export type Area = (typeof AREAS)[number];

export function isArea(value: string): value is Area {
  return (AREAS as readonly string[]).includes(value);
}
