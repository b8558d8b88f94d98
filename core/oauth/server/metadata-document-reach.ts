// Whether this process can fetch client ID metadata documents. A host named by its document's URL (Claude Code's
// is on claude.ai) is unknown here until the document is fetched; a deployment that cannot reach the internet
// fails every such fetch, and the host, seeing the offer in the metadata, would ask for that sign-in forever. So a
// fetch that could not reach the document's server at all (not one answered with an error) withdraws the offer
// for a while: the metadata stops saying client_id_metadata_document_supported, documents are not fetched, and
// hosts register (RFC 7591) instead. Kept per process: each replica finds out on its first failed fetch.

const WITHDRAWN_FOR_MS = 60 * 60 * 1000;

export class MetadataDocumentReach {
  private failedAt: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  get reachable(): boolean {
    return this.failedAt === null || this.now() - this.failedAt >= WITHDRAWN_FOR_MS;
  }

  // `cause` is what the fetch threw; a Response means the document's server answered, which says nothing about
  // the reach of this process.
  noteFetchFailure(cause: unknown): void {
    if (cause instanceof Error) this.failedAt = this.now();
  }
}
