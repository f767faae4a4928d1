// The hubs the user can see (and a form to create one), one hub's entries
// with their status and expiry, and a hub's settings: memberships, expiry
// defaults and the hub.admin.settings plugin slot.
import { useCallback, useMemo, useState } from "react";
import { call } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { Slot } from "../../plugins/Slot";
import { format } from "../../i18n";
import { Dialog, EmptyState, ErrorBox, Link, Loading, StatusBadge, navigate, useAction, useLoad, useStableLoad } from "../../ui";
import {ROLES, slugify, type ExpiryTemplateT, type GroupT, type HubT, type MembershipT, type Role, type UserT } from "./api";
import { ExpiryBadge } from "./Badges";
import { useS } from "./strings";
import "./kb.css";

const KEY_PATTERN = "[a-z0-9]+(-[a-z0-9]+)*";

export function HubsPage({ me }: PageProps) {
  const s = useS();
  const [version, setVersion] = useState(0);
  const hubs = useLoad(() => call("get", "/api/hubs"), [version]);
  const canCreate = me.tenantRole === "Owner";
  return (
    <main className="kb">
      <h1>{s.hubs}</h1>
      <ErrorBox error={hubs.error} />
      {hubs.loading && <Loading />}
      {hubs.data && hubs.data.length === 0 && (
        <EmptyState>
          <p>{canCreate ? s.noHubsOwner : s.noHubs}</p>
        </EmptyState>
      )}
      <ul className="cards hub-list">
        {hubs.data?.map((hub) => (
          <li key={hub.id} data-hub-key={hub.key}>
            <Link to={`/hubs/${encodeURIComponent(hub.key)}`}>{hub.name}</Link> <code>{hub.key}</code>
          </li>
        ))}
      </ul>
      {canCreate && <CreateHub onCreated={() => setVersion((v) => v + 1)} />}
    </main>
  );
}

function CreateHub({ onCreated }: { onCreated: () => void }) {
  const s = useS();
  const [key, setKey] = useState("");
  const [keyEdited, setKeyEdited] = useState(false);
  const [name, setName] = useState("");
  const [days, setDays] = useState(90);
  const action = useAction();
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const hub = await action.run(() => call("post", "/api/hubs", { body: { key, name, defaultExpiryDays: days } }));
    if (hub) {
      onCreated();
      navigate(`/hubs/${encodeURIComponent(hub.key)}`);
    }
  }
  return (
    <section className="panel" aria-labelledby="create-hub">
      <h2 id="create-hub">{s.createHub}</h2>
      <form className="stack" onSubmit={submit}>
        <ErrorBox error={action.error} />
        <label>
          {s.hubName}
          <input
            name="hubName"
            required
            maxLength={200}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (!keyEdited) setKey(slugify(e.target.value));
            }}
          />
        </label>
        <label>
          {s.hubKey}
          <input
            name="hubKey"
            required
            pattern={KEY_PATTERN}
            maxLength={100}
            aria-describedby="hub-key-hint"
            value={key}
            onChange={(e) => {
              setKeyEdited(true);
              setKey(e.target.value);
            }}
          />
        </label>
        <p id="hub-key-hint" className="hint">
          {s.hubKeyHint}
        </p>
        <label>
          {s.defaultExpiryDays}
          <input
            name="defaultExpiryDays"
            type="number"
            min={1}
            max={3650}
            required
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          {action.busy ? s.saving : s.createHub}
        </button>
      </form>
    </section>
  );
}

export function HubPage({ params, query }: PageProps) {
  const hubKey = params.hubKey;
  const deleted = query.get("deleted");
  const s = useS();
  const hub = useLoad(() => call("get", "/api/hubs/{key}", { params: { key: hubKey } }), [hubKey]);
  const perms = useLoad(() => call("get", "/api/hubs/{key}/permissions", { params: { key: hubKey } }), [hubKey]);
  const entries = useLoad(() => call("get", "/api/entries/hubs/{hubKey}", { params: { hubKey } }), [hubKey]);
  // Every entry's expiry status in one answer (with whether it is paused);
  // the list's own status and date stand in if it fails.
  const expiry = useLoad(
    () =>
      call("get", "/api/expiry-dashboard/hubs/{hubKey}/entries", { params: { hubKey } }).then(
        (rows) => new Map(rows.map((r) => [r.entryId, r])),
        () => new Map(),
      ),
    [hubKey],
  );
  const rootId = hub.data?.rootEntryId ?? null;
  const root = entries.data?.find((e) => e.id === rootId);
  const canEdit = perms.data && perms.data.role !== "Viewer";
  const isAdmin = perms.data?.role === "Admin";
  return (
    <main className="kb">
      <p>
        <Link to="/hubs">← {s.hubs}</Link>
      </p>
      <h1>{hub.data?.name ?? hubKey}</h1>
      <ErrorBox error={hub.error ?? entries.error} />
      {deleted && (
        <p role="status" className="notice ok">
          {format(s.deletedNotice, { title: deleted })}
        </p>
      )}
      <div className="actions">
        {canEdit && (
          <Link to={`/hubs/${encodeURIComponent(hubKey)}/new`} className="button">
            {s.newEntry}
          </Link>
        )}
        {isAdmin && (
          <Link to={`/hubs/${encodeURIComponent(hubKey)}/settings`} className="button secondary">
            {s.hubSettings}
          </Link>
        )}
      </div>
      {root && (
        <p className="root-entry" data-root-entry={root.id}>
          <span className="badge badge-root">{s.rootEntry}</span> <Link to={`/entries/${root.id}`}>{root.title}</Link>
        </p>
      )}
      <h2>{s.entries}</h2>
      {entries.loading && <Loading />}
      {entries.data && entries.data.length === 0 && (
        <EmptyState>
          <p>{canEdit ? s.noEntriesEditor : s.noEntries}</p>
        </EmptyState>
      )}
      <ul className="entries">
        {entries.data?.map((entry) => (
          <li key={entry.id} data-entry-key={entry.key} data-entry-id={entry.id} data-root={entry.id === rootId ? "true" : undefined}>
            <Link to={`/entries/${entry.id}`}>{entry.title}</Link>
            {entry.id === rootId && <span className="badge badge-root">{s.rootEntry}</span>}
            <StatusBadge status={entry.status} />
            <ExpiryBadge
              status={expiry.data?.get(entry.id)?.status ?? entry.status}
              expiryDate={expiry.data?.get(entry.id)?.expiryDate ?? entry.expiryDate}
              isPaused={expiry.data?.get(entry.id)?.isPaused}
            />
          </li>
        ))}
      </ul>
    </main>
  );
}

export function HubSettingsPage({ params }: PageProps) {
  const hubKey = params.hubKey;
  const s = useS();
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  const slotContext = useMemo(() => ({ hubKey, refresh }), [hubKey, refresh]);
  const hub = useStableLoad(() => call("get", "/api/hubs/{key}", { params: { key: hubKey } }), [hubKey, version]);
  const hubId = hub.data?.id;
  const memberships = useStableLoad(
    () => (hubId ? call("get", "/api/hubs/{hubId}/memberships", { params: { hubId } }) : Promise.resolve(null)),
    [hubId, version],
  );
  const users = useStableLoad(() => call("get", "/api/users"), []);
  const groups = useStableLoad(() => call("get", "/api/groups"), []);
  const templates = useStableLoad(() => call("get", "/api/expiry-templates"), []);

  return (
    <main className="kb">
      <p>
        <Link to={`/hubs/${encodeURIComponent(hubKey)}`}>← {hub.data?.name ?? hubKey}</Link>
      </p>
      <h1>{format(s.settingsOf, { name: hub.data?.name ?? hubKey })}</h1>
      <ErrorBox error={hub.error ?? memberships.error} />
      {!hub.data && hub.loading && <Loading />}
      {hub.data && (
        <HubGeneral
          key={hub.data.id}
          hub={hub.data}
          templates={templates.data ?? []}
          templatesError={templates.error}
          onSaved={refresh}
        />
      )}
      {hubId && memberships.data && (
        <Members
          hubId={hubId}
          memberships={memberships.data}
          users={users.data ?? []}
          groups={groups.data ?? []}
          loadError={users.error ?? groups.error}
          onChanged={refresh}
        />
      )}
      <div className="plugin-settings">
        <Slot name="hub.admin.settings" context={slotContext} />
      </div>
    </main>
  );
}

function HubGeneral({
  hub,
  templates,
  templatesError,
  onSaved,
}: {
  hub: HubT;
  templates: ExpiryTemplateT[];
  templatesError: unknown;
  onSaved: () => void;
}) {
  const s = useS();
  const [name, setName] = useState(hub.name);
  const [days, setDays] = useState(hub.defaultExpiryDays);
  const [templateId, setTemplateId] = useState(hub.defaultExpiryTemplateId ?? "");
  const [saved, setSaved] = useState(false);
  const action = useAction();
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setSaved(false);
    // PUT clears optional fields left out: send back the ones this form does not edit.
    const done = await action.run(() =>
      call("put", "/api/hubs/{key}", {
        params: { key: hub.key },
        body: {
          name,
          defaultExpiryDays: days,
          ...(templateId ? { defaultExpiryTemplateId: templateId } : {}),
          ...(hub.previewImage ? { previewImage: hub.previewImage } : {}),
          ...(hub.defaultOrgRole ? { defaultOrgRole: hub.defaultOrgRole } : {}),
        },
      }),
    );
    if (done) {
      setSaved(true);
      onSaved();
    }
  }
  return (
    <section className="panel" aria-labelledby="hub-general">
      <h2 id="hub-general">{s.general}</h2>
      <form className="stack" onSubmit={submit}>
        <ErrorBox error={action.error ?? templatesError} />
        <label>
          {s.hubName}
          <input name="hubName" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {s.defaultExpiryDays}
          <input
            name="defaultExpiryDays"
            type="number"
            min={1}
            max={3650}
            required
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
          />
        </label>
        <label>
          {s.expiryTemplate}
          <select name="expiryTemplate" value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            <option value="">{s.noTemplate}</option>
            {templates
              .filter((t) => t.isActive || t.id === templateId)
              .map((t) => (
                <option key={t.id} value={t.id}>
                  {format(s.templateOption, { name: t.name, n: t.expiryDays })}
                </option>
              ))}
          </select>
        </label>
        {templates.length === 0 && <p className="hint">{s.noTemplatesHint}</p>}
        <div className="actions">
          <button type="submit" disabled={action.busy}>
            {action.busy ? s.saving : s.save}
          </button>
          {saved && (
            <span role="status" className="saved">
              {s.saved}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

function Members({
  hubId,
  memberships,
  users,
  groups,
  loadError,
  onChanged,
}: {
  hubId: string;
  memberships: MembershipT[];
  users: UserT[];
  groups: GroupT[];
  loadError: unknown;
  onChanged: () => void;
}) {
  const s = useS();
  const action = useAction();
  const [removing, setRemoving] = useState<MembershipT | null>(null);
  const [userId, setUserId] = useState("");
  const [userRole, setUserRole] = useState<Role>("Editor");
  const [groupId, setGroupId] = useState("");
  const [groupRole, setGroupRole] = useState<Role>("Viewer");
  const roleLabel = (r: Role) => s.roles[r];

  async function changeRole(m: MembershipT, role: Role) {
    const ok = await action.run(() =>
      call("put", "/api/hubs/{hubId}/memberships/{membershipId}/role", {
        params: { hubId, membershipId: m.id },
        body: { role },
      }),
    );
    if (ok) onChanged();
  }
  async function remove(m: MembershipT) {
    await action.run(() =>
      call("delete", "/api/hubs/{hubId}/memberships/{membershipId}", { params: { hubId, membershipId: m.id } }),
    );
    setRemoving(null);
    onChanged();
  }
  async function addUser(e: React.FormEvent) {
    e.preventDefault();
    const ok = await action.run(() =>
      call("post", "/api/hubs/{hubId}/memberships/users", { params: { hubId }, body: { targetUserId: userId, role: userRole } }),
    );
    if (ok) {
      setUserId("");
      onChanged();
    }
  }
  async function addGroup(e: React.FormEvent) {
    e.preventDefault();
    const ok = await action.run(() =>
      call("post", "/api/hubs/{hubId}/memberships/groups", { params: { hubId }, body: { groupId, role: groupRole } }),
    );
    if (ok) {
      setGroupId("");
      onChanged();
    }
  }

  return (
    <section className="panel" aria-labelledby="hub-members">
      <h2 id="hub-members">{s.members}</h2>
      <ErrorBox error={action.error ?? loadError} />
      {memberships.length === 0 ? (
        <EmptyState>
          <p>{s.noMembers}</p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="members">
            <thead>
              <tr>
                <th scope="col">{s.member}</th>
                <th scope="col">{s.kind}</th>
                <th scope="col">{s.role}</th>
                <th scope="col">
                  <span className="visually-hidden">{s.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {memberships.map((m) => (
                <tr key={m.id} data-membership={m.displayName} data-principal={m.userId ?? m.groupId ?? ""}>
                  <td>{m.displayName}</td>
                  <td>{m.principalType === "User" ? s.user : s.group}</td>
                  <td>
                    <select
                      aria-label={format(s.roleOf, { name: m.displayName })}
                      value={m.role}
                      disabled={action.busy}
                      onChange={(e) => changeRole(m, e.target.value as Role)}
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {roleLabel(r)}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <button type="button" className="danger" onClick={() => setRemoving(m)}>
                      {s.remove}
                      <span className="visually-hidden"> {m.displayName}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="add-forms">
        <form className="inline-form" onSubmit={addUser}>
          <label>
            {s.addUser}
            <select name="addUser" required value={userId} onChange={(e) => setUserId(e.target.value)}>
              <option value="">{s.pickUser}</option>
              {users.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.displayName} ({u.email})
                </option>
              ))}
            </select>
          </label>
          <label>
            {s.role}
            <select name="addUserRole" value={userRole} onChange={(e) => setUserRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={action.busy || !userId}>
            {s.add}
          </button>
        </form>
        <form className="inline-form" onSubmit={addGroup}>
          <label>
            {s.addGroup}
            <select name="addGroup" required value={groupId} onChange={(e) => setGroupId(e.target.value)}>
              <option value="">{groups.length ? s.pickGroup : s.noGroups}</option>
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {s.role}
            <select name="addGroupRole" value={groupRole} onChange={(e) => setGroupRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={action.busy || !groupId}>
            {s.add}
          </button>
        </form>
      </div>
      <Dialog open={!!removing} title={s.removeMemberTitle} onClose={() => setRemoving(null)}>
        {removing && (
          <>
            <p>{format(s.removeMemberText, { name: removing.displayName })}</p>
            <div className="actions">
              <button type="button" className="danger" disabled={action.busy} onClick={() => remove(removing)}>
                {s.remove}
              </button>
              <button type="button" onClick={() => setRemoving(null)}>
                {s.cancel}
              </button>
            </div>
          </>
        )}
      </Dialog>
    </section>
  );
}
