"""Every sentence the Slack app says on its own (not from a turn), in one place."""

from __future__ import annotations

STORE_DOWN = "I can't reach my store right now — try again in a minute."
RATE_LIMITED = "You're asking faster than I can answer — give me a few seconds, then ask again."
FAILED = "Something went wrong on my side while answering that — please try again."
NOT_ENABLED = "PRISM isn't enabled for this workspace."

GREETING = (
    "Hi! Ask me anything about a prospect and I'll answer only from their audit report, "
    "with every fact cited. Name the company in your question, or bind one here with "
    "`/prism bind <company>`."
)

HELP = (
    "*PRISM* answers questions about a prospect only from their audit report, and cites "
    "every fact.\n"
    "• DM me, or @mention me in a channel and keep talking in the thread.\n"
    "• `/prism bind <company>` — answer from that company's report here\n"
    "• `/prism unbind` — forget the report bound here\n"
    "• `/prism status` — which report is bound here\n"
    "• `/prism reports` — every report I have\n"
    "• `/prism help` — this message"
)

FEEDBACK_THANKS = "Thanks — your feedback is saved with this answer's audit record."
FEEDBACK_NOT_SAVED = (
    "I couldn't save your feedback — my store is unreachable. Try again in a minute."
)

FEEDBACK_FAILED = "Something went wrong on my side saving your feedback — please try again."

SHARED_CHANNEL = (
    "This channel is shared with another organisation, so I don't post anything from an "
    "audit report here. Ask me in a DM — the answer there is only for you."
)
SHARED_CHANNEL_BIND = (
    "This channel is shared with another organisation, so I don't bind it to a report: "
    "everyone here would see which prospect it is about. Ask me in a DM instead — "
    "`/prism bind <company>` works there too."
)
GUEST = (
    "I only answer full members of this organisation, and your account is a guest account "
    "here — ask a teammate with a full account, or your Slack admin."
)
WORKSPACE_NOT_ALLOWED = (
    "PRISM isn't enabled for your workspace of this organisation, so I can't answer you "
    "here — ask your Slack admin to add your workspace."
)
FILES_ONLY = (
    "I read text questions, not files or screenshots — type your question about the "
    "prospect and I'll answer from their audit report."
)
EMPTY_MESSAGE = (
    "That message looks empty — type a question about a prospect and I'll answer from "
    "their audit report."
)
CANNOT_CHECK = (
    "I couldn't check with Slack who is asking, so I'm not answering this one — "
    "try again in a minute."
)

PLACEHOLDER = ":hourglass_flowing_sand: Checking the audit report…"
STATUS = "is reading the audit report…"
LOADING_MESSAGES = [
    "Reading the audit report…",
    "Finding the fields that answer this…",
    "Checking every number and name against the report…",
    "Holding back anything the report doesn't support…",
]
