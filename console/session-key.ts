// The API key lives in this tab's sessionStorage only: it is sent in the Authorization header of calls to this
// origin's /v1 API and nowhere else, and it is gone when the tab closes.
const STORAGE_NAME = "svc-console-api-key";

export function storedKey(): string | null {
  return sessionStorage.getItem(STORAGE_NAME);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(STORAGE_NAME, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_NAME);
}
