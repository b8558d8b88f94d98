import { useEffect, useState } from "preact/hooks";
import { api, operationRoute } from "./api";
import { ErrorView } from "./error-view";
import type { CreditBalance, SpendLimit } from "./types";

// The spend limits of the tenant and its keys (GET /v1/credits' spend_limits): what each has held this period and
// when it resets. Loaded on its own so the balance and ledger above need not know of it.


export function SpendLimits() {
  const [limits, setLimits] = useState<SpendLimit[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api<CreditBalance>(operationRoute("getCredits"), { query: { limit: 1 } }).then((b) => setLimits(b.spend_limits), setError), []);
  return (
    <section aria-labelledby="spend-limits-title">
      <h3 id="spend-limits-title">Spend limits</h3>
      <ErrorView error={error} />
      {limits && limits.length === 0 && <p>No spend limits: set one with npx svc key spend-limit or npx svc tenant spend-limit.</p>}
      {limits && limits.length > 0 && (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Whose</th>
                <th scope="col">Limit</th>
                <th scope="col">Held this period</th>
                <th scope="col">Resets</th>
              </tr>
            </thead>
            <tbody>
              {limits.map((limit) => (
                <tr data-spend-limit={`${limit.scope}:${limit.owner}`}>
                  <td>{limit.scope === "tenant" ? "Whole account" : `Key ${limit.owner}`}</td>
                  <td class="number">{`${limit.limit_credits} per ${limit.period}`}</td>
                  <td class="number">{limit.spent_credits}</td>
                  <td>{new Date(limit.resets_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
