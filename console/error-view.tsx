import { ServiceError } from "./api";

// A refusal as the service worded it: code, message, the field it points at, and the request id for support.
export function ErrorView({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  if (!(error instanceof ServiceError)) {
    return (
      <div class="error" role="alert">
        <p>{error instanceof Error ? error.message : String(error)}</p>
      </div>
    );
  }
  const { code, message, param, requestId, details } = error;
  const listed = Array.isArray(details?.errors) ? (details.errors as { param?: string; reason?: string }[]) : [];
  const candidates = Array.isArray(details?.candidate_failures) ? (details.candidate_failures as Record<string, unknown>[]) : [];
  return (
    <div class="error" role="alert">
      <p>
        <strong>{code}</strong> ({error.status}): {message}
      </p>
      {param !== undefined && (
        <p>
          Field: <code>{param || "/"}</code>
        </p>
      )}
      {listed.length > 1 && (
        <ul>
          {listed.map((entry) => (
            <li>
              <code>{entry.param}</code>: {entry.reason}
            </li>
          ))}
        </ul>
      )}
      {candidates.length > 0 && (
        <details>
          <summary>Why no model fits ({candidates.length})</summary>
          <ul>
            {candidates.map((candidate) => (
              <li>
                <code>{String(candidate.model ?? "")}</code> {String(candidate.code ?? "")}: {String(candidate.message ?? JSON.stringify(candidate))}
              </li>
            ))}
          </ul>
        </details>
      )}
      {requestId && <p class="hint">Request id {requestId}</p>}
    </div>
  );
}
