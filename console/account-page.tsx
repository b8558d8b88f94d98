import { useEffect, useState } from "preact/hooks";
import { api, operationRoute } from "./api";
import { ErrorView } from "./error-view";
import { credits } from "./prices";
import { SigningKeys } from "./signing-keys";
import { SpendLimits } from "./spend-limits";
import { when } from "./task-words";
import type { CreditBalance } from "./types";
import { Voices } from "./voices";

// The account: the credit balance and the ledger newest first, a page at a time (GET /v1/credits), callback signing
// keys and voices.

const PAGE_SIZE = 25;

function Balance() {
  // The page shown, with its number (1 is the newest).
  const [shown, setShown] = useState<{ balance: CreditBalance; page: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The cursors of the pages before this one, for Newer; undefined is the newest page.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const load = () =>
    api<CreditBalance>(operationRoute("getCredits"), { query: { limit: PAGE_SIZE, cursor } }).then((balance) => setShown({ balance, page: cursors.length }), setError);
  useEffect(() => void load(), [cursor]);
  const balance = shown?.balance;
  return (
    <section aria-labelledby="balance-title">
      <h3 id="balance-title">Credits</h3>
      <ErrorView error={error} />
      {balance && (
        <>
          <dl class="figures">
            <div>
              <dt>Available</dt>
              <dd data-balance="available">{balance.available_credits}</dd>
            </div>
            <div>
              <dt>Held for running tasks</dt>
              <dd data-balance="held">{balance.held_credits}</dd>
            </div>
            <div>
              <dt>Spent</dt>
              <dd data-balance="spent">{balance.spent_credits}</dd>
            </div>
            <div>
              <dt>Granted</dt>
              <dd data-balance="granted">{balance.granted_credits}</dd>
            </div>
          </dl>
          <button type="button" class="secondary" onClick={load}>
            Refresh
          </button>
          <table class="cards ledger">
            <caption>Ledger, newest first{shown && shown.page > 1 ? ` (page ${shown.page})` : ""}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Credits</th>
                <th scope="col">Task or note</th>
              </tr>
            </thead>
            <tbody>
              {balance.entries.map((entry) => (
                <tr data-entry={entry.id}>
                  <td data-label="When">{when(entry.created_at)}</td>
                  <td data-label="Kind">{entry.kind}</td>
                  <td data-label="Credits" class="number">
                    {credits(entry.amount_credits)}
                  </td>
                  <td data-label="Task or note">
                    {entry.task_id ? <a href={`#/history/${entry.task_id}`}>{entry.task_id}</a> : entry.note ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="actions">
            <button type="button" class="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer entries
            </button>
            <button
              type="button"
              class="secondary"
              disabled={!balance.has_more || !balance.next_cursor}
              onClick={() => balance.next_cursor && setCursors([...cursors, balance.next_cursor])}
            >
              Older entries
            </button>
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
