// The client against a real memwise server: MEMWISE_URL and MEMWISE_ADMIN_TOKEN say which
// (tests/e2e/test_typescript_client.py starts one and runs these with `npm test`).
import assert from "node:assert/strict";
import { before, test } from "node:test";

import { Memwise, MemwiseError } from "../dist/index.js";

const baseUrl = process.env.MEMWISE_URL;
const adminToken = process.env.MEMWISE_ADMIN_TOKEN;
if (!baseUrl || !adminToken) {
  throw new Error("set MEMWISE_URL and MEMWISE_ADMIN_TOKEN to a running memwise server");
}

const admin = new Memwise({ baseUrl, token: adminToken });
let mw;
let first;

before(async () => {
  const workspace = await admin.createWorkspace("Harbour Cycles", { timezone: "Europe/London" });
  assert.ok(workspace.api_key, "a new workspace's key is shown once");
  mw = new Memwise({ baseUrl: baseUrl + "/", token: workspace.api_key });
  first = await mw.remember({
    userId: "crm-7781",
    name: "Ada Brook",
    messages: [
      { role: "customer", text: "Hi, I'm vegetarian and I prefer email, please don't call me." },
      { role: "assistant", text: "Noted, we will write by email." },
    ],
  });
});

test("the server answers", async () => {
  const health = await admin.health();
  assert.equal(health.status, "ok");
});

test("a first memory in one call, found again by the customer's own id", async () => {
  assert.equal(first.status, "applied");
  const texts = (first.items ?? []).map((item) => item.text);
  assert.ok(texts.some((t) => /vegetarian/i.test(t)), `kept: ${JSON.stringify(texts)}`);
  const found = await mw.findContacts({ externalId: "crm-7781" });
  assert.equal(found.length, 1);
  assert.equal(found[0].id, first.contact_id);
  assert.deepEqual(await mw.findContacts({ externalId: "nobody-here" }), []);
});

test("recall shows the customer's memory for a request", async () => {
  const recall = await mw.recall(first.contact_id, "what food should we offer?");
  const lines = [...(recall.profile ?? []), ...(recall.notes ?? [])].map((line) => line.text);
  assert.ok(lines.some((t) => /vegetarian/i.test(t)), `recalled: ${JSON.stringify(lines)}`);
});

test("one memory's life: get, history, edit, delete", async () => {
  const page = await mw.memories({ contactId: first.contact_id });
  const item = page.items.find((i) => /vegetarian/i.test(i.text));
  assert.ok(item);
  const same = await mw.getMemory(item.id);
  assert.equal(same.text, item.text);
  assert.ok(same.evidence && same.evidence.length > 0, "the customer's quote is kept");
  const edited = await mw.editMemory(item.id, { text: "Is vegetarian (no fish either)" });
  assert.equal(edited.text, "Is vegetarian (no fish either)");
  const history = await mw.memoryHistory(item.id);
  assert.ok(history.changes.length >= 2, "created, then edited");
  const deleted = await mw.deleteMemory(item.id);
  assert.ok(deleted);
  await assert.rejects(mw.getMemory(item.id), (error) => {
    assert.ok(error instanceof MemwiseError);
    assert.equal(error.status, 404);
    assert.equal(typeof error.code, "string");
    return true;
  });
});

test("a conversation: turns, end, extraction by the jobs", async () => {
  const conversation = await mw.startConversation({
    channel: "web",
    external_id: "crm-7781",
  });
  assert.equal(conversation.contact_id, first.contact_id);
  const turns = await mw.addTurns(conversation.id, [
    { role: "customer", text: "I live in Leeds now." },
    { role: "assistant", text: "Thanks, we've noted that." },
  ]);
  assert.equal(turns.length, 2);
  assert.equal((await mw.turns(conversation.id)).length, 2);
  const ended = await mw.endConversation(conversation.id);
  assert.equal(ended.status, "ended");
  await mw.runJobs();
  const page = await mw.memories({ contactId: first.contact_id, limit: 50 });
  assert.ok(page.items.some((i) => /Leeds/.test(i.text)), JSON.stringify(page.items));
  const summary = await mw.conversationSummary(conversation.id);
  assert.equal(summary.kind, "summary");
  assert.ok(summary.summary.sentences.some((s) => s.role === "customer"));
  const listed = await mw.summaries(first.contact_id);
  assert.equal(listed[0].conversation_id, conversation.id); // newest first
});

test("call reaches any route, typed by path and method", async () => {
  const workspace = await mw.call("get", "/v1/workspace");
  assert.equal(workspace.name, "Harbour Cycles");
  const contact = await mw.call("get", "/v1/contacts/{contact_id}", {
    params: { contact_id: first.contact_id },
  });
  assert.equal(contact.id, first.contact_id);
});

test("errors carry the server's code and details", async () => {
  await assert.rejects(
    mw.remember({ messages: [{ role: "customer", text: "hello" }] }),
    (error) => error instanceof MemwiseError && error.status === 422,
  );
  const stranger = new Memwise({ baseUrl, token: "not-a-key" });
  await assert.rejects(stranger.workspace(), (error) => {
    assert.ok(error instanceof MemwiseError);
    assert.equal(error.status, 401);
    return true;
  });
  assert.throws(() => new Memwise({ baseUrl: "" }), TypeError);
  await assert.rejects(mw.getMemory(""), TypeError);
});
