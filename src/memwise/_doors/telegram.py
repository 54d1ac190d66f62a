"""The Telegram door (seed 000): long polling with python-telegram-bot.

The window is held in this process (:class:`TelegramWindows`): thirty minutes after the last
message a chat's state is gone and its conversation ends (queued for extraction when the
gates allow); the model sees the last eight earlier messages plus the current one; a pending
confirmation is kept beside the transcript; messages older than ten minutes on arrival are
ignored with a short notice; a restart clears everything. Staff are recognised by their
Telegram user id (``POST /v1/users {telegram_id}``), so a person's notebook follows them
between the web and Telegram; everyone else is a contact, found or created by Telegram id.

:class:`TelegramDoor` is the logic and knows nothing of Telegram's API; :func:`build_bot`
wires it into python-telegram-bot (``memwise[telegram]``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memwise import errors
from memwise._ids import ContactId, ConversationId, WorkspaceId
from memwise._policies.telegram import TelegramWindows
from memwise._services.facade import Memwise

HELP = (
    "I'm the assistant. Ask me anything.\n"
    "/reset — start a clean conversation (what follows is not remembered)\n"
    "/memory — what I keep for you\n"
    "/forget <words> — remove what contains those words"
)
# A conversation has one participant: in a group everyone's messages would land in the first
# sender's conversation (one member planting facts on another, reading their notes, or a
# staff member's notebook). Groups get this answer and nothing is recorded.
ONE_TO_ONE = "I only talk one to one: please message me directly."


@dataclass(frozen=True)
class Incoming:
    chat_id: int
    sender_id: int
    sender_name: str
    text: str
    sent_at: datetime

    @property
    def private(self) -> bool:
        """A private chat: Telegram gives it the id of the person in it."""
        return self.chat_id == self.sender_id


@dataclass(frozen=True)
class Participant:
    staff: bool
    id: str  # a user id for staff, a contact id for customers


class TelegramDoor:
    """One agent of one workspace answering on Telegram."""

    def __init__(self, mw: Memwise, workspace_id: WorkspaceId, agent_id: str) -> None:
        self.mw = mw
        self.workspace_id = workspace_id
        self.agent_id = agent_id
        policy = mw.windows.limits_for(workspace_id, agent_id).telegram
        self.windows = TelegramWindows(mw.rt.clock, policy, on_expire=self._expired)
        self._clean_next: set[Hashable] = set()  # chats whose next conversation is excluded

    def key(self, chat_id: int) -> Hashable:
        return (self.workspace_id, chat_id)

    # -- who is writing --------------------------------------------------------------------
    def participant(self, msg: Incoming) -> Participant:
        ws, sender = self.workspace_id, str(msg.sender_id)
        user = self.mw.tenancy.user_by_telegram(ws, sender)
        if user is not None:
            return Participant(True, user.id)
        name = msg.sender_name.strip() or f"Telegram {sender}"
        found = self.mw.tenancy.resolve_contact(ws, "telegram", sender, create=True, name=name)
        assert found.contact_id is not None  # several matches: a contact of its own, no guess
        return Participant(False, found.contact_id)

    # -- messages --------------------------------------------------------------------------
    def message(self, msg: Incoming) -> list[str]:
        """Answer one text message; returns the replies to send."""
        key = self.key(msg.chat_id)
        self.windows.sweep()  # end the conversations of chats gone idle
        if not msg.private:
            return [ONE_TO_ONE]
        off = self._door_off()  # a door switched off: nothing recorded, nobody created
        if off:
            return [off]
        staff = self.mw.tenancy.user_by_telegram(self.workspace_id, str(msg.sender_id))
        received = self.windows.receive(
            key, msg.text, msg.sent_at, role="user" if staff else "customer"
        )
        if received.ignored:  # nothing acted on, nobody created
            return [received.notice or "That message arrived too late; please send it again."]
        conversation_id = received.conversation_id or self._start(key, self.participant(msg))
        earlier = received.transcript[:-1]
        try:
            reply = self.mw.chat(
                self.workspace_id,
                ConversationId(conversation_id),
                msg.text,
                messages=earlier,
                actor=f"telegram:{msg.sender_id}",
            )
        except errors.Invalid as exc:
            return [f"I couldn't take that: {exc.message}"]
        except errors.Unavailable:  # the model is down: the message is recorded, say so
            return ["I can't answer right now. Your message is noted; please try again shortly."]
        self.windows.add_reply(key, reply.reply)
        return [reply.reply]

    def _start(self, key: Hashable, who: Participant) -> str:
        clean = key in self._clean_next
        self._clean_next.discard(key)
        conv, _ = self.mw.record.start(
            self.workspace_id,
            self.agent_id,
            "telegram",
            user_id=who.id if who.staff else None,
            contact_id=None if who.staff else ContactId(who.id),
            excluded_from_memory=clean,
            thread=f"telegram:{key[1] if isinstance(key, tuple) else key}",
            live=True,
        )
        self.windows.bind(key, conv.id)
        return conv.id

    def _expired(self, key: Hashable, conversation_id: str | None) -> None:
        if conversation_id:
            self.mw.record.end(self.workspace_id, ConversationId(conversation_id))

    # -- commands --------------------------------------------------------------------------
    def reset(self, chat_id: int) -> str:
        """/reset: clear the window and pending state now; the next conversation is clean."""
        key = self.key(chat_id)
        conversation_id = self.windows.reset(key)
        if conversation_id:
            self.mw.windows.reset(self.workspace_id, ConversationId(conversation_id))
            self.mw.record.end(self.workspace_id, ConversationId(conversation_id))
        self._clean_next.add(key)
        return "Done — we start again from a clean page. What we say next is not remembered."

    def _door_off(self) -> str | None:
        """The answer when this agent's Telegram door is switched off (nothing else done)."""
        try:
            self.mw.tenancy.require_door(self.workspace_id, self.agent_id, "telegram")
        except errors.Conflict:
            return "This assistant is not taking Telegram messages at the moment."
        return None

    def memory(self, msg: Incoming) -> str:
        """/memory: a staff user's notebook, or what is remembered about a customer."""
        if not msg.private:
            return ONE_TO_ONE
        off = self._door_off()
        if off:
            return off
        who = self.participant(msg)
        if who.staff:
            entries = self.mw.notebook.entries(self.workspace_id, who.id)
            if not entries:
                return "Your notebook is empty. Say “remember …” to add a working rule."
            return "Your rules:\n" + "\n".join(f"{n}. {e.text}" for n, e in enumerate(entries, 1))
        # what the customer said or what was learned from it; an operator's notes are staff
        # context, never quoted to the customer
        items = [
            s
            for s in self.mw.memory.items(self.workspace_id, ContactId(who.id))
            if s.item.source.value != "operator"
        ]
        if not items:
            return "I don't keep anything about you yet."
        lines = [f"• {s.item.text}" for s in items[:20]]
        return "What I remember about you:\n" + "\n".join(lines)

    def forget(self, msg: Incoming, phrase: str) -> str:
        """/forget: staff remove notebook rules; a customer's request goes to the team."""
        if not msg.private:
            return ONE_TO_ONE
        off = self._door_off()
        if off:
            return off
        phrase = phrase.strip()
        if not phrase:
            return "Tell me what to forget, e.g. /forget formal tone"
        who = self.participant(msg)
        if who.staff:
            removed = self.mw.notebook.forget_phrase(
                self.workspace_id, who.id, phrase, actor=f"telegram:{msg.sender_id}"
            )
            if not removed:
                return "No rule contains those words."
            return f"Removed {removed} rule{'s' if removed != 1 else ''}."
        self.mw.tickets.open(
            self.workspace_id,
            subject="Customer asked us to forget something",
            body=f"Via Telegram, the customer asked to forget: {phrase[:500]}",
            contact_id=ContactId(who.id),
            actor=f"telegram:{msg.sender_id}",
        )
        return "I've asked the team to remove that; they will confirm once it is done."


def incoming(update: Any) -> Incoming | None:
    """The parts of a python-telegram-bot Update the door needs (None: not a text message)."""
    message = update.effective_message
    user = update.effective_user
    if message is None or user is None or message.text is None:
        return None
    name = " ".join(p for p in (user.first_name, user.last_name) if p)
    return Incoming(message.chat_id, user.id, name, message.text, message.date)


def build_bot(door: TelegramDoor, token: str, *, base_url: str | None = None) -> Any:
    """A python-telegram-bot Application that serves ``door`` (start it with run_polling)."""
    from telegram import Update
    from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters

    builder = Application.builder().token(token)
    if base_url:
        builder = builder.base_url(base_url.rstrip("/") + "/bot")
    application = builder.build()

    async def reply_all(update: Update, texts: list[str]) -> None:
        if update.effective_message is None:
            return
        for text in texts:
            await update.effective_message.reply_text(text)

    async def on_text(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        msg = incoming(update)
        if msg is not None:
            await reply_all(update, await asyncio.to_thread(door.message, msg))

    async def on_reset(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        msg = incoming(update)
        if msg is not None and not msg.private:
            await reply_all(update, [ONE_TO_ONE])
        elif update.effective_chat is not None:
            await reply_all(update, [await asyncio.to_thread(door.reset, update.effective_chat.id)])

    async def on_memory(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        msg = incoming(update)
        if msg is not None:
            await reply_all(update, [await asyncio.to_thread(door.memory, msg)])

    async def on_forget(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        msg = incoming(update)
        if msg is not None:
            phrase = " ".join(context.args or [])
            await reply_all(update, [await asyncio.to_thread(door.forget, msg, phrase)])

    async def on_help(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        await reply_all(update, [HELP])

    application.add_handler(CommandHandler(["start", "help"], on_help))
    application.add_handler(CommandHandler("reset", on_reset))
    application.add_handler(CommandHandler("memory", on_memory))
    application.add_handler(CommandHandler("forget", on_forget))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, on_text))
    return application
