// Generated from docs/openapi.json by scripts/generate.mjs (openapi-typescript): do not edit.
// openapi sha256: ece1084e70a7b3708251148c4da538d1ed9a5a24d6f114cc23fd3e929ca2d0b1

export interface paths {
    "/v1/account-source": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Source */
        get: operations["get_source_v1_account_source_get"];
        /** Put Source */
        put: operations["put_source_v1_account_source_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lookup
         * @description A lookup for the conversation's bound account (visitors: their own conversation).
         */
        post: operations["lookup_v1_accounts_lookup_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create Agent */
        post: operations["create_agent_v1_agents_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Agent */
        get: operations["get_agent_v1_agents__agent_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update Agent */
        patch: operations["update_agent_v1_agents__agent_id__patch"];
        trace?: never;
    };
    "/v1/agents/{agent_id}/doors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Doors
         * @description Each customer door: on or off, intended or not, and what it needs.
         */
        get: operations["doors_v1_agents__agent_id__doors_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/doors/{door}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Switch Door */
        put: operations["switch_door_v1_agents__agent_id__doors__door__put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Agent Rules
         * @description Every version of the agent's persona and rules, newest first.
         */
        get: operations["agent_rules_v1_agents__agent_id__rules_get"];
        put?: never;
        /** Propose Agent Rules */
        post: operations["propose_agent_rules_v1_agents__agent_id__rules_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/rules/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rollback Agent Rules */
        post: operations["rollback_agent_rules_v1_agents__agent_id__rules_rollback_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Api Keys
         * @description The workspace's keys: id, role, label, created and revoked times (never the secret).
         */
        get: operations["list_api_keys_v1_api_keys_get"];
        put?: never;
        /** Create Api Key */
        post: operations["create_api_key_v1_api_keys_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke Api Key */
        delete: operations["revoke_api_key_v1_api_keys__key_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate Api Key */
        post: operations["rotate_api_key_v1_api_keys__key_id__rotate_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit */
        get: operations["audit_v1_audit_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Chat */
        post: operations["chat_v1_chat_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find Contacts
         * @description Contacts by an id of yours, a verified email or phone, or a part of the name.
         */
        get: operations["find_contacts_v1_contacts_get"];
        put?: never;
        /** Create Contact */
        post: operations["create_contact_v1_contacts_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Contact */
        get: operations["get_contact_v1_contacts__contact_id__get"];
        put?: never;
        post?: never;
        /** Delete */
        delete: operations["delete_v1_contacts__contact_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export */
        get: operations["export_v1_contacts__contact_id__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * History
         * @description The contact's earlier turns that best answer ``q`` (recall over the record).
         */
        get: operations["history_v1_contacts__contact_id__history_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/memory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Items */
        get: operations["items_v1_contacts__contact_id__memory_get"];
        put?: never;
        /**
         * Add Note
         * @description An operator's own note or fact about the contact (source: operator).
         */
        post: operations["add_note_v1_contacts__contact_id__memory_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/memory/relations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Relations */
        get: operations["relations_v1_contacts__contact_id__memory_relations_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/patterns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Patterns */
        get: operations["patterns_v1_contacts__contact_id__patterns_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/rebuild": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rebuild Progress */
        get: operations["rebuild_progress_v1_contacts__contact_id__rebuild_get"];
        put?: never;
        /** Rebuild */
        post: operations["rebuild_v1_contacts__contact_id__rebuild_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/recall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Recall */
        post: operations["recall_v1_contacts__contact_id__recall_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}/summaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Summaries
         * @description The contact's session summaries, newest conversation first: what each conversation
         *     wanted, decided and left open, every sentence with the turn it came from.
         */
        get: operations["summaries_v1_contacts__contact_id__summaries_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Context */
        post: operations["context_v1_context_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Listing */
        get: operations["listing_v1_conversations_get"];
        put?: never;
        /** Start */
        post: operations["start_v1_conversations_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get */
        get: operations["get_v1_conversations__conversation_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversation_id}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End */
        post: operations["end_v1_conversations__conversation_id__end_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversation_id}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reset */
        post: operations["reset_v1_conversations__conversation_id__reset_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversation_id}/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversation Summary
         * @description One conversation's session summary (404 ``no_summary`` until it is extracted, or
         *     when nothing in it could be grounded).
         */
        get: operations["conversation_summary_v1_conversations__conversation_id__summary_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversation_id}/turns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Turns */
        get: operations["turns_v1_conversations__conversation_id__turns_get"];
        put?: never;
        /** Append */
        post: operations["append_v1_conversations__conversation_id__turns_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversation_id}/turns/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Append Batch
         * @description Up to 500 turns in one transaction, in order (the same rules as one turn each).
         */
        post: operations["append_batch_v1_conversations__conversation_id__turns_batch_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversation_id}/window": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Window View */
        get: operations["window_view_v1_conversations__conversation_id__window_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliveries
         * @description The delivery log, newest first: status, attempts and the last error of each.
         */
        get: operations["deliveries_v1_event_deliveries_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Endpoints */
        get: operations["endpoints_v1_event_endpoints_get"];
        put?: never;
        /**
         * Add Endpoint
         * @description Subscribe a URL to events (every type, or ``events``); the signing secret, shown once.
         */
        post: operations["add_endpoint_v1_event_endpoints_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-endpoints/{endpoint_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove Endpoint */
        delete: operations["remove_endpoint_v1_event_endpoints__endpoint_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Event
         * @description A structured event from the host application (a booking system, a shop).
         */
        post: operations["post_event_v1_events_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health
         * @description Liveness and what needs attention: the database, the worker, the model.
         */
        get: operations["health_v1_health_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/identify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Identify */
        post: operations["identify_v1_identify_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Jobs */
        get: operations["list_jobs_v1_jobs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run Jobs
         * @description Run now, until none is left, the caller's workspace's queued and scheduled jobs,
         *     then wait (at most ``WAIT_S`` seconds) for those another worker was already running, so
         *     what the caller reads next includes them; the server admin token runs every
         *     workspace's queue.
         */
        post: operations["run_jobs_v1_jobs_run_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Documents */
        get: operations["documents_v1_knowledge_documents_get"];
        put?: never;
        /**
         * Add Document
         * @description An operator's document is a draft until an admin approves it; an admin publishes.
         */
        post: operations["add_document_v1_knowledge_documents_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge/documents/{document_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve Document */
        post: operations["approve_document_v1_knowledge_documents__document_id__approve_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge/documents/{document_id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Document Receipts */
        get: operations["document_receipts_v1_knowledge_documents__document_id__receipts_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge/documents/{document_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject Document */
        post: operations["reject_document_v1_knowledge_documents__document_id__reject_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Lookup */
        get: operations["lookup_v1_knowledge_lookup_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search */
        get: operations["search_v1_knowledge_search_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lessons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Lessons */
        get: operations["list_lessons_v1_lessons_get"];
        put?: never;
        /** Draft Lesson */
        post: operations["draft_lesson_v1_lessons_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lessons/{lesson_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve Lesson */
        post: operations["approve_lesson_v1_lessons__lesson_id__approve_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lessons/{lesson_id}/revise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revise Lesson */
        post: operations["revise_lesson_v1_lessons__lesson_id__revise_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/lessons/{lesson_id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Withdraw Lesson */
        post: operations["withdraw_lesson_v1_lessons__lesson_id__withdraw_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Memories
         * @description The workspace's memory items, newest first, filtered by contact, kind, trust, key (or
         *     a key prefix) and when they were recorded; paged with ``next_cursor``.
         */
        get: operations["list_memories_v1_memories_get"];
        put?: never;
        /**
         * Remember
         * @description The quick path: record these messages as one conversation of the contact, end it and
         *     extract now (the same harness and write boundary as the worker). A model extracts in its
         *     own time: in the workspace's share of the threads for waiting.
         */
        post: operations["remember_v1_memories_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/{item_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Memory */
        get: operations["get_memory_v1_memories__item_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Memory
         * @description Erase one item, its quotes and its history (admins). The audit log keeps that it was
         *     deleted, by whom and when, never its text.
         */
        delete: operations["delete_memory_v1_memories__item_id__delete"];
        options?: never;
        head?: never;
        /**
         * Edit
         * @description Change an item's text or date (``/v1/memory/{id}`` is the older path, kept).
         */
        patch: operations["edit_v1_memories__item_id__patch"];
        trace?: never;
    };
    "/v1/memories/{item_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive
         * @description Archive an item: it stays, marked (``/v1/memory/{id}/archive`` is the older path).
         */
        post: operations["archive_v1_memories__item_id__archive_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/{item_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Memory History
         * @description One memory's life: its versions from the first mention through every correction, and
         *     every change to each (created, superseded, conflicted, edited, archived) with its actor,
         *     time and reason.
         */
        get: operations["memory_history_v1_memories__item_id__history_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Receipts */
        get: operations["list_receipts_v1_receipts_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/record/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search */
        get: operations["search_v1_record_search_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/{version_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve Rules */
        post: operations["approve_rules_v1_rules__version_id__approve_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules/{version_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject Rules */
        post: operations["reject_rules_v1_rules__version_id__reject_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Setup State
         * @description Each of the four steps, done or not, with what is still missing.
         */
        get: operations["setup_state_v1_setup_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup/business": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Setup Business */
        put: operations["setup_business_v1_setup_business_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup/helps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Setup Helps */
        put: operations["setup_helps_v1_setup_helps_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup/knowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Setup Knowledge */
        post: operations["setup_knowledge_v1_setup_knowledge_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup/knowledge/{part}/{item_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Setup Approve */
        post: operations["setup_approve_v1_setup_knowledge__part___item_id__approve_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Setup Preview
         * @description Ask the preview as a customer would: knowledge quoted with its source, or the
         *     hand-off (with the question's ``unanswered_id`` to teach).
         */
        post: operations["setup_preview_v1_setup_preview_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup/teach": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Setup Teach */
        post: operations["setup_teach_v1_setup_teach_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/standards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Standards
         * @description Every version of the team standards (workspace-wide rules), newest first.
         */
        get: operations["standards_v1_standards_get"];
        put?: never;
        /** Propose Standards */
        post: operations["propose_standards_v1_standards_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/standards/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rollback Standards */
        post: operations["rollback_standards_v1_standards_rollback_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/test-clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set Test Clock */
        post: operations["set_test_clock_v1_test_clock_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ticket-adapter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Ticket Adapter */
        get: operations["get_ticket_adapter_v1_ticket_adapter_get"];
        /**
         * Put Ticket Adapter
         * @description Send this workspace's tickets to its helpdesk's webhook (header values write-only).
         */
        put: operations["put_ticket_adapter_v1_ticket_adapter_put"];
        post?: never;
        /** Delete Ticket Adapter */
        delete: operations["delete_ticket_adapter_v1_ticket_adapter_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Tickets */
        get: operations["list_tickets_v1_tickets_get"];
        put?: never;
        /**
         * Open Ticket
         * @description A ticket, handed to the workspace's helpdesk (which answers in its own time: in the
         *     workspace's share of the threads for waiting, never in the working threads).
         */
        post: operations["open_ticket_v1_tickets_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/unanswered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Unanswered */
        get: operations["list_unanswered_v1_unanswered_get"];
        put?: never;
        /** Record Unanswered */
        post: operations["record_unanswered_v1_unanswered_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Usage */
        get: operations["get_usage_v1_usage_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create User */
        post: operations["create_user_v1_users_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get User */
        get: operations["get_user_v1_users__user_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}/notebook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Entries */
        get: operations["entries_v1_users__user_id__notebook_get"];
        put?: never;
        /** Add */
        post: operations["add_v1_users__user_id__notebook_post"];
        /** Forget Phrase */
        delete: operations["forget_phrase_v1_users__user_id__notebook_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}/notebook/block": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Block */
        get: operations["block_v1_users__user_id__notebook_block_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}/notebook/{entry_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Forget */
        delete: operations["forget_v1_users__user_id__notebook__entry_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate
         * @description A new shared secret for this workspace's inbound webhooks (shown once).
         */
        post: operations["rotate_v1_webhook_secret_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{workspace_id}/{channel}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Receive */
        post: operations["receive_v1_webhooks__workspace_id___channel__post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Workspace */
        get: operations["get_workspace_v1_workspace_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create Workspace */
        post: operations["create_workspace_v1_workspaces_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** AccountLookup */
        AccountLookup: {
            /** Data */
            data?: {
                [key: string]: unknown;
            } | null;
            /** Sentence */
            sentence?: string | null;
            /** Status */
            status: string;
        } & {
            [key: string]: unknown;
        };
        /** AccountSourceIn */
        AccountSourceIn: {
            /** Base Url */
            base_url?: string | null;
            /** Failing */
            failing?: boolean | null;
            /** Headers */
            headers?: {
                [key: string]: string;
            } | null;
            /** Lookups */
            lookups?: {
                [key: string]: string;
            } | null;
            /** Queries */
            queries?: {
                [key: string]: string;
            } | null;
            /** Timeout S */
            timeout_s?: number | null;
            /**
             * Type
             * @enum {string}
             */
            type: "http" | "sql" | "demo";
            /** Url */
            url?: string | null;
        };
        /** Agent */
        Agent: {
            /**
             * Business Intelligence
             * @default false
             */
            business_intelligence?: boolean;
            /** Domain */
            domain?: string | null;
            /** Doors */
            doors?: string[] | null;
            /** Id */
            id: string;
            /** Memory Enabled */
            memory_enabled: boolean;
            /** Name */
            name: string;
            /**
             * Record Policy
             * @default archive
             */
            record_policy?: string;
        } & {
            [key: string]: unknown;
        };
        /** AgentIn */
        AgentIn: {
            /**
             * Business Intelligence
             * @default false
             */
            business_intelligence?: boolean;
            /** Domain */
            domain?: string | null;
            /** Doors */
            doors?: ("web" | "telegram" | "email" | "sms" | "voice" | "phone")[] | null;
            /**
             * Memory Enabled
             * @default false
             */
            memory_enabled?: boolean;
            /** Name */
            name: string;
            /**
             * Record Policy
             * @default archive
             * @enum {string}
             */
            record_policy?: "archive" | "audit_only";
            /** Window Overrides */
            window_overrides?: {
                [key: string]: {
                    [key: string]: number;
                };
            } | null;
        };
        /** AgentPatch */
        AgentPatch: {
            /** Business Intelligence */
            business_intelligence?: boolean | null;
            /** Domain */
            domain?: string | null;
            /** Memory Enabled */
            memory_enabled?: boolean | null;
            /** Name */
            name?: string | null;
            /** Record Policy */
            record_policy?: ("archive" | "audit_only") | null;
            /** Window Overrides */
            window_overrides?: {
                [key: string]: {
                    [key: string]: number;
                };
            } | null;
        };
        /** ApiKey */
        ApiKey: {
            /** Api Key */
            api_key?: string | null;
            /** Created At */
            created_at?: string | null;
            /** Id */
            id?: string | null;
            /** Label */
            label?: string | null;
            /** Revoked At */
            revoked_at?: string | null;
            /** Role */
            role?: string | null;
            /** User Id */
            user_id?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** ApiKeyIn */
        ApiKeyIn: {
            /** Label */
            label?: string | null;
            /**
             * Role
             * @enum {string}
             */
            role: "owner" | "admin" | "operator";
            /**
             * User Id
             * @description the staff user the key acts for (writes their notebook)
             */
            user_id?: string | null;
        };
        /** AuditEntry */
        AuditEntry: {
            /** Actor */
            actor: string;
            /** Args */
            args?: {
                [key: string]: unknown;
            };
            /** At */
            at: string;
            /** Result */
            result?: unknown | null;
            /** Status */
            status: string;
            /** Tool */
            tool: string;
        } & {
            [key: string]: unknown;
        };
        /** ChatIn */
        ChatIn: {
            /** Conversation Id */
            conversation_id: string;
            /** Messages */
            messages?: components["schemas"]["MessageIn"][] | null;
            page?: components["schemas"]["PageIn"] | null;
            /** Text */
            text: string;
        };
        /** ChatReply */
        ChatReply: {
            /**
             * Handoff
             * @default false
             */
            handoff?: boolean;
            /** Pending Confirmation */
            pending_confirmation?: {
                [key: string]: unknown;
            } | null;
            /** Reply */
            reply: string;
            /** Sources */
            sources?: components["schemas"]["Source"][];
            /** Ticket */
            ticket?: {
                [key: string]: unknown;
            } | null;
            /** Unanswered Id */
            unanswered_id?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** Clock */
        Clock: {
            /** Now */
            now: string;
        } & {
            [key: string]: unknown;
        };
        /** Contact */
        Contact: {
            /** Account Refs */
            account_refs?: string[];
            /** Emails */
            emails?: string[];
            /** External Ids */
            external_ids?: string[];
            /** Id */
            id: string;
            /** Name */
            name: string;
            /** Phones */
            phones?: string[];
        } & {
            [key: string]: unknown;
        };
        /** ContactIn */
        ContactIn: {
            /** Account Refs */
            account_refs?: string[];
            /** Addresses */
            addresses?: string[];
            /** Emails */
            emails?: string[];
            /**
             * External Ids
             * @description your own ids for them: unique
             */
            external_ids?: string[];
            /** Name */
            name: string;
            /** Phones */
            phones?: string[];
            /** Telegram Ids */
            telegram_ids?: string[];
        };
        /** ContextAnswer */
        ContextAnswer: {
            /** Anthropic */
            anthropic?: {
                [key: string]: unknown;
            };
            /** Explain */
            explain?: {
                [key: string]: unknown;
            }[];
            /**
             * Flags
             * @default 0
             */
            flags?: number;
            /** Messages */
            messages: {
                [key: string]: unknown;
            }[];
            /**
             * Route
             * @default knowledge
             */
            route?: string;
            /** Sections */
            sections: {
                [key: string]: unknown;
            };
            /** Tools */
            tools?: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        /** ContextIn */
        ContextIn: {
            /** Conversation Id */
            conversation_id: string;
            /** Messages */
            messages?: components["schemas"]["MessageIn"][] | null;
            page?: components["schemas"]["PageIn"] | null;
            /** Request */
            request: string;
        };
        /** Conversation */
        Conversation: {
            /** Agent Id */
            agent_id: string;
            /** Channel */
            channel: string;
            /** Contact Id */
            contact_id?: string | null;
            /** Ended At */
            ended_at?: string | null;
            /** Id */
            id: string;
            /** Started At */
            started_at: string;
            /** Status */
            status: string;
            /** User Id */
            user_id?: string | null;
            /** Visitor Token */
            visitor_token?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** ConversationIn */
        ConversationIn: {
            /** Account Ref */
            account_ref?: string | null;
            /**
             * Agent Id
             * @description the workspace's default agent when not given
             */
            agent_id?: string | null;
            /**
             * Channel
             * @enum {string}
             */
            channel: "web" | "telegram" | "email" | "sms" | "voice" | "phone" | "api";
            /** Contact Id */
            contact_id?: string | null;
            /**
             * Excluded From Memory
             * @default false
             */
            excluded_from_memory?: boolean;
            /**
             * External Id
             * @description your own id for the customer: found or made
             */
            external_id?: string | null;
            /** Thread */
            thread?: string | null;
            /**
             * User Id
             * @description the staff user, if any
             */
            user_id?: string | null;
        };
        /** Created */
        Created: {
            /** Id */
            id: string;
        } & {
            [key: string]: unknown;
        };
        /** Deleted */
        Deleted: {
            /** Deleted */
            deleted: {
                [key: string]: number;
            };
        } & {
            [key: string]: unknown;
        };
        /** Document */
        Document: {
            /** Id */
            id: string;
            /** Kind */
            kind: string;
            /** Title */
            title: string;
            /** Version */
            version?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** DocumentIn */
        DocumentIn: {
            /** Body */
            body: string;
            /** Identifiers */
            identifiers?: string[];
            /** Key */
            key?: string | null;
            /**
             * Kind
             * @enum {string}
             */
            kind: "catalog" | "manual" | "software" | "fitment" | "policy" | "faq" | "note";
            /** Publish */
            publish?: boolean | null;
            /** Source Url */
            source_url?: string | null;
            /** Title */
            title: string;
            /** Version */
            version: string;
        };
        /** DocumentReceipt */
        DocumentReceipt: {
            /** Action */
            action: string;
            /** Approved By */
            approved_by: string;
            /** At */
            at: string;
            /** Document Id */
            document_id: string;
            /** Id */
            id: string;
        } & {
            [key: string]: unknown;
        };
        /** Door */
        Door: {
            /** Door */
            door: string;
            /**
             * Intended
             * @default false
             */
            intended?: boolean;
            /**
             * Needs
             * @default
             */
            needs?: string;
            /** On */
            on: boolean;
            /** Ready */
            ready?: boolean | null;
        } & {
            [key: string]: unknown;
        };
        /** DoorIn */
        DoorIn: {
            /** On */
            on: boolean;
        };
        /** EventDelivery */
        EventDelivery: {
            /**
             * Attempts
             * @default 0
             */
            attempts?: number;
            /** Endpoint Id */
            endpoint_id: string;
            /** Event Id */
            event_id: string;
            /** Job Id */
            job_id: string;
            /** Last Error */
            last_error?: string | null;
            /** Status */
            status: string;
            /** Type */
            type: string;
        } & {
            [key: string]: unknown;
        };
        /** EventEndpoint */
        EventEndpoint: {
            /**
             * Active
             * @default true
             */
            active?: boolean;
            /** Events */
            events?: string[];
            /** Id */
            id: string;
            /** Secret */
            secret?: string | null;
            /** Types */
            types?: string[] | null;
            /** Url */
            url: string;
        } & {
            [key: string]: unknown;
        };
        /** EventEndpointIn */
        EventEndpointIn: {
            /** Events */
            events?: string[] | null;
            /** Url */
            url: string;
        };
        /** EventIn */
        EventIn: {
            /** At */
            at?: string | null;
            /** Contact Id */
            contact_id: string;
            /** Conversation Id */
            conversation_id?: string | null;
            /** Labels */
            labels?: {
                [key: string]: string;
            };
            /** Type */
            type: string;
        };
        /** Evidence */
        Evidence: {
            /** Quote */
            quote: string;
            /** Turn Id */
            turn_id?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** Export */
        Export: {
            /** Contact */
            contact: {
                [key: string]: unknown;
            };
            /** Memory */
            memory?: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        /**
         * Flag
         * @description An operation that answers with one fact: ``{"reset": true}``, ``{"removed": true}``.
         */
        Flag: {
            [key: string]: unknown;
        };
        /** Graph */
        Graph: {
            /** Edges */
            edges?: {
                [key: string]: unknown;
            }[];
            /** Nodes */
            nodes?: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        /** HTTPValidationError */
        HTTPValidationError: {
            /** Detail */
            detail?: components["schemas"]["ValidationError"][];
        };
        /** Health */
        Health: {
            /** Boundary */
            boundary?: {
                [key: string]: unknown;
            } | null;
            /** Database */
            database?: {
                [key: string]: unknown;
            } | null;
            /**
             * Metering
             * @default false
             */
            metering?: boolean;
            /** Model */
            model?: {
                [key: string]: unknown;
            } | null;
            /** Status */
            status: string;
            /** Version */
            version: string;
            /** Worker */
            worker?: {
                [key: string]: unknown;
            } | null;
        } & {
            [key: string]: unknown;
        };
        /** HistoryHit */
        HistoryHit: {
            /** At */
            at: string;
            /** Conversation Id */
            conversation_id: string;
            /** Role */
            role: string;
            /** Score */
            score: number;
            /** Speaker */
            speaker: string;
            /** Text */
            text: string;
            /** Turn Id */
            turn_id: string;
        } & {
            [key: string]: unknown;
        };
        /** Identification */
        Identification: {
            /** Account Ref */
            account_ref?: string | null;
            /** Contact Id */
            contact_id?: string | null;
            /** Question */
            question?: string | null;
            /** Status */
            status: string;
        } & {
            [key: string]: unknown;
        };
        /** IdentifyIn */
        IdentifyIn: {
            /**
             * Kind
             * @enum {string}
             */
            kind: "email" | "phone" | "telegram";
            /** Value */
            value: string;
        };
        /** Job */
        Job: {
            /**
             * Attempts
             * @default 0
             */
            attempts?: number;
            /** Id */
            id: string;
            /** Kind */
            kind: string;
            /** Status */
            status: string;
        } & {
            [key: string]: unknown;
        };
        /** JobRun */
        JobRun: {
            /** Ran */
            ran?: {
                [key: string]: number;
            };
            /**
             * Running
             * @default 0
             */
            running?: number;
            /**
             * Total
             * @default 0
             */
            total?: number;
        } & {
            [key: string]: unknown;
        };
        /** Jobs */
        Jobs: {
            /** Counts */
            counts?: {
                [key: string]: unknown;
            };
            /** Items */
            items: components["schemas"]["Job"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** KnowledgeHit */
        KnowledgeHit: {
            /** Excerpt */
            excerpt: string;
            /** Id */
            id: string;
            /** Part */
            part: string;
            /** Score */
            score: number;
            /** Source Url */
            source_url?: string | null;
            /** Title */
            title: string;
            /** Version */
            version?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** KnowledgeSearch */
        KnowledgeSearch: {
            /**
             * Answered
             * @default false
             */
            answered?: boolean;
            /** Items */
            items: components["schemas"]["KnowledgeHit"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Lesson */
        Lesson: {
            /** Answer */
            answer: string;
            /** Id */
            id: string;
            /** Question */
            question: string;
            /** Receipt */
            receipt?: {
                [key: string]: unknown;
            } | null;
            /** Status */
            status: string;
        } & {
            [key: string]: unknown;
        };
        /** LessonIn */
        LessonIn: {
            /** Answer */
            answer: string;
            /** Question */
            question: string;
            /** Unanswered Id */
            unanswered_id?: string | null;
        };
        /** LessonPatch */
        LessonPatch: {
            /** Answer */
            answer?: string | null;
            /** Question */
            question?: string | null;
        };
        /** LookupIn */
        LookupIn: {
            /** Account */
            account?: string | null;
            /** Conversation Id */
            conversation_id: string;
            /** Id */
            id?: string | null;
            /**
             * Kind
             * @enum {string}
             */
            kind: "order" | "invoice" | "shipment" | "balance" | "card";
        };
        /** MemoryChange */
        MemoryChange: {
            /** Action */
            action: string;
            /** Actor */
            actor: string;
            /** At */
            at: string;
            /** Before */
            before?: string | null;
            /** Item Id */
            item_id: string;
            /** Other Item Id */
            other_item_id?: string | null;
            /** Text */
            text?: string | null;
            /** Why */
            why?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** MemoryDeleted */
        MemoryDeleted: {
            /** Deleted */
            deleted: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * MemoryHistory
         * @description One memory's life: its versions (what it replaced, it, what replaced it; oldest first)
         *     and every change to each, with who made it, when and why.
         */
        MemoryHistory: {
            /** Changes */
            changes: components["schemas"]["MemoryChange"][];
            /** Item Id */
            item_id: string;
            /** Versions */
            versions: components["schemas"]["MemoryItem"][];
        } & {
            [key: string]: unknown;
        };
        /** MemoryItem */
        MemoryItem: {
            /** Contact Id */
            contact_id?: string | null;
            /**
             * Edited
             * @default false
             */
            edited?: boolean;
            /** Evidence */
            evidence?: components["schemas"]["Evidence"][];
            /** Id */
            id: string;
            /** Key */
            key?: string | null;
            /** Kind */
            kind: string;
            /**
             * Lifecycle
             * @default active
             */
            lifecycle?: string;
            /** Occurs On */
            occurs_on?: string | null;
            /** Recorded At */
            recorded_at: string;
            /** Source */
            source: string;
            /** Summary */
            summary?: {
                [key: string]: unknown;
            } | null;
            /** Superseded By */
            superseded_by?: string | null;
            /** Temporal */
            temporal?: string | null;
            /** Text */
            text: string;
            /** Trust */
            trust: string;
        } & {
            [key: string]: unknown;
        };
        /** MemoryNoteIn */
        MemoryNoteIn: {
            /** Entities */
            entities?: string[];
            /** Key */
            key?: string | null;
            /**
             * Kind
             * @default note
             * @enum {string}
             */
            kind?: "preference" | "fact" | "event" | "task" | "note";
            /** Occurs On */
            occurs_on?: string | null;
            /** Text */
            text: string;
        };
        /** MemoryPatch */
        MemoryPatch: {
            /** Occurs On */
            occurs_on?: string | null;
            /** Text */
            text?: string | null;
        };
        /** MessageIn */
        MessageIn: {
            /**
             * Role
             * @enum {string}
             */
            role: "user" | "assistant" | "customer";
            /**
             * Text
             * @default
             */
            text?: string;
        };
        /**
         * NotebookAdded
         * @description A new entry, or ``duplicate=True`` with the entry that already says it.
         */
        NotebookAdded: {
            /**
             * Duplicate
             * @default false
             */
            duplicate?: boolean;
            entry?: components["schemas"]["NotebookEntry"] | null;
            /** Id */
            id?: string | null;
            /** Text */
            text?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** NotebookBlock */
        NotebookBlock: {
            /** Text */
            text?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** NotebookEntry */
        NotebookEntry: {
            /** Created At */
            created_at: string;
            /** Id */
            id: string;
            /** Text */
            text: string;
        } & {
            [key: string]: unknown;
        };
        /** NotebookIn */
        NotebookIn: {
            /** Text */
            text: string;
        };
        /** PageIn */
        PageIn: {
            /**
             * Title
             * @default
             */
            title?: string;
            /**
             * Url
             * @default
             */
            url?: string;
        };
        /** Page[ApiKey] */
        Page_ApiKey_: {
            /** Items */
            items: components["schemas"]["ApiKey"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[AuditEntry] */
        Page_AuditEntry_: {
            /** Items */
            items: components["schemas"]["AuditEntry"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Contact] */
        Page_Contact_: {
            /** Items */
            items: components["schemas"]["Contact"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Conversation] */
        Page_Conversation_: {
            /** Items */
            items: components["schemas"]["Conversation"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[DocumentReceipt] */
        Page_DocumentReceipt_: {
            /** Items */
            items: components["schemas"]["DocumentReceipt"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Document] */
        Page_Document_: {
            /** Items */
            items: components["schemas"]["Document"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Door] */
        Page_Door_: {
            /** Items */
            items: components["schemas"]["Door"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[EventDelivery] */
        Page_EventDelivery_: {
            /** Items */
            items: components["schemas"]["EventDelivery"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[EventEndpoint] */
        Page_EventEndpoint_: {
            /** Items */
            items: components["schemas"]["EventEndpoint"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[HistoryHit] */
        Page_HistoryHit_: {
            /** Items */
            items: components["schemas"]["HistoryHit"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[KnowledgeHit] */
        Page_KnowledgeHit_: {
            /** Items */
            items: components["schemas"]["KnowledgeHit"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Lesson] */
        Page_Lesson_: {
            /** Items */
            items: components["schemas"]["Lesson"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[MemoryItem] */
        Page_MemoryItem_: {
            /** Items */
            items: components["schemas"]["MemoryItem"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[NotebookEntry] */
        Page_NotebookEntry_: {
            /** Items */
            items: components["schemas"]["NotebookEntry"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Receipt] */
        Page_Receipt_: {
            /** Items */
            items: components["schemas"]["Receipt"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[RecordHit] */
        Page_RecordHit_: {
            /** Items */
            items: components["schemas"]["RecordHit"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[RuleVersion] */
        Page_RuleVersion_: {
            /** Items */
            items: components["schemas"]["RuleVersion"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Ticket] */
        Page_Ticket_: {
            /** Items */
            items: components["schemas"]["Ticket"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Turn] */
        Page_Turn_: {
            /** Items */
            items: components["schemas"]["Turn"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Page[Unanswered] */
        Page_Unanswered_: {
            /** Items */
            items: components["schemas"]["Unanswered"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
        } & {
            [key: string]: unknown;
        };
        /** Pattern */
        Pattern: {
            /** Conversations */
            conversations: number;
            /** Count */
            count: number;
            /** Label */
            label: string;
            /** Promoted */
            promoted: boolean;
            /** Value */
            value: string;
        } & {
            [key: string]: unknown;
        };
        /** Patterns */
        Patterns: {
            /** Items */
            items: components["schemas"]["Pattern"][];
            /** Next Cursor */
            next_cursor?: unknown | null;
            /** Reason */
            reason?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** PersonaIn */
        PersonaIn: {
            /**
             * Helps With
             * @default
             */
            helps_with?: string;
            /**
             * Voice
             * @default
             */
            voice?: string;
        };
        /**
         * Rebuild
         * @description The estimate (``dry_run``), or the estimate and the started rebuild's progress.
         */
        Rebuild: {
            /** Allowed */
            allowed: boolean;
            /** Conversations */
            conversations: number;
            /** Cost */
            cost: number;
            progress?: components["schemas"]["RebuildProgress"] | null;
            /** Reason */
            reason?: string | null;
            /** Remaining */
            remaining: number;
        } & {
            [key: string]: unknown;
        };
        /** RebuildIn */
        RebuildIn: {
            /**
             * Dry Run
             * @default false
             */
            dry_run?: boolean;
        };
        /** RebuildProgress */
        RebuildProgress: {
            /**
             * Done
             * @default 0
             */
            done?: number;
            /**
             * Failed
             * @default 0
             */
            failed?: number;
            /** Rebuild Id */
            rebuild_id?: string | null;
            /**
             * Running
             * @default false
             */
            running?: boolean;
            /**
             * Total
             * @default 0
             */
            total?: number;
        } & {
            [key: string]: unknown;
        };
        /** Recall */
        Recall: {
            /** Explain */
            explain?: {
                [key: string]: unknown;
            }[];
            /** Notes */
            notes?: components["schemas"]["RecallLine"][];
            /** Profile */
            profile?: components["schemas"]["RecallLine"][];
        } & {
            [key: string]: unknown;
        };
        /** RecallIn */
        RecallIn: {
            /** Limit */
            limit?: number | null;
            /** Request */
            request: string;
        };
        /** RecallLine */
        RecallLine: {
            /** Ids */
            ids?: string[];
            /** Part */
            part: string;
            /** Text */
            text: string;
            /** Trust */
            trust?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** Receipt */
        Receipt: {
            /** Action */
            action: string;
            /** Approved By */
            approved_by: string;
            /** At */
            at: string;
            /** Id */
            id: string;
            /** Lesson Id */
            lesson_id: string;
        } & {
            [key: string]: unknown;
        };
        /** Received */
        Received: {
            /** Contact Id */
            contact_id?: string | null;
            /** Conversation Id */
            conversation_id?: string | null;
            /**
             * Duplicate
             * @default false
             */
            duplicate?: boolean;
        } & {
            [key: string]: unknown;
        };
        /** RecordHit */
        RecordHit: {
            /** At */
            at: string;
            /** Conversation Id */
            conversation_id: string;
            /** Highlight */
            highlight: string;
            /** Role */
            role: string;
            /** Score */
            score: number;
            /** Turn Id */
            turn_id: string;
        } & {
            [key: string]: unknown;
        };
        /** RememberIn */
        RememberIn: {
            /** Agent Id */
            agent_id?: string | null;
            /**
             * Channel
             * @default api
             * @enum {string}
             */
            channel?: "web" | "telegram" | "email" | "sms" | "voice" | "phone" | "api";
            /** Contact Id */
            contact_id?: string | null;
            /**
             * Email
             * @description found or made by email
             */
            email?: string | null;
            /** Messages */
            messages: components["schemas"]["RememberMessage"][];
            /**
             * Name
             * @description a new contact's name
             */
            name?: string | null;
            /**
             * Phone
             * @description found or made by phone
             */
            phone?: string | null;
            /**
             * User Id
             * @description your own id for the customer: found or made
             */
            user_id?: string | null;
        };
        /** RememberMessage */
        RememberMessage: {
            /** At */
            at?: string | null;
            /**
             * Role
             * @enum {string}
             */
            role: "customer" | "user" | "assistant" | "operator";
            /** Text */
            text: string;
        };
        /** Remembered */
        Remembered: {
            /** Contact Id */
            contact_id?: string | null;
            /** Conversation Id */
            conversation_id: string;
            /**
             * Discarded
             * @default 0
             */
            discarded?: number;
            /** Items */
            items?: components["schemas"]["MemoryItem"][];
            /** Reason */
            reason?: string | null;
            /** Refused */
            refused?: unknown;
            /** Status */
            status: string;
        } & {
            [key: string]: unknown;
        };
        /** Removed */
        Removed: {
            /** Removed */
            removed: number;
        } & {
            [key: string]: unknown;
        };
        /** RollbackIn */
        RollbackIn: {
            /** Version */
            version: number;
        };
        /**
         * RuleVersion
         * @description One version of written rules: an agent's (``scope`` is its id) or the team
         *     standards (``scope`` is ``"workspace"``).
         */
        RuleVersion: {
            /** Decided At */
            decided_at?: string | null;
            /** Decided By */
            decided_by?: string | null;
            /**
             * Diff
             * @default
             */
            diff?: string;
            /** Id */
            id: string;
            /** Note */
            note?: string | null;
            /** Persona */
            persona?: {
                [key: string]: string;
            } | null;
            /** Proposed At */
            proposed_at: string;
            /** Proposed By */
            proposed_by: string;
            /** Rules */
            rules?: string[];
            /** Scope */
            scope: string;
            /** Status */
            status: string;
            /** Version */
            version: number;
        } & {
            [key: string]: unknown;
        };
        /** RulesIn */
        RulesIn: {
            /** Note */
            note?: string | null;
            persona?: components["schemas"]["PersonaIn"] | null;
            /** Publish */
            publish?: boolean | null;
            /** Rules */
            rules: string[];
        };
        /** Secret */
        Secret: {
            /** Secret */
            secret: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * Settings
         * @description A configuration as shown back: its type, and secrets only as set/•••.
         */
        Settings: {
            /** Type */
            type: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * Setup
         * @description Where the setup builder stands: each step with what is still missing.
         */
        Setup: {
            /** Business */
            business?: {
                [key: string]: unknown;
            };
            /**
             * Complete
             * @default false
             */
            complete?: boolean;
            /** Helps */
            helps?: {
                [key: string]: unknown;
            };
            /** Knowledge */
            knowledge?: {
                [key: string]: unknown;
            };
            /** Next */
            next?: string | null;
            /** Steps */
            steps: components["schemas"]["SetupStep"][];
            /** Try */
            try?: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** SetupApproval */
        SetupApproval: {
            /** Id */
            id: string;
            /** Part */
            part: string;
            /** Receipt Id */
            receipt_id: string;
        } & {
            [key: string]: unknown;
        };
        /** SetupBusinessIn */
        SetupBusinessIn: {
            /** Agent Name */
            agent_name?: string | null;
            /** Domain */
            domain: string;
            /** Name */
            name: string;
            /** Plan */
            plan?: ("free" | "startup" | "business" | "enterprise") | null;
            /** Timezone */
            timezone: string;
        };
        /** SetupHelpsIn */
        SetupHelpsIn: {
            /** Channels */
            channels?: ("web" | "telegram" | "email" | "sms" | "voice" | "phone")[] | null;
            /** Memory Enabled */
            memory_enabled?: boolean | null;
            persona?: components["schemas"]["PersonaIn"] | null;
            /** Rules */
            rules?: string[] | null;
        };
        /** SetupItems */
        SetupItems: {
            /** Items */
            items: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        /** SetupKnowledgeIn */
        SetupKnowledgeIn: {
            /** Body */
            body: string;
            /**
             * Kind
             * @enum {string}
             */
            kind: "note" | "document" | "faq";
            /** Source Url */
            source_url?: string | null;
            /**
             * Title
             * @default
             */
            title?: string;
        };
        /** SetupPreviewIn */
        SetupPreviewIn: {
            /** Text */
            text: string;
        };
        /** SetupStep */
        SetupStep: {
            /** Done */
            done: boolean;
            /** Missing */
            missing?: string[];
            /** Name */
            name: string;
            /** Title */
            title: string;
        } & {
            [key: string]: unknown;
        };
        /** SetupTeachIn */
        SetupTeachIn: {
            /** Answer */
            answer: string;
            /** Unanswered Id */
            unanswered_id: string;
        };
        /** Source */
        Source: {
            /** Id */
            id?: string | null;
            /** Part */
            part: string;
            /** Source Url */
            source_url?: string | null;
            /** Title */
            title?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** StandardsIn */
        StandardsIn: {
            /** Note */
            note?: string | null;
            /** Publish */
            publish?: boolean | null;
            /** Rules */
            rules: string[];
        };
        /** Taught */
        Taught: {
            /** Id */
            id: string;
            /** Question */
            question: string;
            /** Status */
            status: string;
        } & {
            [key: string]: unknown;
        };
        /** TestClockIn */
        TestClockIn: {
            /**
             * Now
             * Format: date-time
             */
            now: string;
        };
        /** Ticket */
        Ticket: {
            /** Id */
            id: string;
            /** Status */
            status: string;
            /** Summary */
            summary?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** TicketAdapterIn */
        TicketAdapterIn: {
            /** Headers */
            headers?: {
                [key: string]: string;
            } | null;
            /** Url */
            url: string;
        };
        /** TicketIn */
        TicketIn: {
            /** Body */
            body: string;
            /** Contact Id */
            contact_id?: string | null;
            /** Conversation Id */
            conversation_id?: string | null;
            /** Subject */
            subject: string;
            /** Unanswered Id */
            unanswered_id?: string | null;
        };
        /** Turn */
        Turn: {
            /** At */
            at: string;
            /** Channel */
            channel: string;
            /**
             * Cleaned
             * @default 0
             */
            cleaned?: number;
            /** Conversation Id */
            conversation_id: string;
            /** Id */
            id: string;
            /** Role */
            role: string;
            /** Seq */
            seq: number;
            /** Text */
            text: string | null;
        } & {
            [key: string]: unknown;
        };
        /** TurnIn */
        TurnIn: {
            /** At */
            at?: string | null;
            /**
             * Role
             * @enum {string}
             */
            role: "customer" | "user" | "assistant" | "operator" | "tool";
            /** Text */
            text: string;
        };
        /**
         * TurnsIn
         * @description Several turns of one conversation, appended together: all of them or none.
         */
        TurnsIn: {
            /** Turns */
            turns: components["schemas"]["TurnIn"][];
        };
        /** Unanswered */
        Unanswered: {
            /**
             * Count
             * @default 1
             */
            count?: number;
            /** Id */
            id: string;
            /** Question */
            question: string;
            /**
             * Status
             * @default open
             */
            status?: string;
        } & {
            [key: string]: unknown;
        };
        /** UnansweredIn */
        UnansweredIn: {
            /** Contact Id */
            contact_id?: string | null;
            /** Conversation Id */
            conversation_id?: string | null;
            /** Question */
            question: string;
        };
        /** Usage */
        Usage: {
            /** Allowance */
            allowance: number;
            /**
             * Metered
             * @default false
             */
            metered?: boolean;
            /** Month */
            month: string;
            /** Remaining */
            remaining: number;
            /** Used */
            used: number;
        } & {
            [key: string]: unknown;
        };
        /** User */
        User: {
            /** Id */
            id: string;
            /** Name */
            name: string;
            /** Role */
            role: string;
            /** Telegram Id */
            telegram_id?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** UserIn */
        UserIn: {
            /** Name */
            name: string;
            /**
             * Role
             * @default member
             * @enum {string}
             */
            role?: "owner" | "admin" | "operator" | "member";
            /** Telegram Id */
            telegram_id?: string | null;
        };
        /** ValidationError */
        ValidationError: {
            /** Context */
            ctx?: Record<string, never>;
            /** Input */
            input?: unknown;
            /** Location */
            loc: (string | number)[];
            /** Message */
            msg: string;
            /** Error Type */
            type: string;
        };
        /** Window */
        Window: {
            /** Kind */
            kind: string;
            /** Messages */
            messages?: components["schemas"]["WindowMessage"][];
            /** Pending */
            pending?: {
                [key: string]: unknown;
            } | null;
            /** Summary */
            summary?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** WindowMessage */
        WindowMessage: {
            /** Role */
            role: string;
            /** Text */
            text: string;
        } & {
            [key: string]: unknown;
        };
        /** Workspace */
        Workspace: {
            /** Api Key */
            api_key?: string | null;
            /** Id */
            id: string;
            /** Name */
            name: string;
            /** Plan */
            plan: string;
            /** Timezone */
            timezone: string;
        } & {
            [key: string]: unknown;
        };
        /** WorkspaceIn */
        WorkspaceIn: {
            /** Monthly Allowance */
            monthly_allowance?: number | null;
            /** Name */
            name: string;
            /**
             * Plan
             * @default startup
             * @enum {string}
             */
            plan?: "free" | "startup" | "business" | "enterprise";
            /**
             * Timezone
             * @default UTC
             */
            timezone?: string;
        };
        /** Written */
        Written: {
            /** Action */
            action: string;
            /** Affected */
            affected?: string[];
            item: components["schemas"]["MemoryItem"];
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get_source_v1_account_source_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settings"];
                };
            };
        };
    };
    put_source_v1_account_source_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountSourceIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settings"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    lookup_v1_accounts_lookup_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LookupIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountLookup"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_agent_v1_agents_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_agent_v1_agents__agent_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    update_agent_v1_agents__agent_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    doors_v1_agents__agent_id__doors_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Door_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    switch_door_v1_agents__agent_id__doors__door__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
                door: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DoorIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Door_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    agent_rules_v1_agents__agent_id__rules_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_RuleVersion_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    propose_agent_rules_v1_agents__agent_id__rules_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RulesIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleVersion"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    rollback_agent_rules_v1_agents__agent_id__rules_rollback_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RollbackIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleVersion"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_api_keys_v1_api_keys_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ApiKey_"];
                };
            };
        };
    };
    create_api_key_v1_api_keys_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    revoke_api_key_v1_api_keys__key_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    rotate_api_key_v1_api_keys__key_id__rotate_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    audit_v1_audit_get: {
        parameters: {
            query?: {
                tool?: string | null;
                status?: string | null;
                contact_id?: string | null;
                cursor?: number | null;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_AuditEntry_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    chat_v1_chat_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatReply"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    find_contacts_v1_contacts_get: {
        parameters: {
            query?: {
                /** @description your own id for them */
                external_id?: string | null;
                email?: string | null;
                phone?: string | null;
                /** @description a part of the name */
                q?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Contact_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_contact_v1_contacts_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_contact_v1_contacts__contact_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_v1_contacts__contact_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    export_v1_contacts__contact_id__export_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    history_v1_contacts__contact_id__history_get: {
        parameters: {
            query: {
                q: string;
                k?: number;
                /** @description who asks: whose "I" the question speaks in */
                asked_by?: "customer" | "staff";
            };
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_HistoryHit_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    items_v1_contacts__contact_id__memory_get: {
        parameters: {
            query?: {
                /** @description superseded,archived */
                include?: string;
                kind?: string | null;
                trust?: string | null;
            };
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_MemoryItem_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    add_note_v1_contacts__contact_id__memory_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryNoteIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Written"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    relations_v1_contacts__contact_id__memory_relations_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Graph"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patterns_v1_contacts__contact_id__patterns_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Patterns"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    rebuild_progress_v1_contacts__contact_id__rebuild_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RebuildProgress"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    rebuild_v1_contacts__contact_id__rebuild_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RebuildIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rebuild"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    recall_v1_contacts__contact_id__recall_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecallIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Recall"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    summaries_v1_contacts__contact_id__summaries_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_MemoryItem_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    context_v1_context_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContextIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextAnswer"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    listing_v1_conversations_get: {
        parameters: {
            query?: {
                contact_id?: string | null;
                cursor?: string | null;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Conversation_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    start_v1_conversations_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_v1_conversations__conversation_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    end_v1_conversations__conversation_id__end_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    reset_v1_conversations__conversation_id__reset_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flag"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    conversation_summary_v1_conversations__conversation_id__summary_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryItem"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    turns_v1_conversations__conversation_id__turns_get: {
        parameters: {
            query?: {
                cursor?: number | null;
                limit?: number;
            };
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Turn_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    append_v1_conversations__conversation_id__turns_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TurnIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Turn"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    append_batch_v1_conversations__conversation_id__turns_batch_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TurnsIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Turn_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    window_view_v1_conversations__conversation_id__window_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Window"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    deliveries_v1_event_deliveries_get: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_EventDelivery_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    endpoints_v1_event_endpoints_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_EventEndpoint_"];
                };
            };
        };
    };
    add_endpoint_v1_event_endpoints_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventEndpointIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventEndpoint"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    remove_endpoint_v1_event_endpoints__endpoint_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flag"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    post_event_v1_events_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    health_v1_health_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    identify_v1_identify_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdentifyIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Identification"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_jobs_v1_jobs_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Jobs"];
                };
            };
        };
    };
    run_jobs_v1_jobs_run_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobRun"];
                };
            };
        };
    };
    documents_v1_knowledge_documents_get: {
        parameters: {
            query?: {
                include_superseded?: boolean;
                status?: ("current" | "draft" | "superseded" | "rejected") | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Document_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    add_document_v1_knowledge_documents_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DocumentIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    approve_document_v1_knowledge_documents__document_id__approve_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentReceipt"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    document_receipts_v1_knowledge_documents__document_id__receipts_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_DocumentReceipt_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    reject_document_v1_knowledge_documents__document_id__reject_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentReceipt"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    lookup_v1_knowledge_lookup_get: {
        parameters: {
            query: {
                identifier: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_KnowledgeHit_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    search_v1_knowledge_search_get: {
        parameters: {
            query: {
                q: string;
                recipe?: "lexical" | "hybrid";
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeSearch"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_lessons_v1_lessons_get: {
        parameters: {
            query?: {
                status?: ("draft" | "published" | "superseded" | "withdrawn") | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Lesson_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    draft_lesson_v1_lessons_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LessonIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lesson"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    approve_lesson_v1_lessons__lesson_id__approve_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lesson_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lesson"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    revise_lesson_v1_lessons__lesson_id__revise_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lesson_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LessonPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lesson"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    withdraw_lesson_v1_lessons__lesson_id__withdraw_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lesson_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lesson"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_memories_v1_memories_get: {
        parameters: {
            query?: {
                contact_id?: string | null;
                kind?: string | null;
                trust?: string | null;
                /** @description a key, or a prefix ending in "." */
                key?: string | null;
                /** @description recorded at or after */
                since?: string | null;
                /** @description recorded before */
                until?: string | null;
                /** @description superseded,archived */
                include?: string;
                limit?: number;
                cursor?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_MemoryItem_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    remember_v1_memories_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RememberIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Remembered"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_memory_v1_memories__item_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryItem"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_memory_v1_memories__item_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryDeleted"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    edit_v1_memories__item_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemoryPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryItem"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    archive_v1_memories__item_id__archive_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryItem"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    memory_history_v1_memories__item_id__history_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryHistory"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_receipts_v1_receipts_get: {
        parameters: {
            query?: {
                lesson_id?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Receipt_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    search_v1_record_search_get: {
        parameters: {
            query: {
                q: string;
                conversation_id?: string | null;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_RecordHit_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    approve_rules_v1_rules__version_id__approve_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleVersion"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    reject_rules_v1_rules__version_id__reject_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleVersion"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    setup_state_v1_setup_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setup"];
                };
            };
        };
    };
    setup_business_v1_setup_business_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupBusinessIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setup"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    setup_helps_v1_setup_helps_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupHelpsIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setup"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    setup_knowledge_v1_setup_knowledge_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupKnowledgeIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetupItems"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    setup_approve_v1_setup_knowledge__part___item_id__approve_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                part: string;
                item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetupApproval"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    setup_preview_v1_setup_preview_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupPreviewIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatReply"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    setup_teach_v1_setup_teach_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupTeachIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Taught"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    standards_v1_standards_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_RuleVersion_"];
                };
            };
        };
    };
    propose_standards_v1_standards_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StandardsIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleVersion"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    rollback_standards_v1_standards_rollback_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RollbackIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleVersion"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    set_test_clock_v1_test_clock_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestClockIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Clock"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_ticket_adapter_v1_ticket_adapter_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settings"];
                };
            };
        };
    };
    put_ticket_adapter_v1_ticket_adapter_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketAdapterIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settings"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_ticket_adapter_v1_ticket_adapter_delete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settings"];
                };
            };
        };
    };
    list_tickets_v1_tickets_get: {
        parameters: {
            query?: {
                contact_id?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Ticket_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    open_ticket_v1_tickets_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_unanswered_v1_unanswered_get: {
        parameters: {
            query?: {
                status?: ("open" | "closed") | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Unanswered_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    record_unanswered_v1_unanswered_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UnansweredIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Unanswered"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_usage_v1_usage_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
        };
    };
    create_user_v1_users_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_user_v1_users__user_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    entries_v1_users__user_id__notebook_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_NotebookEntry_"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    add_v1_users__user_id__notebook_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotebookIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotebookAdded"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    forget_phrase_v1_users__user_id__notebook_delete: {
        parameters: {
            query?: {
                phrase?: string;
            };
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Removed"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    block_v1_users__user_id__notebook_block_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotebookBlock"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    forget_v1_users__user_id__notebook__entry_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
                entry_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Removed"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    rotate_v1_webhook_secret_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Secret"];
                };
            };
        };
    };
    receive_v1_webhooks__workspace_id___channel__post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workspace_id: string;
                channel: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Received"];
                };
            };
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Received"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_workspace_v1_workspace_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
        };
    };
    create_workspace_v1_workspaces_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
}
