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

  // `cause` is why the document was not had. fetch fails with a TypeError when no connection could be made (name
  // not resolved, connection refused, the outbound guard's refusal) and with a TimeoutError or AbortError when no
  // answer came; anything else (a Response with an error status, a body past its limit, JSON that does not parse)
  // means the document's server answered, which says nothing of this process's reach.
  noteFetchFailure(cause: unknown): void {
    const unreached = cause instanceof TypeError || (cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError"));
    if (unreached) this.failedAt = this.now();
  }
}
