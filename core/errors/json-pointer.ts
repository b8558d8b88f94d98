// RFC 6901: "~" becomes "~0" and "/" becomes "~1" inside each reference token.
export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((segment) => "/" + String(segment).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}
