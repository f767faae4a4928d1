// The tenant's people: members with their roles (change a role; remove with
// confirmation),
// invitations (invite by email with a role, the pending ones, revoke).
import { useState } from "react";
import { call, type Answer } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { format } from "../../i18n";
import { ConfirmDialog, EmptyState, ErrorBox, Loading, useAction, useLoad } from "../../ui";
import { initialValues, type FieldDef } from "./fields";
import { AdminPage } from "./AdminPage";
import { ResourceForm } from "./ResourceList";
import { useS } from "./strings";
import { useWhen } from "./when";

export type TenantUser = Answer<"/api/users", "get">[number];
export type Invitation = Answer<"/api/users/invitations", "get">[number];


export function UsersPage({ me }: PageProps) {
  const s = useS();
  const when = useWhen();
  const [generation, setGeneration] = useState(0);
  const refresh = () => setGeneration((g) => g + 1);
  const users = useLoad(() => call("get", "/api/users"), [generation]);
  const invitations = useLoad(
    () => call("get", "/api/users/invitations", { query: { status: "Pending" } }),
    [generation],
  );
  const [removing, setRemoving] = useState<TenantUser | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const removal = useAction();
  const roleChange = useAction();
  const revocation = useAction();
  const [formKey, setFormKey] = useState(0);
  const [sent, setSent] = useState<string | null>(null);

  const roles = (["Member", "Owner", "Guest"] as const).map((r) => ({ value: r, label: s.roles[r] }));
  const inviteFields: FieldDef[] = [
    { name: "email", label: s.f.email, kind: "email", required: true, maxLength: 254 },
    { name: "role", label: s.f.role, kind: "select", options: roles, help: s.roleHelp },
    { name: "displayName", label: s.f.displayName, kind: "text", maxLength: 200 },
  ];

  return (
    <AdminPage title={s.users} me={me}>
      <p className="intro">{s.usersIntro}</p>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">{s.members}</h2>
        <ErrorBox error={users.error} />
        {users.loading && <Loading />}
        {users.data && (
          <div className="table-wrap">
            <table className="resource-list">
              <thead>
                <tr>
                  <th scope="col">{s.f.displayName}</th>
                  <th scope="col">{s.f.email}</th>
                  <th scope="col">{s.f.role}</th>
                  <th scope="col">{s.joined}</th>
                  <th scope="col">{s.actions}</th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((u) => (
                  <tr key={u.id} data-user-email={u.email}>
                    <td>{u.displayName}</td>
                    <td>{u.email}</td>
                    <td data-role={u.tenantRole}>
                      {u.id === me.id ? (
                        s.roles[u.tenantRole]
                      ) : (
                        <select
                          name="role"
                          aria-label={format(s.roleOf, { name: u.email })}
                          value={u.tenantRole}
                          disabled={roleChange.busy}
                          onChange={async (e) => {
                            const role = e.target.value as TenantUser["tenantRole"];
                            const done = await roleChange.run(() =>
                              call("put", "/api/users/{id}/role", { params: { id: u.id }, body: { role } }),
                            );
                            if (done) refresh();
                          }}
                        >
                          {roles.map((r) => (
                            <option key={r.value} value={r.value}>
                              {r.label}
                            </option>
                          ))}
                        </select>
                      )}
                    </td>
                    <td>{when(u.joinedAt)}</td>
                    <td className="row-actions">
                      {u.id === me.id ? (
                        <span className="muted">{s.you}</span>
                      ) : (
                        <button
                          type="button"
                          className="danger"
                          aria-label={format(s.removeNamed, { name: u.email })}
                          onClick={() => {
                            removal.clear();
                            setRemoving(u);
                          }}
                        >
                          {s.remove}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <ErrorBox error={roleChange.error} />
        <p className="help">{s.roleChangeNote}</p>
      </section>

      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">{s.invite}</h2>
        <ResourceForm
          key={formKey}
          fields={inviteFields}
          initial={initialValues(inviteFields)}
          editing={false}
          submitLabel={s.sendInvitation}
          onSubmit={async (body) => {
            const invitation = await call("post", "/api/users/invite", { body: body as never });
            setSent(invitation.email);
            setFormKey((k) => k + 1);
            refresh();
          }}
        />
        {sent && <p role="status">{format(s.invitationSent, { email: sent })}</p>}
      </section>

      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">{s.pendingInvitations}</h2>
        <ErrorBox error={invitations.error} />
        {invitations.loading && <Loading />}
        {invitations.data && invitations.data.length === 0 && (
          <EmptyState>
            <p>{s.invitationsEmpty}</p>
          </EmptyState>
        )}
        {invitations.data && invitations.data.length > 0 && (
          <div className="table-wrap">
            <table className="resource-list">
              <thead>
                <tr>
                  <th scope="col">{s.f.email}</th>
                  <th scope="col">{s.f.role}</th>
                  <th scope="col">{s.invited}</th>
                  <th scope="col">{s.expires}</th>
                  <th scope="col">{s.actions}</th>
                </tr>
              </thead>
              <tbody>
                {invitations.data.map((i) => (
                  <tr key={i.id} data-invitation-email={i.email}>
                    <td>{i.email}</td>
                    <td>{s.roles[i.role]}</td>
                    <td>{when(i.invitedAt)}</td>
                    <td>{when(i.expiresAt)}</td>
                    <td className="row-actions">
                      <button
                        type="button"
                        className="danger"
                        aria-label={format(s.revokeNamed, { name: i.email })}
                        onClick={() => {
                          revocation.clear();
                          setRevoking(i);
                        }}
                      >
                        {s.revoke}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <ConfirmDialog
        open={removing !== null}
        title={s.removeUser}
        question={removing ? format(s.removeUserQuestion, { name: removing.email }) : ""}
        confirmLabel={s.remove}
        busy={removal.busy}
        error={removal.error}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removal.run(async () => {
            await call("delete", "/api/users/{id}", { params: { id: removing!.id } });
            setRemoving(null);
            refresh();
          })
        }
      />
      <ConfirmDialog
        open={revoking !== null}
        title={s.revokeInvitation}
        question={revoking ? format(s.revokeQuestion, { name: revoking.email }) : ""}
        confirmLabel={s.revoke}
        busy={revocation.busy}
        error={revocation.error}
        onCancel={() => setRevoking(null)}
        onConfirm={() =>
          revocation.run(async () => {
            await call("delete", "/api/users/invitations/{invitationId}", { params: { invitationId: revoking!.id } });
            setRevoking(null);
            refresh();
          })
        }
      />
    </AdminPage>
  );
}
