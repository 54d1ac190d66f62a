/**
 * A TypeScript client for the memwise HTTP API.
 *
 *     import { Memwise } from "@memwise/client";
 *
 *     const mw = new Memwise({ baseUrl: "http://127.0.0.1:8080", token: apiKey });
 *     await mw.remember({ userId: "crm-42", messages: [{ role: "customer", text: "I moved to Leeds." }] });
 *     const recall = await mw.recall(contactId, "where does she live?");
 *
 * Every type comes from the server's OpenAPI document (src/schema.ts, generated); the
 * methods below are written by hand where a name reads better than a path. `call` reaches
 * every route of the document, typed by its path and method. An error answer throws a
 * MemwiseError with the server's `code`, `message` and `details`.
 */
import type { components, paths } from "./schema.js";

export type { components, paths };
export type Schemas = components["schemas"];

export type Agent = Schemas["Agent"];
export type ApiKey = Schemas["ApiKey"];
export type ChatReply = Schemas["ChatReply"];
export type Contact = Schemas["Contact"];
export type ContextAnswer = Schemas["ContextAnswer"];
export type Conversation = Schemas["Conversation"];
export type Deleted = Schemas["Deleted"];
export type Document = Schemas["Document"];
export type DocumentReceipt = Schemas["DocumentReceipt"];
export type Export = Schemas["Export"];
export type Health = Schemas["Health"];
export type HistoryHit = Schemas["HistoryHit"];
export type JobRun = Schemas["JobRun"];
export type KnowledgeSearch = Schemas["KnowledgeSearch"];
export type Lesson = Schemas["Lesson"];
export type MemoryDeleted = Schemas["MemoryDeleted"];
export type MemoryHistory = Schemas["MemoryHistory"];
export type MemoryItem = Schemas["MemoryItem"];
export type MemoryPatch = Schemas["MemoryPatch"];
export type Patterns = Schemas["Patterns"];
export type Recall = Schemas["Recall"];
export type RecordHit = Schemas["RecordHit"];
export type Remembered = Schemas["Remembered"];
export type RememberMessage = Schemas["RememberMessage"];
export type Turn = Schemas["Turn"];
export type Unanswered = Schemas["Unanswered"];
export type Workspace = Schemas["Workspace"];
export type Written = Schemas["Written"];

/** A page of results: `items`, and where there are more, the cursor for the next page. */
export type Page<T> = { items: T[]; next_cursor?: unknown; [key: string]: unknown };

export type Method = "get" | "post" | "put" | "patch" | "delete";

type Json<C> = C extends { content: { "application/json": infer T } } ? T : never;
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Success<O> = O extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer B }
      ? Json<B>
      : unknown
  : unknown;
type BodyOf<O> = O extends { requestBody: infer B } ? Json<NonNullable<B>> : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The routes that answer `method`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends undefined | never ? never : P;
}[keyof paths];

/** What `call` takes: the path's `{names}`, the query and the JSON body, each typed. */
export interface CallOptions<O> {
  params?: Record<string, string>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
}

/** The server answered with an error (`{"error": {code, message, details}}`). */
export class MemwiseError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(`${status} ${code}: ${message}`);
    this.name = "MemwiseError";
    this.status = status;
    this.code = code;
    this.details = details ?? {};
  }
}

export interface MemwiseOptions {
  /** Where the server listens, e.g. "http://127.0.0.1:8080". */
  baseUrl: string;
  /** A workspace API key, a visitor token or the admin token. */
  token?: string;
  /** Abort a request after this many milliseconds (default 30 000). */
  timeoutMs?: number;
  /** A fetch of your own (tests, proxies); the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** Who the customer is, for `remember`: a contact id, or your own id, an email or a phone. */
export interface Customer {
  contactId?: string;
  /** Your own id for the customer (a CRM id, Mem0's user_id): found or made. */
  userId?: string;
  email?: string;
  phone?: string;
  /** A new contact's name. */
  name?: string;
}

export interface RememberOptions extends Customer {
  messages: RememberMessage[];
  agentId?: string;
  channel?: Schemas["RememberIn"]["channel"];
}

export interface MemoriesFilter {
  contactId?: string;
  kind?: string;
  trust?: string;
  /** A key, or a key prefix ending in "." ("allergy."). */
  key?: string;
  since?: string;
  until?: string;
  include?: string[];
  limit?: number;
  cursor?: string;
}

export type TurnRole = Schemas["TurnIn"]["role"];

/** Drops the fields left undefined, so the server applies its own defaults. */
function given<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) out[key] = value;
  }
  return out as Partial<T>;
}

function customer(who: Customer): Record<string, unknown> {
  return given({
    contact_id: who.contactId,
    user_id: who.userId,
    email: who.email,
    phone: who.phone,
    name: who.name,
  });
}

export class Memwise {
  private readonly baseUrl: string;
  private readonly token?: string;
  private readonly timeoutMs: number;
  private readonly fetcher: typeof fetch;

  constructor(options: MemwiseOptions) {
    if (!options.baseUrl) throw new TypeError("baseUrl is required");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetcher = options.fetch ?? globalThis.fetch;
    if (typeof this.fetcher !== "function") {
      throw new TypeError("no fetch: pass options.fetch (Node 18 and later have one)");
    }
  }

  /** Any route of the OpenAPI document, typed by its path and method. */
  async call<M extends Method, P extends PathsWith<M>>(
    method: M,
    path: P,
    options: CallOptions<Operation<P, M>> = {},
  ): Promise<Success<Operation<P, M>>> {
    const filled = String(path).replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = options.params?.[name];
      if (value === undefined || value === "") throw new TypeError(`missing path value: ${name}`);
      return encodeURIComponent(value);
    });
    const url = new URL(this.baseUrl + filled);
    for (const [key, value] of Object.entries((options.query ?? {}) as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(key, Array.isArray(value) ? value.join(",") : String(value));
    }
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await this.fetcher(url, {
      method: method.toUpperCase(),
      headers,
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw failure(response.status, text);
    return (text ? JSON.parse(text) : null) as Success<Operation<P, M>>;
  }

  // --- the server and the workspace ---------------------------------------------------

  health(): Promise<Health> {
    return this.call("get", "/v1/health");
  }

  /** A new workspace (admin token): its API key is in the answer, shown once. */
  createWorkspace(name: string, options: { timezone?: string } = {}): Promise<Workspace> {
    return this.call("post", "/v1/workspaces", { body: given({ name, ...options }) as never });
  }

  workspace(): Promise<Workspace> {
    return this.call("get", "/v1/workspace");
  }

  createAgent(body: Schemas["AgentIn"]): Promise<Agent> {
    return this.call("post", "/v1/agents", { body });
  }

  getAgent(agentId: string): Promise<Agent> {
    return this.call("get", "/v1/agents/{agent_id}", { params: { agent_id: agentId } });
  }

  updateAgent(agentId: string, changes: Schemas["AgentPatch"]): Promise<Agent> {
    return this.call("patch", "/v1/agents/{agent_id}", {
      params: { agent_id: agentId },
      body: changes,
    });
  }

  createApiKey(body: Schemas["ApiKeyIn"]): Promise<ApiKey> {
    return this.call("post", "/v1/api-keys", { body });
  }

  // --- contacts -------------------------------------------------------------------------

  createContact(body: Schemas["ContactIn"]): Promise<Contact> {
    return this.call("post", "/v1/contacts", { body });
  }

  getContact(contactId: string): Promise<Contact> {
    return this.call("get", "/v1/contacts/{contact_id}", { params: { contact_id: contactId } });
  }

  /** Contacts by your own id, email, phone, or a name search. */
  async findContacts(by: {
    externalId?: string;
    email?: string;
    phone?: string;
    q?: string;
    limit?: number;
  }): Promise<Contact[]> {
    const query = given({
      external_id: by.externalId,
      email: by.email,
      phone: by.phone,
      q: by.q,
      limit: by.limit,
    });
    const page = await this.call("get", "/v1/contacts", { query });
    return page.items;
  }

  exportContact(contactId: string): Promise<Export> {
    return this.call("get", "/v1/contacts/{contact_id}/export", {
      params: { contact_id: contactId },
    });
  }

  /** Erase a contact and everything memwise holds about them (admins; audited). */
  deleteContact(contactId: string): Promise<Deleted> {
    return this.call("delete", "/v1/contacts/{contact_id}", {
      params: { contact_id: contactId },
    });
  }

  // --- contact memory -------------------------------------------------------------------

  /**
   * Record messages as one conversation, end it and extract now: the items it kept. The
   * customer is `contactId`, or found or made by `userId`, `email` or `phone`.
   */
  remember(options: RememberOptions): Promise<Remembered> {
    const body = {
      ...customer(options),
      messages: options.messages,
      ...given({ agent_id: options.agentId, channel: options.channel }),
    };
    return this.call("post", "/v1/memories", { body: body as Schemas["RememberIn"] });
  }

  /** The workspace's memory items, newest first, filtered. */
  memories(filter: MemoriesFilter = {}): Promise<Page<MemoryItem>> {
    const query = given({
      contact_id: filter.contactId,
      kind: filter.kind,
      trust: filter.trust,
      key: filter.key,
      since: filter.since,
      until: filter.until,
      include: filter.include?.join(","),
      limit: filter.limit,
      cursor: filter.cursor,
    });
    return this.call("get", "/v1/memories", { query });
  }

  /** The contact's session summaries, newest conversation first. */
  async summaries(contactId: string): Promise<MemoryItem[]> {
    const page = await this.call("get", "/v1/contacts/{contact_id}/summaries", {
      params: { contact_id: contactId },
    });
    return page.items;
  }

  /** One conversation's session summary: what was wanted, decided and left open. */
  conversationSummary(conversationId: string): Promise<MemoryItem> {
    return this.call("get", "/v1/conversations/{conversation_id}/summary", {
      params: { conversation_id: conversationId },
    });
  }

  getMemory(itemId: string): Promise<MemoryItem> {
    return this.call("get", "/v1/memories/{item_id}", { params: { item_id: itemId } });
  }

  /** One memory's life: its versions and every change, with who, when and why. */
  memoryHistory(itemId: string): Promise<MemoryHistory> {
    return this.call("get", "/v1/memories/{item_id}/history", { params: { item_id: itemId } });
  }

  editMemory(itemId: string, changes: MemoryPatch): Promise<MemoryItem> {
    return this.call("patch", "/v1/memories/{item_id}", {
      params: { item_id: itemId },
      body: changes,
    });
  }

  archiveMemory(itemId: string): Promise<MemoryItem> {
    return this.call("post", "/v1/memories/{item_id}/archive", { params: { item_id: itemId } });
  }

  /** Erase one item, its quotes and its history (admins; audited). */
  deleteMemory(itemId: string): Promise<MemoryDeleted> {
    return this.call("delete", "/v1/memories/{item_id}", { params: { item_id: itemId } });
  }

  /** The contact's memory that bears on `request`, as the assistant would be shown it. */
  recall(contactId: string, request: string, options: { limit?: number } = {}): Promise<Recall> {
    return this.call("post", "/v1/contacts/{contact_id}/recall", {
      params: { contact_id: contactId },
      body: given({ request, limit: options.limit }) as Schemas["RecallIn"],
    });
  }

  /** The contact's past turns that best answer `question`, both sides of every conversation. */
  async recallRecord(
    contactId: string,
    question: string,
    options: { limit?: number; askedBy?: "staff" | "assistant" } = {},
  ): Promise<HistoryHit[]> {
    const page = await this.call("get", "/v1/contacts/{contact_id}/history", {
      params: { contact_id: contactId },
      query: given({ q: question, k: options.limit, asked_by: options.askedBy }) as never,
    });
    return page.items;
  }

  patterns(contactId: string): Promise<Patterns> {
    return this.call("get", "/v1/contacts/{contact_id}/patterns", {
      params: { contact_id: contactId },
    });
  }

  // --- conversations --------------------------------------------------------------------

  startConversation(body: Schemas["ConversationIn"]): Promise<Conversation> {
    return this.call("post", "/v1/conversations", { body });
  }

  getConversation(conversationId: string): Promise<Conversation> {
    return this.call("get", "/v1/conversations/{conversation_id}", {
      params: { conversation_id: conversationId },
    });
  }

  addTurn(conversationId: string, role: TurnRole, text: string, at?: string): Promise<Turn> {
    return this.call("post", "/v1/conversations/{conversation_id}/turns", {
      params: { conversation_id: conversationId },
      body: given({ role, text, at }) as Schemas["TurnIn"],
    });
  }

  /** Several turns at once: all of them or none. */
  async addTurns(
    conversationId: string,
    turns: { role: TurnRole; text: string; at?: string }[],
  ): Promise<Turn[]> {
    const page = await this.call("post", "/v1/conversations/{conversation_id}/turns/batch", {
      params: { conversation_id: conversationId },
      body: { turns: turns.map((t) => given(t)) } as Schemas["TurnsIn"],
    });
    return page.items;
  }

  async turns(conversationId: string, options: { limit?: number } = {}): Promise<Turn[]> {
    const page = await this.call("get", "/v1/conversations/{conversation_id}/turns", {
      params: { conversation_id: conversationId },
      query: given({ limit: options.limit }),
    });
    return page.items;
  }

  /** End a conversation: its memory is extracted by the worker (or `runJobs`). */
  endConversation(conversationId: string): Promise<Conversation> {
    return this.call("post", "/v1/conversations/{conversation_id}/end", {
      params: { conversation_id: conversationId },
    });
  }

  /** What the assistant is shown for `request` in this conversation. */
  context(conversationId: string, request: string): Promise<ContextAnswer> {
    return this.call("post", "/v1/context", {
      body: { conversation_id: conversationId, request } as Schemas["ContextIn"],
    });
  }

  chat(conversationId: string, text: string): Promise<ChatReply> {
    return this.call("post", "/v1/chat", {
      body: { conversation_id: conversationId, text } as Schemas["ChatIn"],
    });
  }

  async searchRecord(q: string, options: { limit?: number } = {}): Promise<RecordHit[]> {
    const page = await this.call("get", "/v1/record/search", {
      query: { q, ...given({ limit: options.limit }) },
    });
    return page.items;
  }

  /** Run the due background jobs now (extraction after a conversation ends, say). */
  runJobs(): Promise<JobRun> {
    return this.call("post", "/v1/jobs/run");
  }

  // --- knowledge ------------------------------------------------------------------------

  addDocument(body: Schemas["DocumentIn"]): Promise<Document> {
    return this.call("post", "/v1/knowledge/documents", { body });
  }

  approveDocument(documentId: string): Promise<DocumentReceipt> {
    return this.call("post", "/v1/knowledge/documents/{document_id}/approve", {
      params: { document_id: documentId },
    });
  }

  searchKnowledge(q: string, options: { limit?: number } = {}): Promise<KnowledgeSearch> {
    return this.call("get", "/v1/knowledge/search", { query: { q, ...given({ limit: options.limit }) } });
  }

  async unanswered(): Promise<Unanswered[]> {
    return (await this.call("get", "/v1/unanswered")).items;
  }

  draftLesson(question: string, answer: string, unansweredId?: string): Promise<Lesson> {
    return this.call("post", "/v1/lessons", {
      body: given({ question, answer, unanswered_id: unansweredId }) as Schemas["LessonIn"],
    });
  }

  approveLesson(lessonId: string): Promise<Lesson> {
    return this.call("post", "/v1/lessons/{lesson_id}/approve", {
      params: { lesson_id: lessonId },
    });
  }
}

function failure(status: number, text: string): MemwiseError {
  try {
    const error = JSON.parse(text).error;
    if (error && typeof error.code === "string") {
      return new MemwiseError(status, error.code, String(error.message), error.details ?? {});
    }
  } catch {
    // not the API's error shape (a proxy, say): fall through
  }
  return new MemwiseError(status, "http_error", text.slice(0, 300));
}
