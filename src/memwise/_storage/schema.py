"""The one schema. Every table carries ``workspace_id``; no query crosses workspaces."""

from __future__ import annotations

import sqlalchemy as sa

from memwise._storage.types import BigIntPK, JSONType, UTCDateTime

metadata = sa.MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)


def _ws() -> sa.Column[str]:
    return sa.Column(
        "workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), nullable=False, index=True
    )


workspaces = sa.Table(
    "workspaces",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("timezone", sa.String(64), nullable=False),
    sa.Column("plan", sa.String(20), nullable=False),
    sa.Column("monthly_allowance", sa.Integer, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

api_keys = sa.Table(
    "api_keys",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("label", sa.String(200), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("revoked_at", UTCDateTime, nullable=True),
    sa.Column("user_id", sa.String(40), nullable=True),  # the staff user it acts for, if one
)

agents = sa.Table(
    "agents",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("memory_enabled", sa.Boolean, nullable=False, default=False),
    sa.Column("domain", sa.String(64), nullable=True),
    sa.Column("business_intelligence", sa.Boolean, nullable=False, default=False),
    sa.Column("record_policy", sa.String(20), nullable=False),
    sa.Column("window_overrides", JSONType, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    # the customer doors switched on (web, telegram, email, …); null: every door open
    sa.Column("doors", JSONType, nullable=True),
)

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("telegram_id", sa.String(64), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("workspace_id", "telegram_id"),
)

contacts = sa.Table(
    "contacts",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

# The contact store: identities kept apart from knowledge (email, phone, address, account …).
contact_identities = sa.Table(
    "contact_identities",
    metadata,
    sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
    _ws(),
    sa.Column("contact_id", sa.String(40), sa.ForeignKey("contacts.id"), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("value", sa.String(500), nullable=False),
    sa.Column("normalized", sa.String(500), nullable=False),
    sa.Index("ix_contact_identities_lookup", "workspace_id", "kind", "normalized"),
    sa.Index("ix_contact_identities_contact", "contact_id"),
)

conversations = sa.Table(
    "conversations",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("agent_id", sa.String(40), sa.ForeignKey("agents.id"), nullable=False),
    sa.Column("channel", sa.String(20), nullable=False),
    sa.Column("contact_id", sa.String(40), sa.ForeignKey("contacts.id"), nullable=True),
    sa.Column("user_id", sa.String(40), sa.ForeignKey("users.id"), nullable=True),
    sa.Column("account_ref", sa.String(200), nullable=True),
    sa.Column("excluded_from_memory", sa.Boolean, nullable=False, default=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("thread", sa.String(300), nullable=True),
    sa.Column("summary", sa.Text, nullable=True),
    sa.Column("summary_upto_seq", sa.BigInteger, nullable=True),
    sa.Column("window_from_seq", sa.BigInteger, nullable=True),
    sa.Column("pending", JSONType, nullable=True),
    sa.Column("visitor_token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("started_at", UTCDateTime, nullable=False),
    sa.Column("last_activity_at", UTCDateTime, nullable=False),
    sa.Column("ended_at", UTCDateTime, nullable=True),
    # how many of its turns have text, and the newest of them: what record recall's index
    # of the contact was built from (kept up to date by every append)
    sa.Column("said", sa.Integer, nullable=False, server_default="0"),
    sa.Column("said_seq", sa.BigInteger, nullable=True),
    sa.CheckConstraint("(contact_id IS NULL) <> (user_id IS NULL)", name="one_participant"),
    sa.Index("ix_conversations_contact", "contact_id"),
    sa.Index("ix_conversations_thread", "workspace_id", "channel", "thread"),
)

turns = sa.Table(
    "turns",
    metadata,
    sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(40), nullable=False, unique=True),
    _ws(),
    sa.Column("conversation_id", sa.String(40), sa.ForeignKey("conversations.id"), nullable=False),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("channel", sa.String(20), nullable=False),
    sa.Column("text", sa.Text, nullable=True),
    sa.Column("at", UTCDateTime, nullable=False),
    # how many characters that were not text (stray controls, format characters) the turn
    # had removed or replaced when it was taken in; NULL: none
    sa.Column("cleaned", sa.Integer, nullable=True),
    # the turn's vector for record recall, by the embedder that made it (the worker's, once
    # the conversation ends); NULL until then, or when no embedder is configured
    sa.Column("embedder", sa.String(100), nullable=True),
    sa.Column("embedding", sa.LargeBinary, nullable=True),
    # its word pieces' vectors by the same embedder (late interaction), when it gives them:
    # int8 rows with a scale each and the piece ids (memwise._retrieval.late.TokenVectors)
    sa.Column("token_vectors", sa.LargeBinary, nullable=True),
    # the pairs of letters of its text in scripts written without spaces (Chinese, Japanese,
    # Thai …), which the full-text index keeps beside the words; NULL: none
    sa.Column("grams", sa.Text, nullable=True),
    sa.Index("ix_turns_conversation", "conversation_id", "seq"),
)

# an ended conversation's turns as record recall reads them (memwise._retrieval.kept): the
# worker keeps them when it ends, so a contact's first recall joins these instead of reading
# and stemming every turn again; ``upto_seq``: its newest turn then (later ones are read)
kept_turns = sa.Table(
    "kept_turns",
    metadata,
    sa.Column(
        "conversation_id", sa.String(40), sa.ForeignKey("conversations.id"), primary_key=True
    ),
    _ws(),
    sa.Column("format", sa.Integer, nullable=False),
    sa.Column("embedder", sa.String(100), nullable=True),  # whose vectors it holds; NULL: none
    sa.Column("upto_seq", sa.BigInteger, nullable=False),
    sa.Column("turns", sa.Integer, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("made_at", UTCDateTime, nullable=False),
)

audit_log = sa.Table(
    "audit_log",
    metadata,
    sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(40), nullable=False, unique=True),
    _ws(),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Column("actor", sa.String(200), nullable=False),
    sa.Column("tool", sa.String(100), nullable=False),
    sa.Column("args", JSONType, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("result", sa.String(500), nullable=False),
    sa.Column("contact_id", sa.String(40), nullable=True),
    sa.Column("conversation_id", sa.String(40), nullable=True),
    sa.Index("ix_audit_log_ws_seq", "workspace_id", "seq"),
    sa.Index("ix_audit_log_contact", "contact_id"),
)

# The notebook: a staff user's working rules (never per contact, never written by a customer).
notebook_entries = sa.Table(
    "notebook_entries",
    metadata,
    sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(40), nullable=False, unique=True),
    _ws(),
    sa.Column("user_id", sa.String(40), sa.ForeignKey("users.id"), nullable=False),
    sa.Column("text", sa.String(2000), nullable=False),
    sa.Column("normalized", sa.String(2000), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("workspace_id", "user_id", "normalized"),
    sa.Index("ix_notebook_entries_user", "workspace_id", "user_id", "seq"),
)

# Contact memory: short, dated, quote-backed items. Superseded and archived, never silently
# deleted (hard delete only for a data request).
memory_items = sa.Table(
    "memory_items",
    metadata,
    sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(40), nullable=False, unique=True),
    _ws(),
    sa.Column("contact_id", sa.String(40), sa.ForeignKey("contacts.id"), nullable=True),
    sa.Column("conversation_id", sa.String(40), nullable=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("scope", sa.String(20), nullable=False),
    sa.Column("text", sa.String(1000), nullable=False),
    sa.Column("normalized", sa.String(1000), nullable=False),
    sa.Column("key", sa.String(200), nullable=True),
    sa.Column("source", sa.String(20), nullable=False),
    sa.Column("evidence", JSONType, nullable=False),
    sa.Column("entities", JSONType, nullable=False),
    sa.Column("labels", JSONType, nullable=False),
    sa.Column("recorded_at", UTCDateTime, nullable=False),
    sa.Column("last_mentioned_at", UTCDateTime, nullable=False),
    sa.Column("occurs_on", sa.String(40), nullable=True),
    sa.Column("occurs_at", UTCDateTime, nullable=True),
    sa.Column("occurs_phrase", sa.String(200), nullable=True),
    sa.Column("lifecycle", sa.String(20), nullable=False),
    sa.Column("conflicted", sa.Boolean, nullable=False, default=False),
    sa.Column("superseded_by", sa.String(40), nullable=True),
    sa.Column("superseded_at", UTCDateTime, nullable=True),
    sa.Column("superseded_why", sa.String(300), nullable=True),
    sa.Column("archived_at", UTCDateTime, nullable=True),
    sa.Column("edited", sa.Boolean, nullable=False, default=False),
    sa.Column("extractor", sa.String(100), nullable=True),
    sa.Column("prompt_version", sa.String(40), nullable=True),
    sa.Column("embedder", sa.String(100), nullable=True),
    sa.Column("embedding", sa.LargeBinary, nullable=True),
    # raised by every change to the row: a contact's items are cached until one changes
    sa.Column("revision", sa.BigInteger, nullable=False, default=0, server_default="0"),
    sa.Index("ix_memory_items_contact", "workspace_id", "contact_id", "lifecycle"),
    sa.Index("ix_memory_items_version", "workspace_id", "contact_id", "seq", "revision"),
    sa.Index("ix_memory_items_key", "contact_id", "key"),
    sa.Index("ix_memory_items_due", "key", "lifecycle", "occurs_at"),
    sa.Index("ix_memory_items_embedder", "embedder", "seq"),  # the worker's vector sweep
)

# One memory's life: every change to an item (created, superseded, edited, archived), with
# who made it, when and why, and the text before an edit (what the item row no longer holds).
memory_changes = sa.Table(
    "memory_changes",
    metadata,
    sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(40), nullable=False, unique=True),
    _ws(),
    sa.Column("contact_id", sa.String(40), nullable=True),
    sa.Column("item_id", sa.String(40), nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Column("action", sa.String(20), nullable=False),
    sa.Column("actor", sa.String(200), nullable=False),
    sa.Column("why", sa.String(300), nullable=True),
    sa.Column("text", sa.String(1000), nullable=True),
    sa.Column("before", sa.String(1000), nullable=True),
    sa.Column("other_item_id", sa.String(40), nullable=True),
    sa.Index("ix_memory_changes_item", "workspace_id", "item_id", "seq"),
    sa.Index("ix_memory_changes_contact", "workspace_id", "contact_id"),
)

# Durable jobs in the same database: extraction, rebuilds, scheduled work.
jobs = sa.Table(
    "jobs",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("idempotency_key", sa.String(300), nullable=False, unique=True),
    sa.Column("payload", JSONType, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, default=0),
    sa.Column("max_attempts", sa.Integer, nullable=False, default=5),
    sa.Column("run_after", UTCDateTime, nullable=False),
    sa.Column("lease_until", UTCDateTime, nullable=True),
    sa.Column("locked_by", sa.String(100), nullable=True),
    sa.Column("last_error", sa.Text, nullable=True),
    sa.Column("result", JSONType, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("finished_at", UTCDateTime, nullable=True),
    sa.Index("ix_jobs_due", "status", "run_after"),
)

# Metered interactions per workspace and month (one per conversation extracted).
usage = sa.Table(
    "usage",
    metadata,
    sa.Column("workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), primary_key=True),
    sa.Column("month", sa.String(7), primary_key=True),
    sa.Column("interactions", sa.Integer, nullable=False, default=0),
)

# Structured events (booking, order, enquiry …) and their labels, counted into patterns.
events = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("contact_id", sa.String(40), sa.ForeignKey("contacts.id"), nullable=False),
    sa.Column("conversation_id", sa.String(40), nullable=True),
    sa.Column("type", sa.String(60), nullable=False),
    sa.Column("labels", JSONType, nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Column("source", sa.String(20), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Index("ix_events_contact", "workspace_id", "contact_id"),
)

event_labels = sa.Table(
    "event_labels",
    metadata,
    sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
    _ws(),
    sa.Column("event_id", sa.String(40), sa.ForeignKey("events.id"), nullable=False),
    sa.Column("contact_id", sa.String(40), nullable=False),
    sa.Column("conversation_id", sa.String(40), nullable=True),
    sa.Column("event_type", sa.String(60), nullable=False),
    sa.Column("label", sa.String(60), nullable=False),
    sa.Column("value", sa.String(200), nullable=False),
    sa.Index("ix_event_labels_count", "workspace_id", "contact_id", "label", "value"),
)

# Knowledge: the reference layer (versioned documents with exact identifiers) and taught
# lessons, both searched through chunks. Nothing enters it without a person.
knowledge_documents = sa.Table(
    "knowledge_documents",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("doc_key", sa.String(300), nullable=False),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("title", sa.String(300), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("source_url", sa.String(1000), nullable=True),
    sa.Column("version", sa.String(60), nullable=False),
    sa.Column("identifiers", JSONType, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("superseded_by", sa.String(40), nullable=True),
    sa.Column("created_by", sa.String(200), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Index("ix_knowledge_documents_key", "workspace_id", "doc_key", "status"),
)

knowledge_identifiers = sa.Table(
    "knowledge_identifiers",
    metadata,
    sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
    _ws(),
    sa.Column(
        "document_id", sa.String(40), sa.ForeignKey("knowledge_documents.id"), nullable=False
    ),
    sa.Column("identifier", sa.String(200), nullable=False),
    sa.Column("normalized", sa.String(200), nullable=False),
    sa.Index("ix_knowledge_identifiers_lookup", "workspace_id", "normalized"),
)

knowledge_chunks = sa.Table(
    "knowledge_chunks",
    metadata,
    sa.Column("seq", BigIntPK, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(40), nullable=False, unique=True),
    _ws(),
    sa.Column("part", sa.String(20), nullable=False),  # reference | lesson
    sa.Column("owner_id", sa.String(40), nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("title", sa.String(300), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("source_url", sa.String(1000), nullable=True),
    sa.Column("version", sa.String(60), nullable=True),
    sa.Column("current", sa.Boolean, nullable=False),
    sa.Column("embedder", sa.String(100), nullable=True),
    sa.Column("embedding", sa.LargeBinary, nullable=True),
    sa.Column("grams", sa.Text, nullable=True),  # as turns.grams, of the title and the text
    sa.Index("ix_knowledge_chunks_owner", "owner_id"),
    sa.Index("ix_knowledge_chunks_current", "workspace_id", "current"),
    sa.Index("ix_knowledge_chunks_embedder", "current", "embedder", "seq"),  # the vector sweep
)

lessons = sa.Table(
    "lessons",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("lesson_key", sa.String(40), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("question", sa.String(2000), nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),  # draft|published|superseded|withdrawn
    sa.Column("unanswered_id", sa.String(40), nullable=True),
    sa.Column("created_by", sa.String(200), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("approved_by", sa.String(200), nullable=True),
    sa.Column("approved_at", UTCDateTime, nullable=True),
    sa.Column("content_hash", sa.String(64), nullable=True),
    sa.Index("ix_lessons_key", "workspace_id", "lesson_key"),
)

receipts = sa.Table(
    "receipts",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("lesson_id", sa.String(40), sa.ForeignKey("lessons.id"), nullable=False),
    sa.Column("approved_by", sa.String(200), nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Column("action", sa.String(20), nullable=False),  # published | withdrawn
    sa.Column("question", sa.String(2000), nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("unanswered_id", sa.String(40), nullable=True),
    sa.Column("content_hash", sa.String(64), nullable=False),
)

unanswered = sa.Table(
    "unanswered",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("question", sa.String(2000), nullable=False),
    sa.Column("normalized", sa.String(2000), nullable=False),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),  # open | closed
    sa.Column("conversation_id", sa.String(40), nullable=True),
    sa.Column("contact_id", sa.String(40), nullable=True),
    sa.Column("first_asked_at", UTCDateTime, nullable=False),
    sa.Column("last_asked_at", UTCDateTime, nullable=False),
    sa.Column("lesson_id", sa.String(40), nullable=True),
    sa.Index("ix_unanswered_open", "workspace_id", "status"),
)

tickets = sa.Table(
    "tickets",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("contact_id", sa.String(40), nullable=True),
    sa.Column("conversation_id", sa.String(40), nullable=True),
    sa.Column("unanswered_id", sa.String(40), nullable=True),
    sa.Column("subject", sa.String(300), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("status", sa.String(20), nullable=False),  # pending | accepted | failed
    sa.Column("adapter", sa.String(40), nullable=False),
    sa.Column("external_ref", sa.String(200), nullable=True),
    sa.Column("error", sa.String(500), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
    sa.Index("ix_tickets_contact", "contact_id"),
)

# The workspace's adapter to its system of record (orders, invoices …): configuration only.
account_sources = sa.Table(
    "account_sources",
    metadata,
    sa.Column("workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), primary_key=True),
    sa.Column("type", sa.String(20), nullable=False),
    sa.Column("config", JSONType, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

# The learning loop: a redacted question book, frozen test sets, evaluation runs.
question_book = sa.Table(
    "question_book",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("question", sa.String(2000), nullable=False),
    sa.Column("normalized", sa.String(2000), nullable=False),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("sources", JSONType, nullable=False),  # {"tickets": n, "calls": n, "unanswered": n}
    sa.Column("refs", JSONType, nullable=False),
    sa.Column("first_seen", UTCDateTime, nullable=False),
    sa.Column("last_seen", UTCDateTime, nullable=False),
)

folded = sa.Table(
    "folded",
    metadata,
    sa.Column("workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), primary_key=True),
    sa.Column("ref", sa.String(100), primary_key=True),
)

test_sets = sa.Table(
    "test_sets",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_by", sa.String(200), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.UniqueConstraint("workspace_id", "name", "version"),
)

test_set_items = sa.Table(
    "test_set_items",
    metadata,
    sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
    sa.Column("set_id", sa.String(40), sa.ForeignKey("test_sets.id"), nullable=False, index=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("question", sa.String(2000), nullable=False),
    sa.Column("expected_text", sa.Text, nullable=True),
    sa.Column("expected_source_id", sa.String(40), nullable=True),
)

eval_runs = sa.Table(
    "eval_runs",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("set_id", sa.String(40), sa.ForeignKey("test_sets.id"), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("summary", JSONType, nullable=False),
    sa.Column("results", JSONType, nullable=False),
)

# Inbound webhooks (email, SMS, voice): the shared secret each workspace signs with.
webhook_secrets = sa.Table(
    "webhook_secrets",
    metadata,
    sa.Column("workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), primary_key=True),
    sa.Column("secret", sa.String(200), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

# An inbound webhook already received: replays inside the dedupe window are refused.
webhook_deliveries = sa.Table(
    "webhook_deliveries",
    metadata,
    sa.Column("id", BigIntPK, primary_key=True, autoincrement=True),
    _ws(),
    sa.Column("delivery_key", sa.String(200), nullable=False),
    sa.Column("received_at", UTCDateTime, nullable=False, index=True),
    sa.UniqueConstraint("workspace_id", "delivery_key"),
)

# A console login: the cookie holds a random token; only its hash is stored here.
console_sessions = sa.Table(
    "console_sessions",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("key_id", sa.String(40), sa.ForeignKey("api_keys.id"), nullable=False, index=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("last_seen_at", UTCDateTime, nullable=False),
    sa.Column("expires_at", UTCDateTime, nullable=False),
    sa.Column("revoked_at", UTCDateTime, nullable=True),
)

# Who approved (or rejected) which version of a reference document: the teaching step's mark.
document_receipts = sa.Table(
    "document_receipts",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column(
        "document_id",
        sa.String(40),
        sa.ForeignKey("knowledge_documents.id"),
        nullable=False,
        index=True,
    ),
    sa.Column("approved_by", sa.String(200), nullable=False),
    sa.Column("at", UTCDateTime, nullable=False),
    sa.Column("action", sa.String(20), nullable=False),  # published | rejected
    sa.Column("title", sa.String(300), nullable=False),
    sa.Column("version", sa.String(60), nullable=False),
    sa.Column("content_hash", sa.String(64), nullable=False),
)

# Where a workspace's events go: signed webhooks, delivered by the worker as jobs.
event_endpoints = sa.Table(
    "event_endpoints",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("url", sa.String(1000), nullable=False),
    sa.Column("secret", sa.String(200), nullable=False),
    sa.Column("events", JSONType, nullable=False),
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

# Where a workspace's tickets go (a helpdesk's webhook); none: kept in memwise.
ticket_adapters = sa.Table(
    "ticket_adapters",
    metadata,
    sa.Column("workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), primary_key=True),
    sa.Column("url", sa.String(1000), nullable=False),
    sa.Column("headers", JSONType, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

# Written rules, versioned: an agent's persona and rules (scope = the agent's id) or the
# workspace's team standards (scope "workspace"). The newest served version is the one the
# context shows; older ones stay, each with who proposed and approved it and the diff.
rule_versions = sa.Table(
    "rule_versions",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    _ws(),
    sa.Column("scope", sa.String(40), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # draft|served|superseded|rejected
    sa.Column("persona", JSONType, nullable=True),
    sa.Column("rules", JSONType, nullable=False),
    sa.Column("note", sa.String(500), nullable=True),
    sa.Column("diff", sa.Text, nullable=False),
    sa.Column("proposed_by", sa.String(200), nullable=False),
    sa.Column("proposed_at", UTCDateTime, nullable=False),
    sa.Column("decided_by", sa.String(200), nullable=True),
    sa.Column("decided_at", UTCDateTime, nullable=True),
    sa.UniqueConstraint("workspace_id", "scope", "version"),
)

# The setup builder's own state: what the business intends (a plan, channels), which agent
# it is setting up and its preview conversation; everything else is read from the parts.
setups = sa.Table(
    "setups",
    metadata,
    sa.Column("workspace_id", sa.String(40), sa.ForeignKey("workspaces.id"), primary_key=True),
    sa.Column("agent_id", sa.String(40), sa.ForeignKey("agents.id"), nullable=True),
    sa.Column("plan_requested", sa.String(20), nullable=True),
    sa.Column("channels", JSONType, nullable=False),
    sa.Column("preview_contact_id", sa.String(40), nullable=True),
    sa.Column("preview_conversation_id", sa.String(40), nullable=True),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)

# Token buckets every server process shares (PostgreSQL): requests per key, failed logins per
# address and per key prefix. ``at`` is Unix time; ``allowed`` the outcome of the last take.
rate_buckets = sa.Table(
    "rate_buckets",
    metadata,
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("allowed", sa.Boolean, nullable=False),
)
