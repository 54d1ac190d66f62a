"""The claim chart as code: which part must answer a question.

live_record (orders, invoices, balances, shipments) · knowledge (product, compatibility,
warranty, price, software, policy) · contact_notes (what did I ask before) · notebook (how
staff want work done) · window (what was just said). Offline it is rule-based; with a model
it is the model's tool choice, and this router still keeps operational facts away from memory.
"""

from __future__ import annotations

import re

from memwise._safety import secrets

_LIVE = re.compile(
    r"\b(?:where(?:'s| is) my|status of my|track(?:ing)?|has my .{0,20}(?:shipped|arrived|been)|"
    r"my (?:order|invoice|parcel|package|shipment|delivery|refund|payment|balance|bill|account "
    r"balance)|order\s*(?:#|no\.?|number)?\s*\d+|invoice\s*(?:#|no\.?)?\s*[\w-]*\d|"
    r"how much do i owe|"
    r"outstanding|(?:did|has) (?:you|it) (?:ship|arrive)|when will (?:it|my .{0,20}) (?:arrive|"
    r"ship|be delivered)|have you received my payment|is my .{0,20}paid|credit (?:on|left)|"
    r"refund (?:status|processed|come through))\b",
    re.I,
)
_NOTEBOOK = re.compile(
    r"^\s*(?:/remember|/forget|remember\b(?!\s+(?:me|when|what|that time))|forget\b|"
    r"what do you remember|what are my rules|list (?:my )?rules|show (?:my )?(?:rules|notebook))"
    r"|\b(?:how (?:do|did) i (?:want|like)|my (?:working )?rules?)\b",
    re.I,
)
_NOTES = re.compile(
    r"\b(?:what did i (?:ask|tell|say|order|mention)|(?:last|previous|earlier) (?:time|visit|"
    r"conversation|chat)|did i (?:tell|mention|say)|do you remember (?:me|what i|when i)|"
    r"as i (?:said|told you) before|my (?:previous|last) (?:question|request|enquiry))\b",
    re.I,
)
_WINDOW = re.compile(
    r"\b(?:what did you just say|you (?:just )?said|say that again|repeat that|(?:in|from) "
    r"(?:this|our) (?:chat|conversation)|what was (?:your|the) last (?:answer|message)|"
    r"as you mentioned|scroll up|above)\b",
    re.I,
)


def route(question: str) -> str:
    """live_record, notebook, contact_notes, window or knowledge (the default)."""
    if _NOTEBOOK.search(question):
        return "notebook"
    if _LIVE.search(question):
        return "live_record"
    if _NOTES.search(question):
        return "contact_notes"
    if _WINDOW.search(question):
        return "window"
    return "knowledge"


_ID = re.compile(
    r"\b(?:order|invoice|shipment|parcel|package)?\s*(?:#|no\.?|number)?\s*"
    r"([A-Z]{0,4}-?\d{2,}[\w-]*)\b",
    re.I,
)


def live_target(question: str) -> tuple[str, str | None]:
    """(kind, item id) of a live-record question: order, invoice, shipment or balance."""
    q = question.lower()
    kind = (
        "invoice"
        if re.search(r"\binvoice|bill\b", q)
        else "shipment"
        if re.search(r"\bshipment|tracking|parcel|package|delivery|arriv", q)
        else "balance"
        if re.search(r"\bbalance|owe|credit|outstanding|refund|payment|paid\b", q)
        else "order"
    )
    m = _ID.search(secrets.redact(question))  # a card's digits are never an order number
    item = m.group(1) if m else None
    if kind == "shipment" and item is None:
        kind = "order" if re.search(r"\border\b", q) else kind
    return kind, item
