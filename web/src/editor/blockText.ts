// Block text and block hashes (decisions.md section 5), and the client's
// memory of what source blocks said.
//
// The stale-blocks API tells, per stale block, the hash of the original block
// the translation was made from (translatedFromHash) and the original's text
// now (originalText), but not the text then: the server keeps no history of
// block content. The client therefore remembers, in localStorage, the text of
// every original block it has read or saved, by the block's hash (computed as
// the server does: SHA-256 of the canonical JSON of the node without its
// blockId). A stale block whose earlier source this browser has seen gets a
// word diff of then and now; otherwise only the text now is shown.
import type { PmNode } from "./Document";

// Canonical JSON: keys sorted, no insignificant white space.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

// The node as the server hashes it: attrs.blockId left out, and attrs left
// out when nothing else was in it.
export function hashableNode(node: PmNode): PmNode {
  if (!node.attrs || !("blockId" in node.attrs)) return node;
  const { blockId: _omit, ...rest } = node.attrs;
  const copy: PmNode = { ...node };
  if (Object.keys(rest).length) copy.attrs = rest;
  else delete copy.attrs;
  return copy;
}

export async function blockHash(node: PmNode): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(hashableNode(node)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The plain text of a node: its text leaves joined, blocks (paragraphs,
// list items, table cells) separated by a space or a new line.
export function nodeText(node: PmNode): string {
  if (node.type === "text") return node.text ?? "";
  if (node.type === "hardBreak") return "\n";
  const parts = (node.content ?? []).map(nodeText);
  const sep = node.type === "tableRow" ? " | " : node.content?.some((c) => c.type !== "text" && c.type !== "hardBreak") ? "\n" : "";
  return parts.join(sep);
}

const PREFIX = "credence.kb.block.";
const INDEX = "credence.kb.blocks";
const LIMIT = 2000;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// Remembers the text of the given original blocks by hash (oldest forgotten
// past LIMIT).
export async function rememberBlocks(nodes: PmNode[]): Promise<void> {
  const store = storage();
  if (!store) return;
  const entries = await Promise.all(nodes.filter((n) => n.attrs?.isDeleted !== true).map(async (n) => [await blockHash(n), nodeText(n)] as const));
  let index: string[];
  try {
    index = JSON.parse(store.getItem(INDEX) ?? "[]") as string[];
  } catch {
    index = [];
  }
  const known = new Set(index);
  for (const [hash, text] of entries) {
    if (known.has(hash)) continue;
    try {
      store.setItem(PREFIX + hash, text);
    } catch {
      return; // storage full: the diff is a convenience
    }
    index.push(hash);
    known.add(hash);
  }
  while (index.length > LIMIT) store.removeItem(PREFIX + index.shift());
  store.setItem(INDEX, JSON.stringify(index));
}

export function rememberedText(hash: string): string | null {
  return storage()?.getItem(PREFIX + hash) ?? null;
}
