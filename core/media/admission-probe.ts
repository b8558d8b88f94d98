import { eq } from "drizzle-orm";
import type { ArtifactStore } from "../artifacts/store.js";
import type { Db } from "../db/client.js";
import { artifacts } from "../db/schema/index.js";
import type { InputFacts } from "../selection/input-limits.js";
import { factsOfProbe, factsOfStoredMedia } from "./known-facts.js";
import { MediaProbeError, probeMedia, probeMediaFile, type MediaProbe } from "./probe.js";
import { sniffMediaType } from "./sniff.js";
import type { MediaKind } from "./slots.js";
import { spoolDirectory, spoolStream } from "./spool.js";

// The facts of the inputs admission holds, so selection can check each model's published input limits before a
// task is paid for. Bytes the probe cannot read yield no facts here: the worker's resolution refuses them with its
// own precise error, as it did before admission probed anything.

// Facts of another kind of media than the field takes are left to the worker, which refuses the input itself.
export async function dataUriFacts(bytes: Buffer, expected: MediaKind): Promise<InputFacts | null> {
  const sniffed = sniffMediaType(bytes);
  if (sniffed?.kind !== expected) return null;
  try {
    return factsOfProbe(sniffed.format, bytes.length, await probeMedia(bytes));
  } catch (error) {
    if (error instanceof MediaProbeError) return null;
    throw error;
  }
}

interface ArtifactRow {
  id: string;
  kind: string;
  byteSize: number;
  media: unknown;
  storageKey: string;
}

// An artifact's facts as stored with it (a task's output or a resolved input carries its probe); an upload stored
// before uploads were probed is probed once from the store, and its probe kept on the row for the next request.
export async function artifactFacts(core: { db: Db; artifacts: ArtifactStore }, row: ArtifactRow, expected: MediaKind): Promise<InputFacts | null> {
  if (row.kind !== expected) return null;
  const stored = factsOfStoredMedia(row.media, row.byteSize);
  if (stored) return stored;
  const opened = await core.artifacts.open(row.storageKey);
  if (!opened) return null;
  const directory = await spoolDirectory();
  try {
    const spooled = await spoolStream(opened.stream, directory.file("artifact"));
    const sniffed = sniffMediaType(spooled.head);
    if (!sniffed) return null;
    let probe: MediaProbe;
    try {
      probe = await probeMediaFile(spooled.path, spooled.size);
    } catch (error) {
      if (error instanceof MediaProbeError) return null;
      throw error;
    }
    const media = { ...(row.media as Record<string, unknown> | null), format: sniffed.format, ...probe };
    await core.db.update(artifacts).set({ media }).where(eq(artifacts.id, row.id));
    return factsOfProbe(sniffed.format, row.byteSize, probe);
  } finally {
    await directory.dispose();
  }
}
