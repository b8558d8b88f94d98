// A vendor's body as JSON, or undefined when it is not JSON (a proxy's error page, a truncated answer); each
// adapter decides what such an answer means next to the HTTP status it came with.
export function jsonAnswer(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
