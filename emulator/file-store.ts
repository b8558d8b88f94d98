import { randomUUID } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface StoredFile {
  fileId: string;
  path: string;
  contentType: string;
  sizeBytes: number;
  // Scripted by the bad_download fault: every download of the file fails.
  failsDownload: boolean;
}

// Generated media of one emulator instance, kept on disk in a directory of its own that goes when the emulator does.
export class FileStore {
  private readonly files = new Map<string, StoredFile>();

  private constructor(private readonly directory: string) {}

  static async create(): Promise<FileStore> {
    return new FileStore(await mkdtemp(join(tmpdir(), "vendor-emulator-")));
  }

  // `write` creates the file at the path it is given; what it resolves with is passed back alongside the file.
  async save<Written>(
    write: (path: string) => Promise<Written>,
    details: { contentType: string; failsDownload: boolean },
  ): Promise<{ file: StoredFile; written: Written }> {
    const fileId = randomUUID();
    const path = join(this.directory, fileId);
    const written = await write(path);
    const file: StoredFile = { fileId, path, sizeBytes: (await stat(path)).size, ...details };
    this.files.set(fileId, file);
    return { file, written };
  }

  get(fileId: string): StoredFile | undefined {
    return this.files.get(fileId);
  }

  async remove(): Promise<void> {
    this.files.clear();
    await rm(this.directory, { recursive: true, force: true });
  }
}
