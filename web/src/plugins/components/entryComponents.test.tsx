// The entry slots' components against a fake server (fetch stubbed): what
// they ask the server and what they show. The journey covers them in a real
// browser once the entry editor page hosts the slots.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApprovalDialog, ApprovalPublishButton } from "./approval";
import { ContentRulesStatus } from "./contentRules";
import { SafeDeleteConfirm } from "./safeDelete";

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true;

type Route = (body: unknown) => [number, unknown];
let routes: Record<string, Route>;
let requests: string[];
let container: HTMLDivElement;
let root: Root;

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

beforeEach(() => {
  requests = [];
  routes = {};
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? "GET"} ${url}`;
      requests.push(key);
      const route = routes[key];
      if (!route) return json(404, { title: "Not Found", status: 404, detail: `no fake for ${key}` });
      const [status, body] = route(init?.body ? JSON.parse(String(init.body)) : undefined);
      return json(status, body);
    }),
  );
  container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

async function settle() {
  for (let i = 0; i < 5; i++) await act(async () => new Promise((r) => setTimeout(r, 5)));
}
async function render(node: React.ReactNode) {
  await act(async () => root.render(node));
  await settle();
}
function type(el: Element, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true }));
}
const button = (text: string) => [...container.querySelectorAll("button")].find((b) => b.textContent === text)!;

const approval = (status: string, extra = {}) => ({
  id: "a1",
  entryId: "e1",
  status,
  requestedBy: "u-author",
  requestedAt: "2026-11-26T00:00:00Z",
  requestComment: "please",
  decidedBy: null,
  decidedAt: null,
  decisionComment: null,
  ...extra,
});

describe("ApprovalPublishButton", () => {
  it("shows no request, then requests an approval with the comment and shows it pending", async () => {
    let list: unknown[] = [];
    const refresh = vi.fn();
    let sent: unknown;
    routes["GET /api/plugins/approval-workflow/entries/e1/approvals"] = () => [200, list];
    routes["POST /api/plugins/approval-workflow/entries/e1/request"] = (body) => {
      sent = body;
      list = [approval("Pending")];
      return [201, list[0]];
    };
    await render(<ApprovalPublishButton pluginId="approval-workflow" settings={{}} context={{ entryId: "e1", refresh }} />);
    expect(container.querySelector('[data-approval-status="none"]')).not.toBeNull();
    type(container.querySelector("input")!, "ready for review");
    await act(async () => button("Request approval").click());
    await settle();
    expect(sent).toEqual({ comment: "ready for review" });
    expect(container.querySelector('[data-approval-status="Pending"]')).not.toBeNull();
    expect(button("Request approval")).toBeUndefined();
    expect(refresh).toHaveBeenCalled();
  });

  it("shows the server's problem (plugin not enabled)", async () => {
    routes["GET /api/plugins/approval-workflow/entries/e1/approvals"] = () => [404, { title: "Not Found", status: 404, detail: "plugin_not_enabled" }];
    await render(<ApprovalPublishButton pluginId="approval-workflow" settings={{}} context={{ entryId: "e1" }} />);
    expect(container.querySelector('[role="alert"]')?.textContent).toMatch(/plugin_not_enabled/);
  });
});

describe("ApprovalDialog", () => {
  beforeEach(() => {
    routes["GET /api/users/me"] = () => [200, { id: "u-approver" }];
  });

  it("approves a pending request with a comment", async () => {
    let list = [approval("Pending")];
    let sent: unknown;
    routes["GET /api/plugins/approval-workflow/entries/e1/approvals"] = () => [200, list];
    routes["POST /api/plugins/approval-workflow/approvals/a1/approve"] = (body) => {
      sent = body;
      list = [approval("Approved", { decidedBy: "u-approver", decidedAt: "2026-11-26T01:00:00Z", decisionComment: "fine" })];
      return [200, list[0]];
    };
    const close = vi.fn();
    await render(<ApprovalDialog pluginId="approval-workflow" settings={{}} context={{ entryId: "e1", close }} />);
    expect(container.querySelector('li[data-approval-status="Pending"]')?.textContent).toMatch(/another user/);
    type(container.querySelector("textarea")!, "fine");
    await act(async () => button("Approve").click());
    await settle();
    expect(sent).toEqual({ comment: "fine" });
    const row = container.querySelector('li[data-approval-status="Approved"]')!;
    expect(row.textContent).toMatch(/Decided by you/);
    expect(button("Approve")).toBeUndefined();
    await act(async () => button("Close").click());
    expect(close).toHaveBeenCalled();
  });

  it("needs a comment to reject, and shows the server's refusal (the author cannot approve)", async () => {
    routes["GET /api/plugins/approval-workflow/entries/e1/approvals"] = () => [200, [approval("Pending")]];
    routes["POST /api/plugins/approval-workflow/approvals/a1/approve"] = () => [
      403,
      { title: "Forbidden", status: 403, detail: "The author of the request cannot approve it.", code: "approver_is_author" },
    ];
    await render(<ApprovalDialog pluginId="approval-workflow" settings={{}} context={{ entryId: "e1" }} />);
    await act(async () => button("Reject").click());
    await settle();
    expect(container.textContent).toMatch(/a comment is required/);
    expect(requests.some((r) => r.includes("/reject"))).toBe(false);
    await act(async () => button("Approve").click());
    await settle();
    expect(container.querySelector('[role="alert"]')?.textContent).toMatch(/cannot approve/);
  });

  it("says what to do when there are no requests", async () => {
    routes["GET /api/plugins/approval-workflow/entries/e1/approvals"] = () => [200, []];
    await render(<ApprovalDialog pluginId="approval-workflow" settings={{}} context={{ entryId: "e1" }} />);
    expect(container.textContent).toMatch(/No approval requests/);
  });
});

describe("SafeDeleteConfirm", () => {
  const entry = { id: "e1", key: "expenses", title: "Expense policy", hubKey: "handbook", content: "{}" };

  it("holds the host's delete until the key and a reason are typed, then hands over the reason", async () => {
    routes["GET /api/entries/e1"] = () => [200, entry];
    const setConfirmable = vi.fn();
    const setDeleteReason = vi.fn();
    await render(<SafeDeleteConfirm pluginId="safe-delete" settings={{ days: 7 }} context={{ entryId: "e1", setConfirmable, setDeleteReason }} />);
    expect(container.textContent).toMatch(/last 7 days/);
    expect(setConfirmable).toHaveBeenLastCalledWith("safe-delete", false);
    const [key, reason] = [container.querySelector('input[name="confirmKey"]')!, container.querySelector('textarea[name="deleteReason"]')!];
    await act(async () => type(key, "expenses"));
    expect(setConfirmable).toHaveBeenLastCalledWith("safe-delete", false);
    await act(async () => type(reason, "superseded by the travel policy"));
    expect(setConfirmable).toHaveBeenLastCalledWith("safe-delete", true);
    expect(setDeleteReason).toHaveBeenLastCalledWith("superseded by the travel policy");
    // The host deletes: the component offers no delete of its own.
    expect(container.querySelectorAll("button")).toHaveLength(0);
  });
});

describe("ContentRulesStatus", () => {
  it("checks the saved entry against the tenant's and the hub's rules", async () => {
    const content = JSON.stringify({
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Summary" }] },
        { type: "paragraph", content: [{ type: "text", text: "Connect through the VPN." }] },
      ],
    });
    routes["GET /api/entries/e1"] = () => [200, { id: "e1", key: "k", title: "Remote access", hubKey: "it", content }];
    routes["GET /api/hubs/it/rules"] = () => [200, { hubKey: "it", isEnabled: true, rules: { forbiddenTerms: ["vpn"] }, rulesJson: "" }];
    routes["GET /api/entries/e1/translations"] = () => [200, []];
    await render(
      <ContentRulesStatus pluginId="content-rules" settings={{ requiredHeadings: ["Summary", "Owner"] }} context={{ entryId: "e1" }} />,
    );
    const rule = (name: string) => container.querySelector(`li[data-rule="${name}"]`)!;
    expect(rule("forbiddenTerms").getAttribute("data-ok")).toBe("false");
    expect(rule("forbiddenTerms").textContent).toMatch(/vpn/);
    expect(rule("requiredHeadings").getAttribute("data-ok")).toBe("false");
    expect(rule("requiredHeadings").textContent).toMatch(/Owner/);
  });
});

describe("HubContentRulesSettings", () => {
  it("edits the hub's rules: isEnabled and rulesJson, as the server takes them", async () => {
    const { HubContentRulesSettings } = await import("./contentRules");
    let sent: unknown;
    routes["GET /api/hubs/it/rules"] = () => [200, { hubKey: "it", isEnabled: false, rules: { forbiddenTerms: ["vpn"] }, rulesJson: "", updatedAt: null }];
    routes["PUT /api/hubs/it/rules"] = (body) => {
      sent = body;
      return [200, { hubKey: "it", isEnabled: true, rules: {}, rulesJson: "", updatedAt: "2026-11-26T00:00:00Z" }];
    };
    const refresh = vi.fn();
    await render(<HubContentRulesSettings pluginId="content-rules" settings={{}} context={{ hubKey: "it", refresh }} />);
    const terms = container.querySelector('textarea[name="forbiddenTerms"]') as HTMLTextAreaElement;
    expect(terms.value).toBe("vpn");
    await act(async () => (container.querySelector('input[name="isEnabled"]') as HTMLInputElement).click());
    await act(async () => type(terms, "vpn\nwifi password"));
    await act(async () => type(container.querySelector('input[name="maxTitleLength"]')!, "60"));
    await act(async () => button("Save settings").click());
    await settle();
    const body = sent as { isEnabled: boolean; rulesJson: string };
    expect(body.isEnabled).toBe(true);
    expect(JSON.parse(body.rulesJson)).toEqual({ requiredHeadings: [], forbiddenTerms: ["vpn", "wifi password"], maxTitleLength: 60, requiredTranslations: [], noSecretFindings: false, enforceStyleRules: false });
    expect(refresh).toHaveBeenCalled();
    expect(container.textContent).toMatch(/Saved\./);
  });
});
