export interface ReceivedSubmit {
  family: string;
  method: string;
  path: string;
  model: string | null;
  // ISO 8601 time the request arrived.
  at: string;
}

// Every submit request a vendor family received, so tests can count the calls the service made.
export class RequestLog {
  private received: ReceivedSubmit[] = [];

  record(entry: ReceivedSubmit): void {
    this.received.push(entry);
  }

  list(): readonly ReceivedSubmit[] {
    return this.received;
  }

  clear(): void {
    this.received = [];
  }
}
