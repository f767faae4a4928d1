// Webhooks: register an endpoint for events (its signing secret shown once),
// change, test, rotate the secret, delete; a webhook's deliveries with their
// status and attempts, redelivered on demand.
import { useState } from "react";
import { call, type Answer } from "../../api/client";
import type { PageProps } from "../../shell/area";
import { format } from "../../i18n";
import { ConfirmDialog, CopyButton, EmptyState, ErrorBox, Link, Loading, useAction, useLoad } from "../../ui";
import { AdminPage } from "./AdminPage";
import { ResourcePage, type ResourceConfig } from "./ResourceList";
import { useS } from "./strings";
import { useWhen } from "./when";

export type Webhook = Answer<"/webhooks", "get">[number];
export type Delivery = Answer<"/webhooks/{id}/deliveries", "get">[number];

// The event catalog (docs/webhooks.md), in catalog order.
export const webhookEvents = [
  "entry.published",
  "entry.updated",
  "entry.deleted",
  "entry.expiring",
  "entry.expired",
  "entry.renewed",
  "review.submitted",
  "translation.stale",
  "translation.updated",
  "trust.decision.blocked",
  "apikey.created",
  "apikey.revoked",
  "app.key.disabled",
  "connector.sync.failed",
  "scanning.secret.detected",
] as const;


// A secret the server shows once: copy it now.
function SecretPanel({ secret, url, onDone }: { secret: string; url: string; onDone: () => void }) {
  const s = useS();
  return (
    <div className="secret-panel" role="status">
      <h2>{s.secretTitle}</h2>
      <p>{format(s.secretOnce, { url })}</p>
      <p>
        <code className="secret" data-secret>
          {secret}
        </code>{" "}
        <CopyButton text={secret} label={s.copy} copiedLabel={s.copied} />
      </p>
      <button type="button" onClick={onDone}>
        {s.secretSaved}
      </button>
    </div>
  );
}

function WebhookActions({ webhook, onSecret }: { webhook: Webhook; onSecret: (secret: string, url: string) => void }) {
  const s = useS();
  const action = useAction();
  const [rotating, setRotating] = useState(false);
  const [tested, setTested] = useState(false);
  return (
    <>
      <Link to={`/manage/webhooks/${webhook.id}`} className="button">
        {s.deliveries}
      </Link>
      <button
        type="button"
        disabled={action.busy}
        aria-label={`${s.sendTest}: ${webhook.url}`}
        onClick={() =>
          action.run(async () => {
            await call("post", "/webhooks/{id}/test", { params: { id: webhook.id } });
            setTested(true);
          })
        }
      >
        {s.sendTest}
      </button>
      {tested && <span role="status">{s.testQueued}</span>}
      <button
        type="button"
        aria-label={`${s.rotateSecret}: ${webhook.url}`}
        onClick={() => {
          action.clear();
          setRotating(true);
        }}
      >
        {s.rotateSecret}
      </button>
      <ErrorBox error={!rotating && action.error} />
      <ConfirmDialog
        open={rotating}
        title={s.rotateSecret}
        question={s.rotateQuestion}
        confirmLabel={s.rotateSecret}
        busy={action.busy}
        error={action.error}
        onCancel={() => setRotating(false)}
        onConfirm={() =>
          action.run(async () => {
            const rotated = await call("post", "/webhooks/{id}/rotate-secret", { params: { id: webhook.id } });
            setRotating(false);
            onSecret(rotated.secret, rotated.url);
          })
        }
      />
    </>
  );
}

export function WebhooksPage({ me }: PageProps) {
  const s = useS();
  const when = useWhen();
  const [secret, setSecret] = useState<{ secret: string; url: string } | null>(null);
  const events = webhookEvents.map((e) => ({ value: e, label: e }));
  const config: ResourceConfig<Webhook> = {
    kind: "webhook",
    title: s.webhooks,
    intro: (
      <>
        <p>{s.webhooksIntro}</p>
        {secret && <SecretPanel secret={secret.secret} url={secret.url} onDone={() => setSecret(null)} />}
      </>
    ),
    noun: s.webhookNoun,
    empty: s.webhooksEmpty,
    load: () => call("get", "/webhooks"),
    rowKey: (w) => w.id,
    rowName: (w) => w.url,
    columns: [
      {
        label: s.f.url,
        render: (w) => (
          <>
            <Link to={`/manage/webhooks/${w.id}`}>{w.url}</Link>
            {w.description && <div className="muted">{w.description}</div>}
          </>
        ),
      },
      { label: s.f.events, render: (w) => w.eventTypes.join(", ") },
      {
        label: s.f.isEnabled,
        render: (w) => (
          <>
            {w.enabled ? s.yes : s.no}
            {w.disabledReason && <div className="muted">{w.disabledReason}</div>}
            {w.previousSecretUntil && <div className="muted">{format(s.previousSecretUntil, { when: when(w.previousSecretUntil) })}</div>}
          </>
        ),
      },
    ],
    fields: [
      { name: "url", label: s.f.url, kind: "url", required: true, maxLength: 2000, help: s.webhookUrlHelp },
      { name: "description", label: s.f.description, kind: "text", maxLength: 500 },
      { name: "eventTypes", label: s.f.events, kind: "multi", required: true, options: events },
      { name: "enabled", label: s.f.isEnabled, kind: "checkbox", initial: true },
    ],
    create: async (body) => {
      const created = await call("post", "/webhooks", { body: body as never });
      setSecret({ secret: created.secret, url: created.url });
    },
    update: (w, body) => call("patch", "/webhooks/{id}", { params: { id: w.id }, body: body as never }),
    remove: (w) => call("delete", "/webhooks/{id}", { params: { id: w.id } }),
    rowActions: (w) => <WebhookActions webhook={w} onSecret={(secret, url) => setSecret({ secret, url })} />,
  };
  return <ResourcePage config={config} me={me} />;
}

function Redeliver({ webhookId, delivery, refresh }: { webhookId: string; delivery: Delivery; refresh: () => void }) {
  const s = useS();
  const when = useWhen();
  const action = useAction();
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        aria-label={`${s.redeliver}: ${delivery.eventType} ${when(delivery.createdAt)}`}
        onClick={() =>
          action.run(async () => {
            await call("post", "/webhooks/{id}/deliveries/{deliveryId}/redeliver", { params: { id: webhookId, deliveryId: delivery.id } });
            refresh();
          })
        }
      >
        {s.redeliver}
      </button>
      <ErrorBox error={action.error} />
    </>
  );
}

export function WebhookPage({ params, me }: PageProps) {
  const s = useS();
  const when = useWhen();
  const id = params.id;
  const [generation, setGeneration] = useState(0);
  const refresh = () => setGeneration((g) => g + 1);
  const webhook = useLoad(() => call("get", "/webhooks/{id}", { params: { id } }), [id]);
  const deliveries = useLoad(() => call("get", "/webhooks/{id}/deliveries", { params: { id } }), [id, generation]);
  return (
    <AdminPage title={s.webhookDeliveries} me={me} back="/manage/webhooks">
      <ErrorBox error={webhook.error} />
      {webhook.data && (
        <dl className="facts">
          <dt>{s.f.url}</dt>
          <dd>
            <code>{webhook.data.url}</code>
          </dd>
          <dt>{s.f.events}</dt>
          <dd>{webhook.data.eventTypes.join(", ")}</dd>
          <dt>{s.f.isEnabled}</dt>
          <dd>
            {webhook.data.enabled ? s.yes : s.no} {webhook.data.disabledReason}
          </dd>
        </dl>
      )}
      <p>
        <button type="button" onClick={refresh}>
          {s.refresh}
        </button>
      </p>
      <p className="help">{s.deliveriesIntro}</p>
      <ErrorBox error={deliveries.error} />
      {deliveries.loading && <Loading />}
      {deliveries.data && deliveries.data.length === 0 && (
        <EmptyState>
          <p>{s.deliveriesEmpty}</p>
        </EmptyState>
      )}
      {deliveries.data && deliveries.data.length > 0 && (
        <div className="table-wrap">
          <table className="resource-list">
            <thead>
              <tr>
                <th scope="col">{s.event}</th>
                <th scope="col">{s.status}</th>
                <th scope="col">{s.attempts}</th>
                <th scope="col">{s.responseCode}</th>
                <th scope="col">{s.created}</th>
                <th scope="col">{s.actions}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <tr key={d.id} data-delivery-event={d.eventType} data-delivery-status={d.status}>
                  <td>
                    <code>{d.eventType}</code>
                  </td>
                  <td>
                    <span className={`badge delivery-${d.status}`}>{s.deliveryStatus[d.status]}</span>
                    {d.lastError && <div className="muted">{d.lastError}</div>}
                    {d.nextAttemptAt && <div className="muted">{format(s.nextAttempt, { when: when(d.nextAttemptAt) })}</div>}
                  </td>
                  <td data-attempts={d.attempts}>{d.attempts}</td>
                  <td>{d.responseCode ?? ""}</td>
                  <td>
                    {when(d.createdAt)}
                    {d.deliveredAt && <div className="muted">{format(s.deliveredAt, { when: when(d.deliveredAt) })}</div>}
                  </td>
                  <td className="row-actions">
                    <Redeliver webhookId={id} delivery={d} refresh={refresh} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminPage>
  );
}
