// Groups: create, rename and delete them (a deleted group's hub memberships
// and entry permissions end with it), see their members, add and remove
// members.
import { useState } from "react";
import { call, Problem, type Answer } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { format } from "../../i18n";
import { ConfirmDialog, EmptyState, ErrorBox, Link, Loading, useAction, useLoad } from "../../ui";
import { AdminPage } from "./AdminPage";
import { ResourcePage, type ResourceConfig } from "./ResourceList";
import { useS } from "./strings";

export type Group = Answer<"/api/groups", "get">[number];
export type GroupMember = Answer<"/api/groups/{groupId}/members", "get">[number];

export function GroupsPage({ me }: PageProps) {
  const s = useS();
  const config: ResourceConfig<Group> = {
    kind: "group",
    title: s.groups,
    intro: <p>{s.groupsIntro}</p>,
    noun: s.groupNoun,
    empty: s.groupsEmpty,
    load: () => call("get", "/api/groups"),
    rowKey: (g) => g.id,
    rowName: (g) => g.name,
    columns: [
      { label: s.f.name, render: (g) => <Link to={`/manage/groups/${g.id}`}>{g.name}</Link> },
      { label: s.f.description, render: (g) => g.description ?? "" },
      { label: s.memberCount, render: (g) => g.memberCount },
    ],
    fields: [
      { name: "name", label: s.f.name, kind: "text", required: true, maxLength: 200 },
      { name: "description", label: s.f.description, kind: "textarea", maxLength: 2000 },
    ],
    create: (body) => call("post", "/api/groups", { body: body as never }),
    update: (g, body) => call("put", "/api/groups/{groupId}", { params: { groupId: g.id }, body: body as never }),
    remove: (g) => call("delete", "/api/groups/{groupId}", { params: { groupId: g.id } }),
  };
  return <ResourcePage config={config} me={me} />;
}

export function GroupPage({ params, me }: PageProps) {
  const s = useS();
  const groupId = params.groupId;
  const [generation, setGeneration] = useState(0);
  const refresh = () => setGeneration((g) => g + 1);
  const group = useLoad(async () => {
    const found = (await call("get", "/api/groups")).find((g) => g.id === groupId);
    if (!found) throw new Problem(404, s.notFound, s.groupNotFound, "not_found");
    return found;
  }, [groupId, generation]);
  const members = useLoad(() => call("get", "/api/groups/{groupId}/members", { params: { groupId } }), [groupId, generation]);
  const users = useLoad(() => call("get", "/api/users"), []);
  const [userId, setUserId] = useState("");
  const adding = useAction();
  const removal = useAction();
  const [removing, setRemoving] = useState<GroupMember | null>(null);

  const candidates = users.data?.filter((u) => !members.data?.some((m) => m.id === u.id)) ?? [];

  return (
    <AdminPage title={group.data?.name ?? s.group} me={me} back="/manage/groups">
      <ErrorBox error={group.error ?? members.error ?? users.error} />
      {group.data?.description && <p className="intro">{group.data.description}</p>}
      <h2>{s.members}</h2>
      {members.loading && <Loading />}
      {members.data && members.data.length === 0 && (
        <EmptyState>
          <p>{s.groupMembersEmpty}</p>
        </EmptyState>
      )}
      {members.data && members.data.length > 0 && (
        <div className="table-wrap">
          <table className="resource-list">
            <thead>
              <tr>
                <th scope="col">{s.f.displayName}</th>
                <th scope="col">{s.f.email}</th>
                <th scope="col">{s.f.role}</th>
                <th scope="col">{s.actions}</th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((m) => (
                <tr key={m.id} data-member-email={m.email}>
                  <td>{m.displayName}</td>
                  <td>{m.email}</td>
                  <td>{s.roles[m.tenantRole]}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="danger"
                      aria-label={format(s.removeNamed, { name: m.email })}
                      onClick={() => {
                        removal.clear();
                        setRemoving(m);
                      }}
                    >
                      {s.remove}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>{s.addMember}</h2>
      {users.data && candidates.length === 0 && <p>{s.everyoneIsMember}</p>}
      {candidates.length > 0 && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const chosen = userId || candidates[0].id;
            adding.run(async () => {
              await call("post", "/api/groups/{groupId}/members", { params: { groupId }, body: { userId: chosen } });
              setUserId("");
              refresh();
            });
          }}
        >
          <label htmlFor="group-add-user">{s.f.user}</label>{" "}
          <select id="group-add-user" name="userId" value={userId || candidates[0].id} onChange={(e) => setUserId(e.target.value)}>
            {candidates.map((u) => (
              <option key={u.id} value={u.id}>
                {u.displayName} ({u.email})
              </option>
            ))}
          </select>{" "}
          <button type="submit" disabled={adding.busy}>
            {adding.busy ? s.working : s.add}
          </button>
        </form>
      )}
      <ErrorBox error={adding.error} />
      <ConfirmDialog
        open={removing !== null}
        title={s.removeMember}
        question={removing ? format(s.removeMemberQuestion, { name: removing.email, group: group.data?.name ?? "" }) : ""}
        confirmLabel={s.remove}
        busy={removal.busy}
        error={removal.error}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removal.run(async () => {
            await call("delete", "/api/groups/{groupId}/members/{targetUserId}", {
              params: { groupId, targetUserId: removing!.id },
            });
            setRemoving(null);
            refresh();
          })
        }
      />
    </AdminPage>
  );
}
