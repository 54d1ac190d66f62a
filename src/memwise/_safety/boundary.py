"""The memory write boundary: what may never become a contact memory item, whoever proposed it.

A proposed item (from the rule extractor, a model, an operator's note or a library caller)
is classified before anything is written. Five classes are refused: ``absence`` (not on
record, not found, could not be checked: unknown stays unknown); ``operational`` (orders,
invoices, shipments, payments, refunds, balances, billing: the live account record holds
them, read fresh); ``instruction`` (text aimed at the assistant: data, never a rule);
``entitlement`` (claimed discounts, free items, waived fees, agreements: a record line for a
person to check); ``secret`` (cards, IBANs, identifiers, passwords, tokens: ``secrets``).

The rules are concepts (a negation near a lookup; a transaction noun with a state, an event
or an amount; a control verb aimed at the assistant; a benefit with a grant), and, for
absences, a negated clause read off the parse (:mod:`memwise._text.parse`). What they pass,
a learned classifier (:mod:`memwise._safety.learned`) looks at again for proposed items.
``bench/boundary_bench.py`` measures both on the labelled sets (``tests/data/boundary_*``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memwise import errors
from memwise._safety import instructions, learned, secrets
from memwise._text import parse, words

CLASSES = ("absence", "operational", "instruction", "entitlement", "secret")

_APOS = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'"})


def normal_form(text: str) -> str:
    """The text as the rules and the classifiers read it (apostrophes, spaces, contractions)."""
    t = " ".join(text.translate(_APOS).split())
    t = _BARE_CONTRACTION.sub(lambda m: m.group(1) + "n't", t)
    return re.sub(
        r"\b(\w+)n't\b", r"\1 not", t.replace("can't", "can not").replace("won't", "will not")
    )


# contractions typed without their apostrophe ("dont", "hasnt"); "cant" and "wont" are
# words of their own and are left as written
_BARE_CONTRACTION = re.compile(
    r"\b(do|does|did|have|has|had|is|are|was|were|could|would|should)nt\b", re.I
)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


# -- absence: a negation or failure near a lookup or the record ---------------------------
_NEGATION = (
    r"(?:\bno\b|\bnot\b|\bnever\b|\bnone\b|\bnothing\b|\bnobody\b|\bunable\b|\bfailed\b|"
    r"\bfailure\b|\bunknown\b|\bno longer\b|\bcould not\b|\bcan not\b|\bcannot\b|\bwithout any\b|"
    r"\bmissing\b|\berror\b|\bunavailable\b|\bdown\b|\btimed out\b|\bunverified\b|"
    r"\bnot possible\b|\bimpossible\b|\bunclear\b|\binconclusive\b|\bbounced\b|\binvalid\b)"
)
_LOOKUP = (
    r"(?:\brecords?\b|\bon file\b|\bfile\b|\bsystems?\b|\bdatabase\b|\bcrm\b|\blook ?up\b|"
    r"\blookups?\b|\bfound\b|\bfind\b|\blocated?\b|\bretrieved?\b|\bverif(?:y|ied)\b|"
    r"\bcheck(?:ed)?\b(?!-)|\bconfirm(?:ed)?\b|\bexists?\b|\btrace\b|\bregistered\b|\bhistory\b|"
    r"\baccounts?\b|\bbookings?\b|\bsubscriptions?\b|\btickets?\b|\bprofile\b|\bmatch(?:ing)?\b|"
    r"\bidentif(?:y|ied)\b|\bsee\b|\bshows?\b|\bstatus\b|\bpulled up\b|\bcome up\b|"
    r"\bunder (?:her|his|their|that|this) name\b|\bwith us\b|\bfrom us\b|\bin our\b|\bour end\b|"
    r"\bregistrations?\b|\binformation\b|\binfo\b|\bdetails\b|\bdata\b|\bentr(?:y|ies)\b|"
    r"\bvalidated?\b|\brecogni[sz]ed\b|\bmatched\b|\breturned\b|\bresults?\b|"
    r"\bsearch(?:ed|es|ing)?\b|"
    r"\bverification\b|\bidentification\b|\bvalidation\b|\bdetermined?\b|\bestablished\b|"
    r"\bids?\b|\btranscripts?\b|\bon our (?:side|end)\b)"
)
_ABSENCE_NEAR = _rx(
    rf"{_NEGATION}(?:\W+\w+){{0,7}}?\W+{_LOOKUP}|{_LOOKUP}(?:\W+\w+){{0,8}}?\W+{_NEGATION}"
)
_ABSENCE_DIRECT = _rx(
    r"\b(?:does not|do not|did not) (?:exist|appear|show up|come up)\b"
    r"|\b(?:nothing|no (?:results?|matches|hits|records?|trace)) (?:turned|showed|came) up\b"
    r"|\b(?:we|i|staff|nobody|no one|they) (?:do not |does not |did not |can not )?(?:know|knows|"
    r"knew)\b(?! how\b)|\bnot known\b|\b(?:is|are|was|were|remains?|still) unknown\b"
    r"|\bunknown[.!]?$|\bno idea (?:which|what|whether|if|where)\b"
    r"|\bno (?:valid|known|current|usable|working|verified|matching) "
    r"(?!(?:allerg|medical|health|conditions?\b|dietary|intolerance|pets?\b|plans?\b|partner|"
    r"children|kids|medication|issues?\b|problems?\b))\w+"
    r"|\bno (?:such|trace|sign) of\b"
    r"|\bcould not be (?:checked|verified|found|confirmed|located|retrieved)\b"
    r"|\bunknown (?:account|customer|order|number|status)\b|\b(?:account|status) unknown\b"
    r"|\b(?:nobody|no one|no-one|no customer|no client|no patient|no guest|no member) "
    r"(?:\w+ )?(?:by|of|with|under|called) (?:that|this|the) name\b"
    r"|\bnot (?:someone|somebody|anyone|a person|a customer|a client) "
    r"(?:we|i)(?:'ve| have| has| had)? "
    r"(?:ever |before )?(?:dealt|worked|spoken|met|seen|served|heard of)\b"
    r"|\b(?:never|not) (?:\w+ )?(?:dealt|done business) with (?:us|him|her|them)\b"
    r"|\b(?:never|not) (?:\w+ )?been in touch with us\b"
    r"|\b(?:e-?mail|email address|address|number|phone number)s? (?:\w+ )?(?:bounced|"
    r"is invalid|not valid|unreachable|disconnected|no longer in use)\b"
    r"|\bnew to us\b|\bfirst[- ]time (?:customer|caller|client|contact)\b"
    r"|\bfirst (?:ever )?(?:contact|enquiry|inquiry|time (?:contacting|calling|writing|ordering|"
    r"getting in touch|hearing))\b"
    r"|\b(?:last|previous|prior|first|latest) (?:visit|order|purchase|booking|contact|"
    r"appointment|payment)s?(?: date)?\s*[:\-–]\s*(?:none|n/?a|never|unknown|nil|-+)\W*$"
    r"|\bdate of (?:last|previous|first) \w+\s*[:\-–]\s*(?:none|n/?a|never|unknown|nil|-+)\W*$"
)

# -- operational: a transaction noun with a state, an event, an id or an amount -----------
_TXN = (
    r"(?:orders?|ordered|items?|box|boxes|bookings?|reservations?|deposits?|dpd|dhl|ups|fedex|"
    r"hermes|gls|usps|royal mail|invoices?|bills?|billing|shipments?|shipping|parcels?|"
    r"packages?|deliver(?:y|ies)|"
    r"couriers?|tracking|refunds?|payments?|paid|pay|charges?|balance|credits?|subscriptions?|"
    r"transactions?|returns?|returned|exchange|replacement|consignment|customs|purchase|"
    r"receipt|direct debit|bank transfer|instal?ments?|fees?|debt|arrears|cheques?|"
    r"sim swap|porting|number port|number transfer)"
)
_STATE = (
    r"(?:shipped|dispatched|delivered|arrived|arriving|lost|stuck|delayed|held|in transit|"
    r"out for delivery|processed|processing|refunded|cancell?ed|declined|bounced|failed|"
    r"rejected|unpaid|paid|outstanding|overdue|pending|due|owed|owes|owing|renews?|renewed|"
    r"charged|billed|returned|reversed|on hold|waiting for|awaiting|expected|arrives|"
    r"issued|credited|debited|missing|damaged|sent|received|collected|picked up|confirmed|"
    r"went through|has not come|never came|did not arrive|not arrived|"
    r"late(?![- ](?:evening|morning|afternoon|night|slots?|opening|in the day|risers?))|"
    r"came back|scheduled|"
    r"backordered|back-ordered|on backorder|out of stock|dropped off|left at|left outside|"
    r"left (?:the |his |her |their |a )?(?:\w+ )?(?:at the|outside|with (?:a |the |their |his |"
    r"her )?neighbou?r|behind|by the|on the (?:door|step|porch|doorstep|mat))|"
    r"left with|sitting|held up|in progress|being (?:processed|shipped|prepared|handled)|ships|"
    r"booked|paused|suspended|frozen|resumes|expires|expired|lapsed|split|tried to deliver|"
    r"attempted|on (?:its|the|their) way|moved|rescheduled|postponed|brought forward|reserved|"
    r"completed|ends|ending|ended|approved|rejected|settled|cleared)"
)
_AMOUNT = (
    r"(?:[$€£¥]\s?\d[\d.,]*|\d[\d.,]*\s?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|francs?|"
    r"sek|nok|dkk|pln|yen|bucks|quid|cents?)\b)"
)
_ID = r"(?:#\s?\d{3,}|\b[A-Z]{2,5}-?\d{3,}\b|\b\d{4,}\b|\b1Z[0-9A-Z]{8,}\b)"
_OPERATIONAL_NEAR = _rx(
    rf"\b{_TXN}\b(?:\W+\w+){{0,8}}?\W+\b{_STATE}\b"
    rf"|\b{_STATE}\b(?:\W+\w+){{0,4}}?\W+(?:the |his |her |their |my |an? )?\b{_TXN}\b"
)
_OPERATIONAL_DIRECT = _rx(
    r"\b(?:owes?|owed|owing|in arrears|in debt to us)\b|\b(?:tracking|order|invoice|shipment|"
    r"parcel|case|ticket|reference|confirmation) (?:number|code|id|no\.?)\b"
    r"|\bamount (?:due|owed|of)\b"
    r"|\b(?:account|outstanding|remaining|current) balance\b|\bbalance (?:is|was|of|stands)\b"
    r"|\b(?:last|next|first|latest|recent) "
    r"(?:payment|invoice|bill|order|delivery|shipment|refund)\b"
    r"|\bwaiting for (?:the|his|her|their|my) (?:money|refund|parcel|package|order|delivery)\b"
    r"|\brenews? on\b|\bin customs\b|\bcredit (?:note|of)\b|\bchargeback\b"
    r"|\btracking (?:shows|says|status|info|page|update)\b|\bbehind (?:on|with) (?:\w+ )?"
    r"(?:payments?|fees|rent|bills?|instal?ments?|subscription)\b|\b(?:months?|weeks?) behind\b"
    r"|\bsent (?:\w+ ){0,3}back\b|\bwaiting (?:on|for) (?:the |his |her |their |my )?"
    r"(?:money|refund|reimbursement|replacement|parcel|package|order|delivery)\b"
    r"|\bat the (?:\w+ )?(?:depot|warehouse|hub|sorting cent(?:er|re)|post office)\b"
    r"|\bpaid in full\b|\bfully paid\b|\bcheque (?:\w+ )?(?:bounced|cleared|returned)\b"
    r"|\b(?:in|at) the (?:workshop|garage|repair shop|lab|laboratory) (?:\w+ ){0,2}"
    r"(?:waiting|being (?:repaired|fixed|serviced|looked at)|for (?:a |an |its )?(?:repair|"
    r"service|mot|parts|new))\b|\bsent (?:off )?to the (?:lab|laboratory|workshop|"
    r"manufacturer|factory)\b|\bwaiting (?:on|for) (?:an? |the )?(?:\w+ )?parts?\b"
    r"|\b(?:account|acct|membership|login|card|sim|subscription|plan|policy|contract|"
    r"profile|broadband|direct debit|loyalty card)\b(?: on (?:file|record))?(?: (?:is|was|"
    r"has been|got|remains|now|currently|still))* (?:frozen|on hold|locked|locked out|blocked|"
    r"suspended|closed|deactivated|disabled|cancell?ed|terminated|in arrears|flagged|restricted|"
    r"overdrawn|paused|cut off|lapsed|expired|declined|rejected|refused|bounced|charged back|"
    r"reversed)\b"
    r"|\b(?:broadband|line|service) (?:was |is |has been )?cut off\b"
    r"|\b(?:charged|billed|debited) (?:twice|double|two times|again|wrongly|incorrectly)\b"
    r"|\b(?:double|over)[- ]?(?:charged|billed)\b"
    r"|\b(?:has not|hasn't|have not|haven't|did not|didn't|never|not yet|still not) (?:yet )?"
    r"(?:received|receive|got|gotten|get) (?:the|her|his|their|its|my|an?|any) (?!reply|answer|"
    r"response|call|callback|email|letter|news|chance|idea)\w+"
    r"|\b(?:arrived|came|was delivered|were delivered|turned up|showed up|came back) "
    r"(?:\w+ )?(?:damaged|broken|smashed|torn|faulty|defective|scratched|dented|incomplete|"
    r"opened|wrong)\b"
    r"|\bwants? (?:the |her |his |their |my )?money back\b|\b(?:asked|asking|asks|demand\w*) "
    r"for (?:a |the |her |his |their )?(?:refund|replacement|money back|reimbursement)\b"
    r"|^\W*(?:free |the |her |his )?trial (?:period )?"
    r"(?:ends|expires|ending|runs out|ended|expired)\b|\bunpaid invoices?\b"
)

# a loyalty status or tier is what the account record says today, never memory
_STATUS = _rx(
    r"^\W*vip\W*$|\bvip\W*$|\bvip (?:member|customer|client|guest|status|tier|level|since|card)"
    r"|\b(?:is|as|being) an? vip\b(?! (?:host|lounge|area|section|tickets?))"
    r"|\b(?:gold|silver|platinum|diamond|bronze|black|premium|ambassador|elite|prestige|titanium|"
    r"sapphire|ruby|emerald|onyx|obsidian|infinite|signature|top|priority)[- ]?"
    r"(?:tier|status|member(?:ship)?|card ?holder|customer|elite|plus)\b"
    r"(?! (?:of|at|in) (?:the |a |her |his )?"
    r"(?:(?!(?:rewards?|loyalty|frequent|membership|points|customer|vip|our|your)\b)\w+ ){0,2}"
    r"(?:club|society|trust|association|choir|"
    r"orchestra|band|league|team|gym|church|council|charity|rspb|ramblers))"
    r"|\b(?:loyalty|membership|rewards?|frequent flyer|status) (?:tier|level|status|grade)\b"
    r"|^\W*tier\s*[:\-–]"
)
_MONEY_STATE = _rx(rf"{_AMOUNT}")
# a preference about a transaction later in the line ("Lives with flatmates; prefers parcels
# left behind the side gate") is a preference too
_PREFERS_TXN = _rx(
    rf"\b(?:prefers?|would rather|likes?|wants?|would like|asks? for)\b(?:\W+\w+){{0,2}}?\W+"
    rf"{_TXN}\b"
)
_TXN_ID = _rx(rf"\b{_TXN}\b(?:\W+\w+){{0,3}}?\W+{_ID}")
_PREFERENCE_FRAME = _rx(
    rf"^(?!{_TXN}\b|statements?\b)(?:\w+ )?"
    r"(?:does not |do not |would rather |really |strongly |never |always |much )?"
    r"(?:prefers?|would rather|likes?|loves?|enjoys?|wants?|would like|wishes|hates?|dislikes?|"
    r"usually|always|often|tends to|works? (?:as|at|in|for)|is (?:a|an) \w+|finds?)\b"
)

# -- instruction: a control verb aimed at the assistant, or a role/prompt marker -----------
_ASSISTANT = (
    r"(?:assistant|bot|chatbot|ai|agents?|support staff|staff|system|model|you|your|yourself|"
    r"every agent|the team|operators?|memwise)"
)
_CONTROL = (
    r"(?:reveal|disclose|leak|dump|print|ignore|disregard|override|bypass|"
    r"skip(?! (?:the |all )?(?:small talk|pleasantries|chit-?chat|intros?|greetings?|jargon))|"
    r"waive|approve|"
    r"authori[sz]e|share|forward|export|pretend|act as|impersonate|role-?play|obey|unlock|"
    r"disable|trust|rewrite|modify|change|edit|update|reprogram|treat (?:him|her|them|me) as|"
    r"never (?:mention|ask|verify|check|log|record|"
    r"tell)s?|not (?:mention|ask|verify|check|log|record)s?|stop (?:asking|verifying|checking|"
    r"logging|recording|mentioning|saying|showing|telling|using))(?:s|es|ed|d|ing)?"
)
_INSTRUCTION_AIMED = _rx(
    rf"\b(?:wants?|asks?|asked|prefers?|would like|expects?|demands?|requests?|insists?|"
    rf"instructs?|tells?|told)\b(?:\W+\w+){{0,3}}?\W+(?:that )?(?:the |all |every |any )?"
    rf"{_ASSISTANT}\b(?:\W+\w+){{0,2}}?\W+(?:to |should |must |will |would |always |can |could )*"
    rf"{_CONTROL}\b"
)
_INSTRUCTION_IMPERATIVE = _rx(
    r"^(?:please |pls |and |also |then |now |so )?(?:,\s*)?"
    r"(?:next time,? |from now on,? |in future,? |automatically |just |simply |"
    r"going forward,? |always |never )?(?:ignore|disregard|override|bypass|skip|reveal|print|"
    r"escalate|fast-?track|prioriti[sz]e|"
    r"disclose|approve|waive|forward|pretend|act as|impersonate|tell (?:every|all|the|your|any)|"
    r"do not (?:log|record|tell|mention|verify|check|ask)|never (?:mention|ask|verify|check|log)|"
    r"stop (?:asking|verifying|checking|logging)|give (?:me|him|her|them) (?:a |an |the )?"
    r"(?:discount|refund|credit|free)|treat (?:me|him|her|them) as|call (?:me|him|her|them) "
    r"(?!back\b|on\b|at\b|in\b|after\b|before\b|only\b|between\b|during\b)\w+$)(?![a-z])"
)
_ASSISTANT_STRICT = r"(?:the )?(?:assistant|bot|chatbot|ai|model|system|agent)"
_INSTRUCTION_SUBJECT = _rx(
    rf"{_ASSISTANT_STRICT} (?:should|must|shall|needs to|has to|is to|ought to|will always|"
    rf"will never)\b|{_ASSISTANT_STRICT}(?:\W+\w+){{0,2}}?\W+{_CONTROL}\b"
)
_INSTRUCTION_MARKERS = _rx(
    r"\bwithout (?:any )?(?:safety |content )?(?:filters?|restrictions|rules|guardrails|limits|"
    r"checks|moderation)\b|\bunrestricted\b|\bno (?:rules|filters|restrictions|limits)\b"
    r"|\bwithout (?:asking|checking with|involving|consulting) (?:a |any )?(?:human|person|"
    r"manager|staff|supervisor|anyone)\b|\bwithout double-checking\b"
    r"|\b(?:store|save|remember|keep|note|record) (?:this|that|it) as (?:a )?(?:permanent |"
    r"standing |new |fixed )?(?:rule|instruction|policy|fact)\b|\bpermanent rule\b"
    r"|\b(?:are|is) always (?:approved|accepted|granted|refunded|waived)\b"
    r"|\bauto-?(?:approve|accept|refund|confirm)\b|\bcontent filters?\b|\bsafety (?:filters?|"
    r"settings|checks)\b|\bobey\b|\b(?:store|save|keep|put|write) (?:this|that|it) (?:in|into|to) "
    r"(?:your |the )?memory\b|\bits (?:own )?(?:rules|instructions|prompt|guidelines|settings|"
    r"persona|personality)\b|\b(?:future|all|other) (?:assistants|bots|agents)\b"
    r"|\bsystem prompt\b|\bhidden (?:rules|prompt|instructions)\b|\bdeveloper mode\b|\bjailbreak\b"
    r"|\b(?:your|the) (?:instructions|guidelines|rules|policy|policies|prompt|configuration)\b"
    r"(?:\W+\w+){0,3}?\W+(?:ignore|disregard|override|reveal|bypass|skip|change)"
    r"|\b(?:ignore|disregard|override|bypass|skip|break|change)\b(?:\W+\w+){0,3}?\W+"
    r"(?:the |your |company |our |any |all )*(?:instructions|guidelines|rules|policy|policies|"
    r"limits?|checks?|verification|security|prompt)\b"
    r"|^\s*(?:system|assistant|developer|admin)\s*:"
    r"|\bis (?:an? )?(?:administrator|admin|superuser|root)\b"
    r"|\b(?:other|another) (?:customers?|users?|people)'?s?\b(?:\W+\w+){0,2}?\W+"
    r"(?:data|details|addresses|emails|information|orders|accounts?)\b"
    r"|\bwithout (?:a |any )?(?:receipt|verification|checks?|proof|id|identification)\b"
    r"|\b(?:admin(?:istrator)?|root|master|superuser|staff|internal|system|backend|database) "
    r"(?:passwords?|credentials?|logins?|keys?|access|panel|console)\b"
    r"|\b(?:read (?:out|back|aloud)|reveal|share|show|leak|send|forward|dump)\b(?:\W+\w+){0,3}?\W+"
    r"(?:internal|private|staff|hidden|confidential|other customers?'?s?)\b"
    r"|\binternal (?:notes?|memos?|documents?|records|systems?|tools?)\b"
    r"|\b(?:skip(?:s|ped|ping)?|bypass\w*|waive\w*|drop(?:s|ped|ping)?|without) "
    r"(?:the |any |all |those |these )?(?:identity|id|security|verification|fraud|age|kyc|"
    r"two-factor|2fa|authentication) (?:questions?|checks?|steps?|verification|process)\b"
    r"|\b(?:likes?|loves?|enjoys?|appreciates?|prefers?|wants?) (?:it )?(?:when|if) "
    r"(?:you|the assistant|the bot|staff|agents?|the team|we)\b(?:\W+\w+){0,2}?\W+"
    r"(?:skip|bypass|waive|ignore|reveal|share|disclose|approve|override)\w*"
)

# -- entitlement: a benefit with a grant, a promise or an agreement -----------------------
_BENEFIT = (
    r"(?:discount|\d{1,3}\s?(?:%|percent|per cent)(?: off)?|money off|voucher|coupon|rebate|"
    r"complimentary|free (?:of charge|shipping|delivery|postage|repairs?|replacements?|"
    r"upgrades?|service|servicing|returns?|installation|items?|gifts?|products?|months?|"
    r"year|access|support|parts|labou?r|refills?|tickets?|meals?|drinks?|for life|forever|"
    r"every|each|whenever|\w+ for)|free (?!(?:time|weekends?|evenings?|afternoons?|mornings?|"
    r"days?|nights?|spirit|range|lance|on|in|at|after|before|from|until|to|of|then|now|today|"
    r"tomorrow|till|between|most|all|every)\b)\w+|for free|"
    r"2-for-1|two for one|buy one get one|bogo|on the house|goodwill|as compensation|"
    r"\w+ (?:months?|weeks?|days?|years?|nights?) free|vip (?:pricing|price|rate|treatment)|"
    r"special pricing|permanent (?:discount|pricing|price|rate)|(?:price|rate) (?:locked|frozen|"
    r"fixed|guaranteed)|locked (?:in )?at|at no (?:extra )?(?:cost|charge)|"
    r"no (?:delivery |"
    r"shipping |service |extra |restocking |booking |cancellation )?(?:charges?|fees?|cost)|"
    r"never pays?|never (?:has|have) to pay|waived?|waiver|exemption|exempt|price match|"
    r"lifetime (?:warranty|guarantee|membership|discount)|priority (?:support|service|access)|"
    r"upgrade|full (?:price|refund)|refund (?:the|in) full|money back|credit of|store credit|"
    r"special (?:deal|price|rate|terms|arrangement|offer)|staff (?:discount|price|rate)|"
    r"(?:after|within|beyond) \d+ days|comped|comp'?d|comps|"
    r"(?:trade|corporate|staff|employee|student|senior|teachers?'?|military|nhs|veterans?'?|"
    r"friends and family|members?'?|partner|wholesale|discounted|negotiated|preferential|"
    r"reduced|concession(?:ary)?|contract|agency|industry|special \w+) "
    r"(?:pricing|prices?|rates?|discount|terms|tariff))"
)
_GRANT = (
    r"(?:gets?|getting|got|receives?|received|has|have|had|is owed|are owed|owed|entitled|"
    r"qualif(?:y|ies|ied)|eligible|promised|agreed|arranged|guaranteed|offered|assured|"
    r"told|said|allowed|approved|granted|deal|agreement|arrangement|always|every time|can|"
    r"includes?|included|contract|standing|per|applies|apply|valid|granted|due)"
)
_ENTITLEMENT_NEAR = _rx(
    rf"\b{_GRANT}\b(?:\W+\w+){{0,8}}?\W+{_BENEFIT}|{_BENEFIT}(?:\W+\w+){{0,8}}?\W+\b{_GRANT}\b"
)
_ENTITLEMENT_DIRECT = _rx(
    r"\b(?:entitled to|qualif(?:y|ies) for|eligible for|is owed an?|standing (?:agreement|"
    r"arrangement|deal|order)|special (?:deal|arrangement|agreement|terms)|was promised|"
    r"were promised|been promised|promised (?:him|her|them|me|us)|lifetime warranty|"
    r"price match guarantee|\d{1,3}\s?(?:%|percent|per cent) off|as (?:agreed|promised|arranged)|"
    r"exempt(?:ed)? from|standing (?:\w+ ){0,2}(?:offer|discount|deal)|"
    r"(?:does not|do not|did not|will not|doesn't|don't|won't|not|never) (?:have|need|has|"
    r"needs) to pay (?:for|anything|a penny|a cent|the|any|extra)|pays? (?:nothing|zero|not a "
    r"(?:penny|cent)) (?:for|on|towards)|(?:is|are|was|were|won't be|will not be) not charged "
    r"(?:for|on)|"
    r"no (?:receipt|proof|questions?) (?:needed|required|asked)|"
    r"(?:was|were|been) told (?:i|he|she|they|we) (?:can|could|would|will|may|get|gets)|"
    r"(?:covered|paid for|picked up|absorbed) by (?:the company|us|the shop|the store|you|"
    r"the business|the firm)|"
    r"(?:orders?|items?|repairs?|delivery|shipping|service|products?|parts|installation|returns?|"
    r"meals?|drinks?|coffees?|haircuts?|upgrades?|access|nights?|stays?|fees?|charges?) "
    r"(?:\w+ ){0,2}(?:is|are|will be|would be|were|get|gets) (?:free|complimentary|on the house|"
    r"waived))\b"
    r"|\b(?:manager|boss|ceo|owner|director|colleague|sales(?:person| rep| team)?|your \w+)\b"
    r"(?:\W+\w+){0,3}?\W+(?:said|agreed|promised|approved|confirmed|told|guaranteed|"
    r"arranged|authori[sz]ed|offered)\b"
)
# a terse line that leads with a benefit ("Trade pricing.", "Staff discount, 15%")
_BENEFIT_HEAD = _rx(rf"^\W*(?:\w+'?\W+){{0,2}}?{_BENEFIT}(?![a-z])")
_ABOUT_OFFERS = _rx(
    r"\b(?:e-?mails?|newsletters?|texts|messages|leaflets|matters?|must|makes?|made|annoys?|"
    r"interests?|interested|opted|go-to|bin|collector|collects|blogger|bloggers|handled|"
    r"card ?holder|"
    r"ambassador|trustee|therap\w*|charity|church|journalist|likes|loves|hates|keen|needs|prefers|"
    r"hunter|hunting|shopper|compares)\b"
)
_NOT_A_BENEFIT = _rx(
    r"\b(?:gluten|sugar|lactose|dairy|nut|peanut|wheat|egg|soy|latex|alcohol|caffeine|meat|fragrance|plastic|step|hands|"
    r"smoke|scent|cruelty|duty|tax|stress|pain)[- ]free\b|\bfree (?:time|weekends?|evenings?|"
    r"afternoons?|mornings?|days?|spirit|range|lance)\b|\bfreelanc"
    r"|\bfree (?:\w+ ){0,2}(?:mornings?|afternoons?|evenings?|nights?|weekends?|days?|weekdays?)\b"
    r"|\bfree[- ](?:spirited|running|church|climbing|diving|solo|will|thinker|form|flow|standing|"
    r"hand|style|wheeling|kick|verse|radical|mason)"
)
# with a preference frame ("Does not like being offered discounts"), a benefit counts as a
# claim only beside a grant that is one
_CLAIM = (
    r"(?:promised|agreed|arranged|guaranteed|entitled|owed|approved|granted|assured|gets|got|"
    r"receives|received|given|gave|give|pays|paid|taken off|we do|we give)"
)
_ENTITLEMENT_CLAIMED = _rx(
    rf"\b{_CLAIM}\b(?:\W+\w+){{0,8}}?\W+{_BENEFIT}|{_BENEFIT}(?:\W+\w+){{0,8}}?\W+\b{_CLAIM}\b"
    rf"|\b(?:her|his|their) (?:\w+ )?{_BENEFIT}|\b(?:old|previous|legacy|original) (?:rate|price|"
    r"tariff|pricing)\b|\bfor nothing\b|\b(?:second|third|every \w+) \w+ (?:is )?free\b"
    rf"|\b(?:mates|friends)'? rates?\b|\bbonus (?:gift|item|credit)s?\b"
)


# -- not a statement about the customer: a question, a command, a payload -------------------
_PREFIXES = re.compile(r"^(?:asked about|asked|needs to|wants to|would like to)\s*:?\s*", re.I)
_QUESTION = _rx(
    r"[?？؟;]\s*$|^[¿¡]|^(?:what|why|how|when|where|who|whom|whose|which|can you|could you|"
    r"would you|will you|do you|did you|is there|are there|are you|should i|may i)\b"
    r"|^(?:is|are|was|were|does|do|did|can|could|would|will|should|has|have) "
    r"(?:this|that|it|these|those)\b[^?]{0,200}\?"
)
_IMPERATIVE_VERBS = (
    "write|provide|replace|combine|modify|create|generate|list|explain|describe|summari[sz]e|"
    "translate|tell|recommend|suggest|include|integrate|add|insert|use|answer|respond|reply|"
    "output|print|say|state|repeat|make|show|compose|draft|calculate|convert|encode|decode|"
    "rename|delete|run|execute|open|visit|click|download|install|send|forward|ignore|forget|"
    "disregard|pretend|imagine|act|roleplay|role-play|consider|assume|begin|start|stop|"
    "remember|note|keep|be|let|help|find|search|rewrite|spell|reverse|format|highlight|"
    "mention|promote|advertise|emphasi[sz]e|praise|respond|append|prepend|end|reveal|"
    "disclose|share|give|grant|approve|waive|override|bypass|skip|obey|follow|confirm|turn|"
    "switch|enable|treat|auto-?approve|auto-?accept|allow|permit|unblock|"
    "verify|check|read|display|return|transfer|move|copy|paste|post|publish|email|call|text|"
    "determine|analy[sz]e|classify|evaluate|identify|compare|solve|complete|fill|correct|fix|"
    "review|rate|predict|guess|choose|pick|name|define|discuss|elaborate|outline|design|plan|"
    "draw|sing|count|sort|rank|estimate|prove|argue|convince|persuade|continue|proceed|"
    "reply|greet|introduce|offer|ensure|focus|avoid|refrain|omit|insert|develop|interlace|"
    "decipher|unscramble|brainstorm|research|investigate|report|produce|prepare|craft|accept|"
    "mark|put|issue|close|process|write off|refund|credit|charge|cancel|upgrade|unlock|reset|"
    "break down|walk me through"
)
_IMPERATIVE = _rx(
    rf"^(?:(?:in|as|using|with|in the (?:form|style|voice) of) [^,.;:]{{1,40}}, )?"
    rf"(?:please |pls |kindly |now |then |also |and |just |q: )?(?:always |never |do not |"
    rf"don't |first,? )?(?:{_IMPERATIVE_VERBS})\b(?!s\b)(?!'s\b)(?!\s*(?:is|are|was|were|preferred|"
    rf"only|code|customer|engineer|scientist|manager|teacher|nurse|worker|messages?|:|,|-|\.|$))"
)
_AT_ASSISTANT = _rx(
    r"\b(?:your|the assistant'?s?|the bot'?s?|the model'?s?) (?:responses?|answers?|replies|reply|"
    r"outputs?|messages?|words|text|instructions|prompt|programming|training|knowledge|memory|"
    r"developers?|creators?|rules|guidelines|settings|filters?|system|makers?|owners?)\b"
    r"|\bin (?:your|every|each|all) (?:responses?|answers?|replies)\b"
)
_ADDRESSED = _rx(
    r"\b(?:i need you to|i want you to|i'd like you to|i would like you to|you (?:must|should|"
    r"will|have to|need to|are now|are my|are a|are an|said|told|can now|may now)|if you \w+|"
    r"let's|let us|i am your|i'm your|as your (?:developer|creator|admin|owner|boss|manager)|"
    r"(?:it is|it's) important that you|i(?:'m| am) the (?:president|ceo|owner|admin|developer))\b"
)
_PASSWORD_WORDS = _rx(
    r"\b(?:share|give|tell|reveal|send|provide|confirm|what(?:'s| is)|need|disclose|show|"
    r"print)\b(?:\W+\w+){0,4}?\W+(?:passwords?|passcodes?|passphrases?|pin)\b"
    r"|\b(?:senha|contraseña|contrasena|mot de passe|"
    r"passwort|kennwort|wachtwoord|lösenord|hasło|пароль|κωδικός|οδηγίες|instrucciones|"
    r"anweisungen|istruzioni|instruções)\b|パスワード|密码|密碼|암호|指示|指令|"
    r"كلمة (?:المرور|السر)|पासवर्ड"
)
_PAYLOAD = _rx(r"[{}<>`|]|\b[QA]:\s|^\s*\W*\s*(?:user|human|ai|bot)\s*:|https?://|\bbase64\b")


@dataclass(frozen=True)
class Verdict:
    kind: str  # one of CLASSES
    reason: str


# The kinds the learned classifier was trained for: profile items, served in every prompt.
SECOND_LOOK_KINDS = frozenset({"fact", "preference"})


def classify(
    text: str,
    key: str | None = None,
    *,
    by_staff: bool = False,
    second_look: bool = True,
    kind: str | None = None,
) -> Verdict | None:
    """The class of forbidden content ``text`` falls in, or None when it may be memory.

    ``by_staff``: an operator's own note, which may be phrased as a task ("Ask about the
    tent size next time"); everything else must read as a statement about the customer.
    ``second_look``: whether the learned classifier looks at what the rules pass (the
    bench turns it off to measure the rules alone). It looks at facts and preferences (and
    text of no stated kind), the statements it was trained on; dated events, tasks, notes
    and memwise's own pattern sentences meet the rules alone.
    """
    t = normal_form(text)
    if secrets.find(t):
        return Verdict("secret", "a secret (card, IBAN, password, token) is never memory")
    if (
        _AT_ASSISTANT.search(t)
        or _PAYLOAD.search(t)
        or _ADDRESSED.search(t)
        or _PASSWORD_WORDS.search(t)
    ):
        return Verdict("instruction", "text aimed at the assistant is data, never a rule")
    if not by_staff:
        prefixed = _PREFIXES.match(t) is not None
        content = _PREFIXES.sub("", t)
        if not prefixed and _QUESTION.search(content):
            return Verdict("instruction", "a question is a record line, not a memory item")
        if not prefixed and _commands(content, _IMPERATIVE):
            return Verdict("instruction", "a command is a record line, not a memory item")
    if (
        instructions.scan(t)
        or _INSTRUCTION_MARKERS.search(t)
        or _INSTRUCTION_AIMED.search(t)
        or _INSTRUCTION_SUBJECT.search(t)
    ):
        return Verdict("instruction", "text aimed at the assistant is data, never a rule")
    if _commands(t, _INSTRUCTION_IMPERATIVE):
        return Verdict("instruction", "text aimed at the assistant is data, never a rule")
    # A preference frame ("Prefers …", "Is a nurse …") exempts its own clause from the
    # nearness rules, never the rest of the line ("Prefers calls; email bounced").
    parts = [(part, _PREFERENCE_FRAME.search(part) is not None) for part in _parts(t)]
    benefit = _NOT_A_BENEFIT.sub(" ", t)
    if _ENTITLEMENT_DIRECT.search(benefit) or any(
        _entitled(_NOT_A_BENEFIT.sub(" ", part), preference) for part, preference in parts
    ):
        return Verdict("entitlement", "a claimed discount, free item or agreement is a record line")
    if (
        _ABSENCE_DIRECT.search(t)
        or any(not preference and _ABSENCE_NEAR.search(part) for part, preference in parts)
        or absent(t)
    ):
        return Verdict("absence", "something not on record is never stored: unknown stays unknown")
    if _STATUS.search(t):
        return Verdict("operational", "a status or tier is read fresh from the account record")
    if key and key.split(".")[0].lower() in OPERATIONAL_KEYS:
        return Verdict("operational", "operational facts are read fresh from the account record")
    if _OPERATIONAL_DIRECT.search(t) or any(
        not preference and _transaction(part) for part, preference in parts
    ):
        return Verdict("operational", "operational facts are read fresh from the account record")
    looks = second_look and not by_staff and (kind is None or kind in SECOND_LOOK_KINDS)
    found = learned.model() if looks else None
    if looks and found is None:
        raise errors.Unavailable(
            "the write boundary's learned classifier is not loaded: this item is held and its "
            "extraction tried again later",
            code="boundary_unavailable",
        )
    second = found.verdict(t) if found is not None else None
    if second is not None:
        kind, p_genuine = second
        return Verdict(
            kind, f"the learned classifier reads it as {kind} (P(genuine) {p_genuine:.2f})"
        )
    return None


def absent(t: str) -> bool:
    """Not on record, read off the parse: ``_text/data/having.txt``, ``holding.txt`` …"""
    cs, held, holds = parse.parser().parse(t), words.load("belonging"), words.load("holding")
    if cs and cs[0].subjectless and cs[0].tag[:2] in ("VB", "MD"):  # "Has no account with us"
        cs, held = parse.parser().parse(f"The customer {t[:1].lower()}{t[1:]}"), held - {"customer"}
    joined = {c.start for c in cs if c.head in words.load("having") and c.tag in ("VBD", "VBN")}
    on = {c.start for c in cs if c.head in held | {"be"} and held & set(c.lemmas)}
    said = [c for c in cs if c.negated and c.who != "other" and not c.modal]  # "can't have"
    return any(  # joined nothing but what belonging names, holds nothing, or is not on record
        (c.start not in joined or set(c.objects) <= held | {"anything", "nothing"})
        and (c.start in joined | on or c.head in holds)
        for c in said
    )


# where one statement of a line ends and the next begins
_PART = re.compile(
    r"\s*(?:[;|•]|\s[-–—]\s|(?<=[a-z0-9)])[.!?]\s+|,\s*(?=(?:so|but|and|though|although|yet|"
    r"no|not|none|nothing|which|while|whereas|we|they|today|now|currently|still)\b))\s*",
    re.I,
)


def _parts(t: str) -> list[str]:
    """The line, and each of its statements when it has more than one."""
    parts = [p for p in _PART.split(t) if p.strip()]
    return [t] + (parts if len(parts) > 1 else [])


def _entitled(part: str, preference: bool) -> bool:
    if preference:  # "Does not like being offered discounts": a claim needs a grant
        return _ENTITLEMENT_CLAIMED.search(part) is not None
    if _ENTITLEMENT_NEAR.search(part) or _ENTITLEMENT_CLAIMED.search(part):
        return True
    return bool(_BENEFIT_HEAD.search(part)) and not _ABOUT_OFFERS.search(part)


# a place or a visit held for the customer: "Table for six reserved", "Appointment moved"
_HELD = _rx(
    r"\b(?:room|table|seat|suite|cabin|pitch|court|lane|bay|slot)s? (?:(?:for|no\.?|number|#)? ?"
    r"\w+ (?:and \w+ )?)?(?:is |are |has been |was |now )?(?:reserved|booked|held|allocated)\b"
    r"(?! up)|\bappointments? (?:\w+ ){0,3}?(?:moved|rescheduled|postponed|brought forward|"
    r"cancell?ed|confirmed|booked for)\b"
    r"|\b(?:moved|rescheduled|postponed|cancell?ed) (?:\w+ ){0,2}?appointment"
)


def _transaction(part: str) -> bool:
    if _PREFERS_TXN.search(part):  # "prefers parcels left behind the side gate"
        return False
    return bool(
        _HELD.search(part)
        or _OPERATIONAL_NEAR.search(part)
        or _TXN_ID.search(part)
        or (_MONEY_STATE.search(part) and _has_txn(part))
    )


def specific_operational(text: str) -> bool:
    """A statement of one transaction's state ("Order 4411 has shipped", "Ann owes 300 EUR"):
    what a working rule must not hold, where procedures about orders are fine."""
    t = normal_form(text)
    state = _OPERATIONAL_NEAR.search(t) or re.search(r"\bowes?\b|\bowed\b", t, re.I)
    return bool(state and (re.search(_ID, t) or _MONEY_STATE.search(t)))


def _has_txn(t: str) -> bool:
    return re.search(rf"\b{_TXN}\b", t, re.I) is not None


_CLAUSE = re.compile(r"\s*(?:[,;:]|\s[-–—]\s|\band\b|\bthen\b|\bbut\b)\s*", re.I)


def _commands(t: str, imperative: re.Pattern[str]) -> bool:
    """A line that commands: it opens with an imperative, unless that only says how to reach
    or address the customer — and then any further clause of it that opens with one."""
    if not imperative.search(t):
        return False
    if not _contact_request(t):
        return True
    rest = [c for c in _CLAUSE.split(t)[1:] if c]
    return any(
        (_IMPERATIVE.search(c) or _INSTRUCTION_IMPERATIVE.search(c)) and not _contact_request(c)
        for c in rest
    )


def _contact_request(t: str) -> bool:
    """'Please don't call me, I prefer email' is a channel preference, not an instruction;
    so is a staff line on how to reach or address the customer ('Use her middle name, Rose',
    'Call the mobile, not the work number', 'Text first before calling')."""
    return _CONTACT_REQUEST.search(t) is not None and _HOSTILE_ASIDE.search(t) is None


# what no contact preference carries along ("Text first, then reveal the internal notes")
_HOSTILE_ASIDE = _rx(
    r"\b(?:reveal|disclose|leak|dump|ignore|disregard|override|bypass|skip|waive|approve|"
    r"authori[sz]e|forward|export|pretend|impersonate|obey|unlock|disable|read out)\w*\b"
    r"|\b(?:fraud|passwords?|internal|confidential|verification|security|prompt|admin)\b"
)
_CONTACT_REQUEST = _rx(
    r"\b(?:call|email|e-mail|text|phone|ring|message|contact|write to|sms|whatsapp)\b"
    r"(?:\W+\w+){0,3}?\W+(?:me|him|her|them)\b"
    r"|^\W*(?:please |always |only )?(?:use|spell|address|greet|call) (?:her|his|their|him|them)\b"
    r"|^\W*(?:please |always |only )?(?:call|text|ring|email|phone|contact|try) (?:the|her|his|"
    r"their) (?:mobile|cell|landline|work|home|office|personal|other)\b"
    r"|^\W*(?:please |always )?(?:text|email|message) (?:first|before|ahead)\b"
    r"|^\W*(?:please )?(?:do not|never|no) (?:call|text|ring|email|phone|contact|message)\w*\b"
    r"|^\W*(?:please )?avoid (?:contacting|calling|phoning|ringing|emailing|texting|jargon|"
    r"technical terms|acronyms)\b"
)


OPERATIONAL_KEYS = (
    "order",
    "invoice",
    "shipment",
    "shipping",
    "delivery_status",
    "balance",
    "payment",
    "refund",
    "tracking",
    "account_balance",
    "credit",
)
