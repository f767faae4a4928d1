// The delete dialog honours entry.delete.confirm: the confirm button stays
// disabled while any contribution holds the delete back.
import { act, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SlotContext, SlotName } from "../../plugins/Slot";

vi.mock("../../plugins/Slot", () => ({
  Slot: ({ name, context }: { name: SlotName; context?: SlotContext }) =>
    name === "entry.delete.confirm" ? <Contribution context={context!} /> : null,
}));

function Contribution({ context }: { context: SlotContext }) {
  useEffect(() => {
    context.setConfirmable?.("safe-delete", false);
    context.setConfirmable?.("other", true);
  }, [context]);
  return (
    <button type="button" data-release onClick={() => context.setConfirmable?.("safe-delete", true)}>
      release
    </button>
  );
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const container = document.createElement("div");
afterEach(() => {
  container.innerHTML = "";
});

describe("DeleteForm", () => {
  it("waits for every entry.delete.confirm contribution", async () => {
    const { DeleteForm } = await import("./EntryActions");
    const entry = { id: "e1", hubKey: "h", title: "Old page" } as Parameters<typeof DeleteForm>[0]["entry"];
    const root = createRoot(container);
    await act(async () => root.render(<DeleteForm entry={entry} close={() => undefined} />));
    const confirm = () => [...container.querySelectorAll("button")].find((b) => b.textContent === "Delete entry")!;
    expect(confirm().disabled).toBe(true);
    expect(container.textContent).toContain("A plugin holds the delete back");
    await act(async () => (container.querySelector("[data-release]") as HTMLButtonElement).click());
    expect(confirm().disabled).toBe(false);
    await act(async () => root.unmount());
  });
});
