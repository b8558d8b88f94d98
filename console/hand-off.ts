// A request body carried to the Try page of a capability: a result used as another's input, a task opened again
// to edit and run. Kept in the tab's session storage until that page takes it, so it survives the navigation
// (and a reload on the way) but not the tab.

const STORAGE_NAME = "svc-console-hand-off";

interface HandOff {
  capability: string;
  body: Record<string, unknown>;
}

export function handOff(capability: string, body: Record<string, unknown>): void {
  sessionStorage.setItem(STORAGE_NAME, JSON.stringify({ capability, body } satisfies HandOff));
  location.hash = `#/try/${capability}`;
}

// The body handed to `capability`, once.
export function takeHandOff(capability: string): Record<string, unknown> | null {
  const stored = sessionStorage.getItem(STORAGE_NAME);
  if (!stored) return null;
  const handed = JSON.parse(stored) as HandOff;
  if (handed.capability !== capability) return null;
  sessionStorage.removeItem(STORAGE_NAME);
  return handed.body;
}
