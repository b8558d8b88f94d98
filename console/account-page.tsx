import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import { ErrorView } from "./error-view";
import { SigningKeys } from "./signing-keys";
import { SpendLimits } from "./spend-limits";
import { Voices } from "./voices";

// The account: credit balance and recent ledger entries (GET /v1/credits), callback signing keys and voices.

interface CreditBalance {
  available_credits: string;
  held_credits: string;
  spent_credits: string;
  granted_credits: string;
  entries: { id: string; kind: string; amount_credits: string; task_id: string | null; note: string | null; created_at: string }[];
}

function Balance() {
  const [balance, setBalance] = useState<CreditBalance | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => api<CreditBalance>("GET", "/v1/credits").then(setBalance, setError);
  useEffect(() => void load(), []);
  return (
    <section aria-labelledby="balance-title">
      <h3 id="balance-title">Credits</h3>
      <ErrorView error={error} />
      {balance && (
        <>
          <dl class="pairs balance">
            <dt>Available</dt>
            <dd data-balance="available">{balance.available_credits}</dd>
            <dt>Held for running tasks</dt>
            <dd data-balance="held">{balance.held_credits}</dd>
            <dt>Spent</dt>
            <dd data-balance="spent">{balance.spent_credits}</dd>
            <dt>Granted</dt>
            <dd data-balance="granted">{balance.granted_credits}</dd>
          </dl>
          <button type="button" class="secondary" onClick={load}>
            Refresh
          </button>
          <div class="table-scroll">
            <table>
              <caption>Ledger, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Credits</th>
                  <th scope="col">Task</th>
                </tr>
              </thead>
              <tbody>
                {balance.entries.map((entry) => (
                  <tr>
                    <td>{new Date(entry.created_at).toLocaleString()}</td>
                    <td>{entry.kind}</td>
                    <td class="number">{entry.amount_credits}</td>
                    <td>{entry.task_id ?? entry.note ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

export function AccountPage() {
  return (
    <section aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      <Balance />
      <SpendLimits />
      <SigningKeys />
      <Voices />
    </section>
  );
}
