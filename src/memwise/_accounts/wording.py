"""The sentence the assistant may say for each result. Never "no such order" on a failure."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from memwise._accounts.source import Result

NAMES = {
    "order": "order",
    "invoice": "invoice",
    "shipment": "shipment",
    "balance": "balance",
    "card": "account",
}


def sentence(result: Result, item_id: str | None, zone: ZoneInfo) -> str:
    what = NAMES.get(result.kind, result.kind)
    ref = f" {item_id}" if item_id else ""
    if result.status == "found":
        when = result.read_at.astimezone(zone).strftime("%d %b %Y %H:%M") if result.read_at else ""
        facts = ", ".join(
            f"{k}: {v}"
            for k, v in result.data.items()
            if k not in ("id",) and not isinstance(v, dict | list)
        )
        return f"As of {when}, {what}{ref} — {facts}."
    if result.status == "not_found":
        return f"There is no such {what}{ref} on your account."
    if result.status == "refused":
        return (
            "I can only look at the account this conversation belongs to, "
            f"so I can't check that {what}."
        )
    if result.status == "unbound":
        return (
            "I can't see an account for this conversation yet, so I can only help with "
            "general questions."
        )
    return "I couldn't check just now. Please try again in a little while."
