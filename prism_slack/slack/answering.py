"""Answer one Slack message exactly once, in order, and never silently.

``MessageAnswerer.answer(incoming)`` runs in Bolt's listener executor, after the HTTP ack:

1. claim the message identity (``team:channel:ts``) in the shared store — SET NX, so of
   every retry, of the ``app_mention``/``message`` pair, and across every worker, one
   delivery wins and the others stop here;
2. take a token from the rep's rate bucket;
3. engage the thread when the bot was mentioned (follow-ups then need no mention);
4. show progress (assistant status or a placeholder, see ``Replier``) — at once, before
   waiting for the message's turn;
5. in its turn (``StateStore.turn``: the conversation's queue in the store, in Slack ts
   order, shared by every worker, then the conversation's lock): ``run_turn``, render,
   post — so the messages of one thread or DM are answered one at a time and in the order
   the rep sent them, whichever worker received each, each seeing the history of the
   ones before.

Every failure ends in a reply that says what happened: the store unreachable (at any
step, the claim included), the turn not come in time, anything unexpected.
"""

from __future__ import annotations

import logging
import time
from enum import StrEnum

from prism_slack.errors import LockTimeout, StoreUnavailable
from prism_slack.pipeline.turn import TurnDeps, run_turn
from prism_slack.render.blocks import render_blocks, render_ephemeral
from prism_slack.slack import texts
from prism_slack.slack.conversation import Incoming
from prism_slack.slack.replies import Progress, Replier, Reply

logger = logging.getLogger(__name__)


class Handled(StrEnum):
    """How one delivery ended (logged with the message identity)."""

    ANSWERED = "answered"
    DUPLICATE = "duplicate"
    RATE_LIMITED = "rate_limited"
    STORE_DOWN = "store_down"
    BUSY = "busy"
    FAILED = "failed"


class MessageAnswerer:
    """The Slack side of one turn: claim, progress, turn, ``run_turn``, post."""

    def __init__(
        self,
        deps: TurnDeps,
        replier: Replier,
        *,
        lock_timeout_s: float = 90.0,
    ) -> None:
        self.deps = deps
        self.replier = replier
        self.lock_timeout_s = lock_timeout_s

    def answer(self, incoming: Incoming, *, retry_num: int | None = None) -> Handled:
        started = time.perf_counter()
        outcome = self._answer(incoming)
        logger.info(
            "slack message %s kind=%s handled=%s retry=%s latency_ms=%.1f",
            incoming.claim_key,
            incoming.kind,
            outcome.value,
            retry_num,
            (time.perf_counter() - started) * 1000,
        )
        return outcome

    def _answer(self, incoming: Incoming) -> Handled:
        state = self.deps.state
        try:
            if not state.claim_event(incoming.claim_key):
                return Handled.DUPLICATE
            if not state.take_token(incoming.user):
                self._note(incoming, texts.RATE_LIMITED)
                return Handled.RATE_LIMITED
            if not incoming.is_dm:
                state.engage(incoming.conversation)
        except StoreUnavailable as e:
            logger.warning("store unavailable before answering %s: %s", incoming.claim_key, e)
            self.replier.post(incoming.channel, incoming.reply_thread, _plain(texts.STORE_DOWN))
            return Handled.STORE_DOWN
        except Exception:
            logger.exception("before answering %s", incoming.claim_key)
            self.replier.post(incoming.channel, incoming.reply_thread, _plain(texts.FAILED))
            return Handled.FAILED
        progress = self.replier.begin(incoming)
        return self._answer_in_turn(incoming, progress)

    def _answer_in_turn(self, incoming: Incoming, progress: Progress) -> Handled:
        posted = False
        where = incoming.conversation
        try:
            with self.deps.state.turn(where, incoming.ts, self.lock_timeout_s):
                result = run_turn(incoming.text, where, self.deps)
                message = render_blocks(result, feedback=True)
                self.replier.finish(progress, Reply(message.text, message.blocks))
                posted = True
            return Handled.ANSWERED
        except LockTimeout:
            logger.warning("lock timeout on %s", incoming.claim_key)
            outcome, text = Handled.BUSY, texts.BUSY
        except StoreUnavailable as e:
            logger.warning("store unavailable while answering %s: %s", incoming.claim_key, e)
            outcome, text = Handled.STORE_DOWN, texts.STORE_DOWN
        except Exception:
            logger.exception("answering %s failed", incoming.claim_key)
            outcome, text = Handled.FAILED, texts.FAILED
        if not posted:
            self.replier.finish(progress, _plain(text))
        return outcome

    def _note(self, incoming: Incoming, text: str) -> None:
        """A short note to the rep: only them in a channel, in place in a DM."""
        if incoming.is_dm or not self.replier.ephemeral(
            incoming.channel, incoming.user, incoming.reply_thread, text
        ):
            self.replier.post(incoming.channel, incoming.reply_thread, _plain(text))


def _plain(text: str) -> Reply:
    message = render_ephemeral(text)
    return Reply(message.text, message.blocks)
