// The catalog's sentences as text, with their `backticked` words as code (names of fields and values).
export function Prose({ text }: { text: string }) {
  return <>{text.split("`").map((part, i) => (i % 2 === 1 ? <code>{part}</code> : part))}</>;
}
