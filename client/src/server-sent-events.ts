// A reader of text/event-stream (the WHATWG HTML standard's parsing rules, the parts a task stream uses): events
// are separated by a blank line; `event`, `data` (joined with newlines), `id` and `retry` fields; lines starting
// with a colon are comments (the service's heartbeats). EventSource itself cannot send an Authorization header.

export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | undefined;
}

export interface EventSink {
  event(event: ServerSentEvent): void;
  retry(ms: number): void;
}

export async function readEventStream(body: ReadableStream<Uint8Array>, sink: EventSink): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;

  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0) sink.event({ event: event || "message", data: data.join("\n"), id });
      event = "";
      data = [];
      id = undefined;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "retry" && /^\d+$/.test(value)) sink.retry(Number(value));
  };

  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A trailing \r may be the first half of \r\n: held back until the next chunk says.
      const held = !done && buffer.endsWith("\r") ? "\r" : "";
      const lines = buffer.slice(0, buffer.length - held.length).split(/\r\n|\r|\n/);
      // The last piece is a line still arriving (at the end, an unterminated one, discarded with its event).
      buffer = done ? "" : `${lines.pop() ?? ""}${held}`;
      for (const text of lines) line(text);
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
