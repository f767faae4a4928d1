// The hubs the user can see, and one hub's entries with their status.
import { call } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { useT } from "../../i18n";
import { ErrorBox, Link, Loading, StatusBadge, useLoad } from "../../ui";

export function HubsPage() {
  const t = useT();
  const hubs = useLoad(() => call("get", "/api/hubs"), []);
  return (
    <main>
      <h1>{t.hubs}</h1>
      <ErrorBox error={hubs.error} />
      {hubs.loading && <Loading />}
      {hubs.data && hubs.data.length === 0 && <p>{t.noHubs}</p>}
      <ul className="cards">
        {hubs.data?.map((hub) => (
          <li key={hub.id}>
            <Link to={`/hubs/${encodeURIComponent(hub.key)}`}>{hub.name}</Link> <code>{hub.key}</code>
          </li>
        ))}
      </ul>
    </main>
  );
}

export function HubPage({ params }: PageProps) {
  const hubKey = params.hubKey;
  const t = useT();
  const hub = useLoad(() => call("get", "/api/hubs/{key}", { params: { key: hubKey } }), [hubKey]);
  const entries = useLoad(() => call("get", "/api/entries/hubs/{hubKey}", { params: { hubKey } }), [hubKey]);
  return (
    <main>
      <p>
        <Link to="/hubs">← {t.hubs}</Link>
      </p>
      <h1>{hub.data?.name ?? hubKey}</h1>
      <ErrorBox error={hub.error ?? entries.error} />
      <p>
        <Link to={`/hubs/${encodeURIComponent(hubKey)}/new`} className="button">
          {t.newEntry}
        </Link>
      </p>
      <h2>{t.entries}</h2>
      {entries.loading && <Loading />}
      {entries.data && entries.data.length === 0 && <p>{t.noEntries}</p>}
      <ul className="entries">
        {entries.data?.map((entry) => (
          <li key={entry.id} data-entry-key={entry.key}>
            <Link to={`/entries/${entry.id}`}>{entry.title}</Link> <StatusBadge status={entry.status} />
          </li>
        ))}
      </ul>
    </main>
  );
}
