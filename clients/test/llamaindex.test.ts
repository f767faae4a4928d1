// @credence/llamaindex against a real server (ctest clients_llamaindex), over
// LlamaIndex's own in-memory vector store (SimpleVectorStore behind a
// VectorStoreIndex) with hashed word embeddings (no model).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BaseEmbedding } from "@llamaindex/core/embeddings";
import { MockLLM } from "@llamaindex/core/llms/mock";
import { MetadataMode, type NodeWithScore } from "@llamaindex/core/schema";
import { Document, Settings, VectorStoreIndex } from "llamaindex";
import { CredenceNetworkError, createCredenceClient, type CredenceClient, type TrustAnnotation } from "@credence/client";
import { CredenceNodePostprocessor } from "@credence/llamaindex";
import { call, disclaimer, expectStatus, handbook, measureAddedLatency, recordingFetch, startWorld, type World } from "./support/world.js";

/** Fake embeddings: each word hashed into one of 64 dimensions. */
class HashedWordEmbedding extends BaseEmbedding {
  constructor() {
    super();
  }

  override async getTextEmbedding(text: string): Promise<number[]> {
    const vector = new Array<number>(64).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let hash = 0;
      for (const c of word) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
      vector[hash % 64]! += 1;
    }
    return vector;
  }
}

let world: World;
let index: VectorStoreIndex;

before(async () => {
  world = await startWorld();
  Settings.embedModel = new HashedWordEmbedding();
  Settings.llm = new MockLLM();
  index = await VectorStoreIndex.fromDocuments(
    handbook.map((d) => new Document({ text: `${d.title}\n${d.content}`, metadata: { sourceId: d.sourceId, title: d.title } })),
  );
});

after(async () => {
  await world?.stop();
});

const query = "How do I fail over the database?";
const trust = (n: NodeWithScore) => n.node.metadata.credence as TrustAnnotation | undefined;

function appClient(fetch?: ReturnType<typeof recordingFetch>["fetch"]): CredenceClient {
  return createCredenceClient({ baseUrl: world.base, apiKey: world.appKey.clientSecret, ...(fetch && { fetch }) });
}

test("a blocked node is removed, a warned one annotated, each carries the decision id; one request per call", async () => {
  const recorder = recordingFetch();
  const postprocessor = new CredenceNodePostprocessor({
    client: appClient(recorder.fetch),
    context: { actorType: "ai_agent", actorLabel: "handbook-bot" },
  });
  const candidates = await index.asRetriever({ similarityTopK: 20 }).retrieve({ query });
  assert.equal(candidates.length, 20);
  assert.ok(candidates.some((n) => n.node.metadata.sourceId === "kb:runbooks/database-failover"), "the runbook was retrieved");

  const nodes = await postprocessor.postprocessNodes(candidates, query);
  assert.deepEqual(recorder.exchanges.map((e) => `${e.method} ${e.path}`), ["POST /api/trust/filter-sources"]);
  assert.equal(nodes.length, 19);
  assert.ok(!nodes.some((n) => n.node.metadata.sourceId === "kb:runbooks/database-failover"));
  assert.deepEqual(
    nodes.map((n) => [n.node.id_, n.score]),
    candidates.filter((n) => n.node.metadata.sourceId !== "kb:runbooks/database-failover").map((n) => [n.node.id_, n.score]),
    "the same nodes, scores and order",
  );
  assert.equal(new Set(nodes.map((n) => trust(n)?.decisionId)).size, 1);

  const warned = nodes.filter((n) => trust(n)?.decision === "warn");
  assert.equal(warned.length, 1);
  const faq = trust(warned[0]!)!;
  assert.equal(faq.sourceId, "https://wiki.example.com/pricing-faq");
  assert.deepEqual(faq.reasons.map((r) => r.code), ["connected_never_reviewed"]);
  assert.deepEqual(faq.requirements, { citationRequired: true, disclaimerRequired: true, disclaimerText: disclaimer });
  // The annotation stays out of what the LLM reads; the index's own nodes are untouched.
  assert.ok(!warned[0]!.node.getContent(MetadataMode.LLM).includes("connected_never_reviewed"));
  assert.ok(candidates.every((n) => !("credence" in n.node.metadata)));
});

test("in a query engine: the answer is built from the nodes Credence allows; the decision is in the ledger", async () => {
  let decisionId: string | undefined;
  const engine = index.asQueryEngine({
    similarityTopK: 20,
    nodePostprocessors: [
      new CredenceNodePostprocessor({
        client: appClient(),
        context: { actorType: "ai_agent", actorLabel: "handbook-engine" },
        onFiltered: (result) => (decisionId = result.decisionIds[0]),
      }),
    ],
  });
  const response = await engine.query({ query });
  const used = response.sourceNodes ?? [];
  assert.equal(used.length, 19);
  assert.ok(!used.some((n) => n.node.metadata.sourceId === "kb:runbooks/database-failover"));
  assert.ok(used.every((n) => trust(n)?.decisionId === decisionId));

  const record = await appClient().decision(decisionId!);
  assert.equal(record.endpoint, "FilterSources");
  assert.equal(record.appId, world.appId);
  assert.equal(record.actorLabel, "handbook-engine");
  assert.deepEqual(record.counts, { total: 20, allowed: 18, warned: 1, blocked: 1, escalated: 1 });
  const listed = await expectStatus(
    call(world.base, "GET", `/trust-admin/ledger/decisions?appId=${world.appId}`, { token: world.adminToken }),
    200,
    "list the ledger",
  );
  assert.ok(listed.decisions.some((d: { decisionId: string }) => d.decisionId === decisionId));
});

test("nodes without a source id are dropped unless kept on purpose; no server, no nodes", async () => {
  const [first] = await index.asRetriever({ similarityTopK: 1 }).retrieve({ query: "expenses receipts" });
  const loose = { ...first!, node: first!.node.clone() };
  loose.node.metadata = {};
  const strict = new CredenceNodePostprocessor({ client: appClient() });
  assert.deepEqual(await strict.postprocessNodes([loose]), []);
  const lenient = new CredenceNodePostprocessor({ client: appClient(), keepUnidentified: true });
  assert.deepEqual(await lenient.postprocessNodes([loose]), [loose]);

  const offline = new CredenceNodePostprocessor({
    client: createCredenceClient({ baseUrl: "http://127.0.0.1:9", apiKey: world.appKey.clientSecret, retry: false }),
  });
  await assert.rejects(offline.postprocessNodes([first!]), CredenceNetworkError);
});

test("latency added to a 20-node query", async () => {
  const retriever = index.asRetriever({ similarityTopK: 20 });
  const client = appClient();
  const postprocessor = new CredenceNodePostprocessor({ client, context: { actorType: "ai_agent" } });
  const ids = handbook.map((d) => d.sourceId);
  const figures = await measureAddedLatency("LlamaIndex.TS CredenceNodePostprocessor", {
    bare: () => retriever.retrieve({ query }),
    wrapped: async () => postprocessor.postprocessNodes(await retriever.retrieve({ query }), query),
    direct: () => client.filterSources(ids, { actorType: "ai_agent" }),
  });
  assert.ok(figures.added < 10 * Math.max(1, figures.direct), JSON.stringify(figures));
});
