import { useEffect, useState } from "preact/hooks";
import { operationRoute } from "./api";
import { Audio, Video } from "./media-element";

// A capability's examples in Try, each with what the service made of it (console/examples/, written by
// scripts/console-examples.ts against the bundled vendor emulator and served beside the console): the request in
// words, its outputs to look at or play, and one button that loads the request into the form.

interface ExampleOutput {
  file: string;
  kind: string;
  format: string;
  width?: number;
  height?: number;
}

export interface ConsoleExample {
  id: string;
  capability: string;
  title: string;
  body: Record<string, unknown>;
  model: string;
  outputs: ExampleOutput[];
}

const fileUrl = (file: string) => operationRoute("getConsoleFile", { file }).path;

let examples: Promise<ConsoleExample[]> | null = null;

// Read once; a console built without examples has none.
function loadExamples(): Promise<ConsoleExample[]> {
  examples ??= fetch(fileUrl("examples.json")).then(
    (response) => (response.ok ? (response.json() as Promise<ConsoleExample[]>) : []),
    () => [],
  );
  return examples;
}

function Output({ output, title }: { output: ExampleOutput; title: string }) {
  const url = fileUrl(output.file);
  if (output.kind === "image") return <img src={url} width={output.width} height={output.height} alt={`Example output: ${title}`} loading="lazy" />;
  if (output.kind === "video") return <Video controls preload="metadata" playsInline src={url} width={output.width} height={output.height} aria-label={`Example output: ${title}`} />;
  return <Audio controls preload="metadata" src={url} aria-label={`Example output: ${title}`} />;
}

export function Examples({ capability, onLoad }: { capability: string; onLoad(body: Record<string, unknown>): void }) {
  const [all, setAll] = useState<ConsoleExample[]>([]);
  useEffect(() => {
    void loadExamples().then(setAll);
  }, []);
  const mine = all.filter((e) => e.capability === capability);
  if (mine.length === 0) return null;
  return (
    <section class="examples" aria-label="Examples">
      <h3>Examples</h3>
      <ul>
        {mine.map((example) => (
          <li class="example" data-example={example.id}>
            <div class={`example-outputs${example.outputs.length > 1 ? " several" : ""}`}>
              {example.outputs.map((output) => (
                <Output output={output} title={example.title} />
              ))}
            </div>
            <p>
              <strong>{example.title}</strong> <span class="hint">· made by {example.model}</span>
            </p>
            <button type="button" class="secondary" onClick={() => onLoad(example.body)}>
              Load into the form
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
