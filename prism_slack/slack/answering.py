"""Answer one Slack message exactly once, in order, never silently, and only say so when
Slack confirmed it (DESIGN §12).

Two halves, joined by the durable turn queue (the ``TurnQueue`` port; a Redis Stream):

- ``MessageAnswerer.answer(incoming)`` runs in the request thread, before Slack gets its
  200: it records the turn (``XADD`` with its record and its place in the conversation's
  order). A duplicate (retry, the ``app_mention``/``message`` pair) finds the record and
  stops. With the store down the rep is told at once — nothing was promised.
- ``MessageAnswerer.prepare(entry)`` and ``run(prepared)`` run on a worker's
  ``TurnWorker`` threads, on whichever worker read (or reclaimed) the turn: decide who
  may be answered and where (``Access``: an outsider, guest or app gets nothing, a rep in
  a shared channel a note to ask in a DM or a private answer), take a token from the
  rep's rate bucket, engage the thread when the bot was mentioned, show progress
  (``setStatus`` in the thread, else a placeholder; nothing for a private answer, which
  only the asker sees) — at once, before waiting — then, once the turn heads its
  conversation (``TurnWorker`` waits for that without holding a thread): ``run_turn``,
  render, deliver (``Delivery``: retried, confirmed, never twice; ``chat.postEphemeral``
  for a private answer), and only then finish the turn (``XACK``) and log it
  ``handled=answered``.

Every step records its progress in the turn's record, so a turn reclaimed from a dead
worker reuses its placeholder and its rendered reply instead of posting or asking the
model again. A permanent Slack error ends the turn ``failed`` with one ERROR line naming
it; anything else unexpected gets the rep a reply that says so.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from prism_slack.errors import PrismError, StoreUnavailable
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.ports import (
    FINISHED,
    DeliveryStore,
    Entry,
    QueuedTurn,
    TurnProgress,
    TurnQueue,
)
from prism_slack.render.blocks import render_blocks, render_ephemeral
from prism_slack.slack import texts
from prism_slack.slack.access import Access, Decision, Ruling
from prism_slack.slack.conversation import Incoming, Notice
from prism_slack.slack.delivery import Delivery, Part, PermanentSlackError, SlackUnavailable
from prism_slack.slack.replies import Replier, Reply

logger = logging.getLogger(__name__)

ANSWERED: Final = frozenset({Decision.ANSWER, Decision.ANSWER_PRIVATELY})
NOTICES: Final = {Notice.FILES_ONLY: texts.FILES_ONLY, Notice.EMPTY: texts.EMPTY_MESSAGE}
"""What a message with no question gets instead of an answer."""
MAX_ATTEMPTS = 4
"""A turn picked up this often (each by a worker that then died) is failed, not retried."""


class Abandoned(PrismError):
    """The worker stopped and handed its turns back: this one is no longer ours to answer."""


class Handled(StrEnum):
    """How one delivery ended (logged with the message identity)."""

    QUEUED = "queued"
    ANSWERED = "answered"
    DUPLICATE = "duplicate"
    RATE_LIMITED = "rate_limited"
    STORE_DOWN = "store_down"
    FAILED = "failed"


@dataclass(frozen=True)
class Prepared:
    """A turn whose progress is shown, waiting for (or holding) its conversation's head."""

    entry: Entry
    incoming: Incoming
    progress: TurnProgress


class MessageAnswerer:
    """The Slack side of one turn: record, progress, ``run_turn``, confirmed delivery."""

    def __init__(
        self,
        deps: TurnDeps,
        replier: Replier,
        *,
        access: Access,
        store: DeliveryStore,
        turns: TurnQueue,
        delivery: Delivery,
    ) -> None:
        self.deps = deps
        self.replier = replier
        self.access = access
        self.store = store
        self.turns = turns
        self.delivery = delivery
        self._abandoned = threading.Event()

    def abandon(self) -> None:
        """Write nothing more to Slack for any turn (they were handed back on shutdown)."""
        self._abandoned.set()

    def _still_ours(self, entry: Entry) -> None:
        """Before writing to Slack: the turn must still be this worker's to answer."""
        if self._abandoned.is_set():
            raise Abandoned(f"turn {entry.turn.turn_id} was handed back")
        if not self.turns.owns(entry):
            raise Abandoned(f"turn {entry.turn.turn_id} was taken over by another worker")

    # -- the request thread ---------------------------------------------------------------

    def answer(self, incoming: Incoming, *, retry_num: int | None = None) -> Handled:
        """Record ``incoming`` as a durable turn (before the ack); answered by a worker."""
        turn = QueuedTurn(
            turn_id=incoming.claim_key,
            conversation=incoming.conversation,
            ts=incoming.ts,
            message=json.loads(incoming.model_dump_json()),
        )
        try:
            queued = self.turns.enqueue(turn)
        except StoreUnavailable as e:
            logger.warning("store unavailable; turn %s not recorded: %s", turn.turn_id, e)
            incoming, ruling = self._rule(incoming)  # an outsider is not told even that
            if ruling.decision in ANSWERED:
                self._note(incoming, texts.STORE_DOWN, only_them=False)
            else:
                self._declined(incoming, ruling)
            self._log(incoming, Handled.STORE_DOWN, retry_num, None)
            return Handled.STORE_DOWN
        if not queued:
            self._log(incoming, Handled.DUPLICATE, retry_num, None)
            return Handled.DUPLICATE
        logger.info(
            "slack message %s kind=%s queued retry=%s", turn.turn_id, incoming.kind, retry_num
        )
        return Handled.QUEUED

    # -- a worker thread ------------------------------------------------------------------

    def prepare(self, entry: Entry) -> Prepared | None:
        """Admit the turn and show progress; ``None`` when the turn is already over."""
        turn_id = entry.turn.turn_id
        incoming = Incoming.model_validate(entry.turn.message)
        progress = self.turns.progress(turn_id, attempt=True)
        if progress.status in FINISHED:
            self.turns.finish(entry, progress.status)
            return None
        incoming, ruling = self._rule(incoming)
        if ruling.decision not in ANSWERED:
            self.turns.finish(entry, "skipped")
            self._declined(incoming, ruling)  # after finish: never twice, even if we die
            return None
        if progress.attempts > MAX_ATTEMPTS:
            logger.error(
                "turn %s failed: picked up %d times without finishing", turn_id, progress.attempts
            )
            self._fail(entry, incoming, progress, texts.FAILED)
            return None
        if not progress.admitted:
            if not self.store.take_token(incoming.user):
                self._note(incoming, texts.RATE_LIMITED, only_them=True)
                self.turns.finish(entry, "skipped")
                self._log(incoming, Handled.RATE_LIMITED, None, entry)
                return None
            if not incoming.is_dm and incoming.notice is None:
                self.store.engage(incoming.conversation)
            progress.admitted = True
            if progress.placeholder_ts is not None or progress.status_set:
                self.turns.note(turn_id, admitted="1")  # else noted with the progress shown
        if progress.placeholder_ts is None and not progress.status_set and not incoming.notice:
            progress = self._begin(entry, incoming, progress)
        return Prepared(entry, incoming, progress)

    def run(self, prepared: Prepared) -> Handled:
        """Answer the turn (it heads its conversation now); finish it once Slack confirmed."""
        entry, incoming, progress = prepared.entry, prepared.incoming, prepared.progress
        turn_id = entry.turn.turn_id
        try:
            reply = _stored_reply(progress)
            if reply is None and incoming.notice is not None:
                reply = _plain(NOTICES[incoming.notice])
            elif reply is None:
                result = run_turn(incoming.text, incoming.conversation, self.deps)
                message = render_blocks(result, feedback=True)
                reply = Reply(message.text, message.blocks)
                self.turns.note(
                    turn_id, reply=json.dumps({"text": reply.text, "blocks": list(reply.blocks)})
                )
            posted = self._deliver(entry, incoming, progress, reply)
        except (PermanentSlackError, SlackUnavailable) as e:
            # The one ERROR line of the turn: Slack refused it for good, or kept failing.
            logger.error("turn %s failed: the reply was not delivered (%s)", turn_id, e)
            self.turns.finish(entry, "failed")
            self._log(incoming, Handled.FAILED, None, entry)
            return Handled.FAILED
        except (StoreUnavailable, Abandoned):
            raise  # the worker lets the turn go: it is reclaimed (or was handed back)
        except Exception:
            logger.exception("answering %s failed", turn_id)
            self._fail(entry, incoming, progress, texts.FAILED)
            return Handled.FAILED
        self.turns.finish(entry, "answered", posted=posted)
        self._log(incoming, Handled.ANSWERED, None, entry)
        return Handled.ANSWERED

    # -- steps ----------------------------------------------------------------------------

    def _begin(self, entry: Entry, incoming: Incoming, progress: TurnProgress) -> TurnProgress:
        """Show the rep that an answer is coming (``setStatus`` with loading messages in the
        message's thread — a top-level DM's own, as Slack's agents do — else a placeholder),
        recorded so a reclaimed turn does not show it twice.
        A private answer shows neither: the others in the channel would see that a report
        is being read."""
        turn_id = entry.turn.turn_id
        if incoming.private:
            self.turns.note(turn_id, admitted="1")
            return progress
        if self.replier.set_status(incoming.channel, incoming.status_thread):
            self.turns.note(turn_id, status_set="1", admitted="1")
            progress.status_set = True
            return progress
        self._still_ours(entry)
        part = self._part(incoming, progress, turn_id, "placeholder")
        maybe = progress.posting == "placeholder"
        self.turns.note(turn_id, posting="placeholder", admitted="1")
        try:
            ts = self.delivery.post_once(part, Reply(texts.PLACEHOLDER), maybe_posted=maybe)
        except (PermanentSlackError, SlackUnavailable) as e:
            logger.warning("turn %s: no placeholder (%s); the answer will be posted", turn_id, e)
            self.turns.note(turn_id, posting=None)
            return progress
        self.turns.note(turn_id, placeholder_ts=ts, posting=None)
        progress.placeholder_ts = ts
        progress.posting = None
        return progress

    def _deliver(
        self, entry: Entry, incoming: Incoming, progress: TurnProgress, reply: Reply
    ) -> str:
        """Put ``reply`` where the rep sees it: in place of the placeholder, or posted."""
        turn_id = entry.turn.turn_id
        self._still_ours(entry)
        part = self._part(incoming, progress, turn_id, "reply")
        if progress.placeholder_ts is not None and self.delivery.update(
            part, progress.placeholder_ts, reply
        ):
            ts = progress.placeholder_ts
        else:
            maybe = progress.posting == "reply"
            self.turns.note(turn_id, posting="reply")
            ts = self.delivery.post_once(part, reply, maybe_posted=maybe)
        return ts  # recorded by ``finish`` (a retry finds it: update again, or by metadata)

    def _fail(self, entry: Entry, incoming: Incoming, progress: TurnProgress, text: str) -> None:
        """End the turn ``failed``, telling the rep (best effort)."""
        reply = _plain(text)
        posted: str | None = None
        try:
            posted = self._deliver(entry, incoming, progress, reply)
        except (PermanentSlackError, SlackUnavailable) as e:
            logger.error("turn %s: could not tell the rep it failed: %s", entry.turn.turn_id, e)
        self.turns.finish(entry, "failed", posted=posted)
        self._log(incoming, Handled.FAILED, None, entry)

    def _rule(self, incoming: Incoming) -> tuple[Incoming, Ruling]:
        """Whether (and how) ``incoming`` is answered (``Access``); marked private when
        only the asker may see the answer."""
        ruling = self.access.decide(incoming, home=frozenset(incoming.home))
        if ruling.decision is Decision.ANSWER_PRIVATELY:
            incoming = incoming.model_copy(update={"private": True})
        return incoming, ruling

    def _declined(self, incoming: Incoming, ruling: Ruling) -> None:
        """Not answered: one log line, and the rep's ephemeral note where there is one."""
        logger.log(
            logging.INFO if ruling.decision is Decision.ASK_IN_DM else logging.WARNING,
            "slack message %s not answered: %s (%s)",
            incoming.claim_key,
            ruling.decision.value,
            ruling.reason,
        )
        if ruling.note is not None:
            self.replier.ephemeral(
                incoming.channel, incoming.user, incoming.reply_thread, ruling.note
            )

    def _note(self, incoming: Incoming, text: str, *, only_them: bool) -> None:
        """A short note to the rep, in the thread: with ``only_them`` (or for a private
        answer) ephemeral in a channel — a private answer's note is never posted for all
        to see — else, and in a DM, posted."""
        if not incoming.is_dm and (only_them or incoming.private):
            sent = self.replier.ephemeral(
                incoming.channel, incoming.user, incoming.reply_thread, text
            )
            if sent is not None or incoming.private:
                return
        self.replier.post(incoming.channel, incoming.reply_thread, _plain(text))

    def _part(self, incoming: Incoming, progress: TurnProgress, turn_id: str, name: str) -> Part:
        """Where a placeholder or an answer goes: under the status where Slack showed it."""
        return Part(
            channel=incoming.channel,
            thread_ts=incoming.status_thread if progress.status_set else incoming.reply_thread,
            turn_id=turn_id,
            name=name,
            user=incoming.user if incoming.private else None,
        )

    def _log(
        self, incoming: Incoming, outcome: Handled, retry_num: int | None, entry: Entry | None
    ) -> None:
        """The one line per message outcome (``handled=answered`` only once Slack said ok;
        a failed turn's ERROR line, naming why, is logged where it failed)."""
        received = entry.turn.received_at if entry else 0.0
        latency_ms = (time.time() - received) * 1000 if received else 0.0
        level = logging.WARNING if outcome is Handled.FAILED else logging.INFO
        logger.log(
            level,
            "slack message %s kind=%s handled=%s retry=%s latency_ms=%.1f%s",
            incoming.claim_key,
            incoming.kind,
            outcome.value,
            retry_num,
            max(latency_ms, 0.0),
            f" notice={incoming.notice.value}" if incoming.notice else "",
        )


def _stored_reply(progress: TurnProgress) -> Reply | None:
    if progress.reply is None:
        return None
    return Reply(str(progress.reply.get("text") or ""), list(progress.reply.get("blocks") or []))


def _plain(text: str) -> Reply:
    message = render_ephemeral(text)
    return Reply(message.text, message.blocks)
