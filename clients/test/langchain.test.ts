// @credence/langchain against a real server (ctest clients_langchain), over
// LangChain's own in-memory vector store with synthetic embeddings (no model).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { Document, type DocumentInterface } from "@langchain/core/documents";
import { SyntheticEmbeddings } from "@langchain/core/utils/testing";
import { CredenceNetworkError, createCredenceClient, type CredenceClient, type TrustAnnotation } from "@credence/client";
import { CredenceRetriever } from "@credence/langchain";
import { call, disclaimer, expectStatus, handbook, measureAddedLatency, recordingFetch, startWorld, type World } from "./support/world.js";

let world: World;
let store: MemoryVectorStore;

before(async () => {
  world = await startWorld();
  store = await MemoryVectorStore.fromDocuments(
    handbook.map((d) => new Document({ pageContent: `${d.title}\n${d.content}`, metadata: { sourceId: d.sourceId, title: d.title } })),
    new SyntheticEmbeddings({ vectorSize: 64 }),
  );
});

after(async () => {
  await world?.stop();
});

const query = "How do I fail over the database?";
const trust = (d: DocumentInterface) => d.metadata.credence as TrustAnnotation | undefined;

function appClient(fetch?: ReturnType<typeof recordingFetch>["fetch"]): CredenceClient {
  return createCredenceClient({ baseUrl: world.base, apiKey: world.appKey.clientSecret, ...(fetch && { fetch }) });
}

test("a blocked document is removed, a warned one annotated, each carries the decision id; one request per query", async () => {
  const recorder = recordingFetch();
  const retriever = new CredenceRetriever({
    vectorStore: store,
    k: 20,
    client: appClient(recorder.fetch),
    context: { actorType: "ai_agent", actorLabel: "handbook-bot", action: "answer_employee" },
  });
  const candidates = await store.asRetriever({ k: 20 }).invoke(query);
  assert.equal(candidates.length, 20);
  assert.ok(candidates.some((d) => d.metadata.sourceId === "kb:runbooks/database-failover"), "the runbook was retrieved");

  const docs = await retriever.invoke(query);
  assert.deepEqual(recorder.exchanges.map((e) => `${e.method} ${e.path}`), ["POST /api/trust/filter-sources"]);
  assert.equal(docs.length, 19);
  assert.ok(!docs.some((d) => d.metadata.sourceId === "kb:runbooks/database-failover"), "the blocked runbook is gone");
  // The vector store's ranking stands.
  assert.deepEqual(
    docs.map((d) => d.metadata.sourceId),
    candidates.map((d) => d.metadata.sourceId).filter((id) => id !== "kb:runbooks/database-failover"),
  );

  const decisionIds = new Set(docs.map((d) => trust(d)?.decisionId));
  assert.equal(decisionIds.size, 1);
  const [decisionId] = decisionIds;
  assert.match(decisionId ?? "", /^[0-9a-f-]{36}$/);

  const warned = docs.filter((d) => trust(d)?.decision === "warn");
  assert.equal(warned.length, 1);
  const faq = trust(warned[0]!)!;
  assert.equal(faq.sourceId, "https://wiki.example.com/pricing-faq");
  assert.deepEqual(faq.reasons.map((r) => r.code), ["connected_never_reviewed"]);
  assert.deepEqual(faq.requirements, { citationRequired: true, disclaimerRequired: true, disclaimerText: disclaimer });
  for (const d of docs.filter((x) => trust(x)?.decision !== "warn")) {
    assert.equal(trust(d)?.decision, "allow");
    assert.equal(trust(d)?.requirements.disclaimerRequired, false);
  }
  // The documents handed out are copies: the store's own metadata is untouched.
  assert.ok(store.memoryVectors.every((v) => !("credence" in v.metadata)));
});

test("the decision is in the ledger, attributed to the app", async () => {
  let seen: string | undefined;
  let blocked: string[] = [];
  const retriever = new CredenceRetriever({
    vectorStore: store,
    k: 20,
    client: appClient(),
    context: { actorType: "ai_agent", actorLabel: "handbook-bot" },
    onFiltered: (result) => {
      seen = result.decisionIds[0];
      blocked = result.blocked.map((b) => `${b.sourceId} ${b.decision.reasons.map((r) => r.code).join(",")}`);
    },
  });
  const docs = await retriever.invoke(query);
  const decisionId = trust(docs[0]!)!.decisionId;
  assert.equal(seen, decisionId);
  assert.deepEqual(blocked, ["kb:runbooks/database-failover secrets_present"]);

  const record = await appClient().decision(decisionId);
  assert.equal(record.endpoint, "FilterSources");
  assert.equal(record.appId, world.appId);
  assert.equal(record.actorLabel, "handbook-bot");
  assert.deepEqual(record.counts, { total: 20, allowed: 18, warned: 1, blocked: 1, escalated: 1 });
  assert.deepEqual(record.app, { ...(record.app as object), name: "Handbook assistant", channel: "employee_chat" });

  // And in the tenant's ledger as an administrator reads it.
  const listed = await expectStatus(
    call(world.base, "GET", `/trust-admin/ledger/decisions?appId=${world.appId}&decision=block`, { token: world.adminToken }),
    200,
    "list the ledger",
  );
  const row = listed.decisions.find((d: { decisionId: string }) => d.decisionId === decisionId);
  assert.ok(row, "the decision is listed");
  assert.equal(row.endpoint, "FilterSources");
  assert.equal(row.overallDecision, "block");
});

test("wraps any retriever and composes in a chain", async () => {
  const retriever = new CredenceRetriever({ retriever: store.asRetriever({ k: 20 }), client: appClient() });
  const chain = retriever.pipe((docs: DocumentInterface[]) => docs.map((d) => d.metadata.title as string));
  const titles = await chain.invoke(query);
  assert.equal(titles.length, 19);
  assert.ok(!titles.includes("Database failover runbook"));
});

test("documents without a source id are dropped, or kept unannotated when asked", async () => {
  const mixed = await MemoryVectorStore.fromDocuments(
    [
      new Document({ pageContent: "Expense policy", metadata: { sourceId: "kb:handbook/expenses" } }),
      new Document({ pageContent: "A note nobody registered", metadata: {} }),
      new Document({ pageContent: "Database failover", metadata: { ref: "kb:runbooks/database-failover" } }),
    ],
    new SyntheticEmbeddings({ vectorSize: 16 }),
  );
  const strict = new CredenceRetriever({ vectorStore: mixed, k: 3, client: appClient() });
  assert.deepEqual((await strict.invoke("expenses")).map((d) => d.metadata.sourceId), ["kb:handbook/expenses"]);

  // Kept unidentified documents are unchecked: here even a blocked source, filed under another key.
  const lenient = new CredenceRetriever({ vectorStore: mixed, k: 3, client: appClient(), keepUnidentified: true });
  const kept = await lenient.invoke("expenses");
  assert.equal(kept.length, 3);
  assert.deepEqual(kept.filter((d) => trust(d) === undefined).map((d) => d.pageContent).sort(), ["A note nobody registered", "Database failover"]);

  // The source id may live anywhere the application keeps it.
  const custom = new CredenceRetriever({
    vectorStore: mixed,
    k: 3,
    client: appClient(),
    sourceId: (d) => (d.metadata.sourceId ?? d.metadata.ref) as string | undefined,
  });
  assert.deepEqual((await custom.invoke("expenses")).map((d) => trust(d)?.sourceId), ["kb:handbook/expenses"]);
});

test("Credence unreachable: the retrieval fails rather than answer unchecked documents", async () => {
  const retriever = new CredenceRetriever({
    vectorStore: store,
    k: 20,
    client: createCredenceClient({ baseUrl: "http://127.0.0.1:9", apiKey: world.appKey.clientSecret, retry: false }),
  });
  await assert.rejects(retriever.invoke(query), CredenceNetworkError);
  assert.throws(() => new CredenceRetriever({ client: appClient() }), /needs one of retriever and vectorStore/);
});

test("latency added to a 20-document query", async () => {
  const bare = store.asRetriever({ k: 20 });
  const client = appClient();
  const retriever = new CredenceRetriever({ retriever: bare, client, context: { actorType: "ai_agent" } });
  const ids = handbook.map((d) => d.sourceId);
  const figures = await measureAddedLatency("LangChain.js CredenceRetriever", {
    bare: () => bare.invoke(query),
    wrapped: () => retriever.invoke(query),
    direct: () => client.filterSources(ids, { actorType: "ai_agent" }),
  });
  // A loose bound that still catches a request per document (20 round trips).
  assert.ok(figures.added < 10 * Math.max(1, figures.direct), JSON.stringify(figures));
});
