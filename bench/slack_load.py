"""Slack load bench: a bounded burst of signed events against ``prism serve`` on loopback.

The HTTP app runs as operators run it — ``prism serve --workers 2`` (gunicorn, gthread
workers) in a subprocess, configured only through its environment — against a real
``redis-server`` both workers share, ``FakeSlack`` for the Web API and ``FakeGemini``
answering every model call after ``--model-delay`` seconds (a verified claim-contract
answer for the bound report; ``{"verdict": "supported"}`` to a judge request).

Every channel is bound first (``/prism bind <company>``); with ``--warmup N`` every worker
also answers N mentions per company before the burst (by default the burst meets freshly
started workers, as after a deploy). Then, open-loop, ``--rate``
distinct rep messages per second for ``--seconds`` seconds, half DMs and half channel
mentions (each mention is delivered twice, as Slack does: ``app_mention`` and ``message``),
with a ``--retry-share`` of messages redelivered once as a Slack retry. The load generator
is a process of its own with a pool of keep-alive HTTP connections; each POST's latency to
its HTTP response is the ack latency.

After the burst the bench waits (at most ``--drain-timeout`` s) until the app has handled
every delivery, then prints: events sent, ack latency p50/p95/p99/max, replies per distinct
message (must be exactly 1), messages lost (must be 0), time to the last reply, model calls
per message, and each worker's memory before and after the burst — RSS, PSS (shared pages
split between the processes that share them) and private — and the gunicorn master's. The
same figures go to ``bench/results/slack_load.json``.

Exit status: 0 every target met; 1 a message was lost or answered other than once, or a
delivery was not acked 200; 3 only the ack p99 target (100 ms) missed; 2 the bench could
not run.

With ``--kill-worker-at S`` one worker is killed (SIGKILL) S seconds into the burst — the
one holding the most turns — and the bench also reports how many turns it held and how long
after the kill the last of them was finished by the others (``bench/load/kill.py``); the
lost and exactly-once counts are the same as ever.

Usage: python bench/slack_load.py [--rate 50] [--seconds 10] [--workers 2] [--retry-share 0.2]
       [--listener-threads N] [--judge-share 0.5] [--warmup 6] [--model-delay 1.0]
       [--kill-worker-at 5] [--reclaim-after 15] …
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load.kill import WorkerKiller  # noqa: E402
from bench.load.outcome import LoadResult, Observed, analyse, handled_lines  # noqa: E402
from bench.load.plan import (  # noqa: E402
    WARMUP_PREFIX,
    Delivery,
    Plan,
    build_plan,
    warmup_deliveries,
)
from bench.load.responder import BenchResponder, company_answers  # noqa: E402
from bench.load.sender import Outgoing, envelope_body, run_in_process  # noqa: E402
from bench.load.stack import SIGNING_SECRET, LoadStack  # noqa: E402
from bench.load.watch import MasterStats, ServerWatch  # noqa: E402
from prism_slack.ports import Conversation, HistoryTurn  # noqa: E402
from prism_slack.reports.store import FileReportStore  # noqa: E402
from prism_slack.slack.texts import PLACEHOLDER  # noqa: E402
from prism_slack.state import keys  # noqa: E402
from prism_slack.testing.slack_delivery import SlackDelivery  # noqa: E402

logger = logging.getLogger("bench.slack_load")

DEFAULT_OUT = ROOT / "bench" / "results" / "slack_load.json"
ACK_TARGET_MS = 100.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=50.0, help="distinct messages per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the burst")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="HTTP threads per worker")
    parser.add_argument(
        "--listener-threads",
        type=int,
        help="answering threads per worker (prism serve --listener-threads; default: the app's)",
    )
    parser.add_argument(
        "--retry-share", type=float, default=0.2, help="share of messages Slack redelivers once"
    )
    parser.add_argument("--dm-share", type=float, default=0.5, help="share of messages in DMs")
    parser.add_argument("--dm-channels", type=int, default=25, help="DM channels (one rep each)")
    parser.add_argument("--channels", type=int, default=25, help="channels mentions come from")
    parser.add_argument("--model-delay", type=float, default=1.0, help="fake model latency (s)")
    parser.add_argument(
        "--judge-share",
        type=float,
        default=0.0,
        help="share of answers with a claim only the judge can decide (a 2nd model call)",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=0,
        help="before the burst, answer N mentions per company so every worker's caches are "
        "warm (default 0: the burst meets freshly started workers)",
    )
    parser.add_argument("--concurrency", type=int, default=32, help="HTTP client connections")
    parser.add_argument(
        "--kill-worker-at",
        type=float,
        help="kill -9 the worker holding the most turns this many seconds into the burst",
    )
    parser.add_argument(
        "--reclaim-after",
        type=float,
        help="PRISM_RECLAIM_AFTER_S for the server (default: the app's, 15 s)",
    )
    parser.add_argument("--drain-timeout", type=float, default=60.0, help="max wait for replies")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reports", type=Path, default=ROOT / "reports")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    parser.add_argument("--keep-log", type=Path, help="copy the server's log here")
    return parser.parse_args(argv)


def bind_channels(stack: LoadStack, plan: Plan, *, timeout_s: float = 20.0) -> None:
    """``/prism bind <company>`` in every channel; checked in Redis."""
    slack = SlackDelivery(stack.events_url, SIGNING_SECRET, team_id=stack.slack.team_id)
    for binding in plan.bindings:
        delivered = slack.command(
            f"bind {binding.company}",
            channel=binding.channel,
            user=binding.user,
            response_url=stack.slack.response_url(),
        )
        if delivered.status != 200:
            raise RuntimeError(f"/prism bind in {binding.channel}: HTTP {delivered.status}")
    client = stack.redis.client()
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            wrong = [
                b.channel
                for b in plan.bindings
                if client.get(
                    keys.binding(Conversation(team=stack.slack.team_id, channel=b.channel))
                )
                != b.slug.encode()
            ]
            if not wrong:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"/prism bind did not bind {len(wrong)} channel(s): {wrong[:5]}")
            time.sleep(0.1)
    finally:
        client.close()


def outgoing_for(deliveries: list[Delivery], *, team: str, bot_user_id: str) -> list[Outgoing]:
    now = int(time.time())
    return [
        Outgoing(
            index=i,
            at_s=d.at_s,
            body=envelope_body(
                d.event,
                team_id=team,
                bot_user_id=bot_user_id,
                event_id=d.event_id,
                event_time=now + int(d.at_s),
            ),
            retry_num=d.retry_num,
        )
        for i, d in enumerate(deliveries)
    ]


def warm_up(stack: LoadStack, companies: dict[str, str], args: argparse.Namespace) -> None:
    """Mentions naming each company, until all are answered: every worker then has
    answered from every report (its caches are warm) before the burst."""
    bot = stack.slack.bot_user_id
    deliveries = warmup_deliveries(
        companies, bot_user_id=bot, per_company=args.warmup, seed=args.seed
    )
    outgoing = outgoing_for(deliveries, team=stack.slack.team_id, bot_user_id=bot)
    print(f"warm-up: {len(outgoing)} mentions…", flush=True)
    run_in_process(stack.events_url, SIGNING_SECRET, outgoing, concurrency=args.concurrency)
    deadline = time.monotonic() + args.drain_timeout
    while _answered_warmups(stack) < len(outgoing):
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"warm-up: {_answered_warmups(stack)} of {len(outgoing)} answered in time"
            )
        time.sleep(0.2)


def _answered_warmups(stack: LoadStack) -> int:
    return sum(
        m.channel.startswith(WARMUP_PREFIX) and m.text != PLACEHOLDER
        for m in stack.slack.messages()
    )


def _not_warmup(channel: object) -> bool:
    return not str(channel or "").startswith(WARMUP_PREFIX)


def wait_settled(stack: LoadStack, expected: int, timeout_s: float) -> float:
    """Until the app logged ``expected`` handled deliveries and no placeholder is left.

    Returns how long it waited.
    """
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        handled = sum(
            f":{WARMUP_PREFIX}" not in key for key, _ in handled_lines(stack.server.log_text())
        )
        pending = sum(m.text == PLACEHOLDER for m in stack.slack.messages())
        if handled >= expected and pending == 0:
            break
        time.sleep(0.2)
    return time.monotonic() - started


def histories(stack: LoadStack, channels: list[str]) -> dict[str, list[HistoryTurn]]:
    client = stack.redis.client()
    try:
        found = {}
        for channel in channels:
            key = keys.history(Conversation(team=stack.slack.team_id, channel=channel))
            found[channel] = [
                HistoryTurn.model_validate_json(raw) for raw in client.lrange(key, 0, -1)
            ]
        return found
    finally:
        client.close()


def run(args: argparse.Namespace) -> LoadResult:
    """Start the stack, bind, burst, drain, observe; then analyse."""
    reports = FileReportStore(args.reports).all()
    responder = BenchResponder(
        company_answers(reports),
        delay_s=args.model_delay,
        judge_share=args.judge_share,
        seed=args.seed,
    )
    with (
        tempfile.TemporaryDirectory(prefix="prism-load-") as tmp,
        LoadStack(
            responder=responder,
            reports_dir=args.reports,
            work_dir=Path(tmp),
            workers=args.workers,
            threads=args.threads,
            listener_threads=args.listener_threads,
            env=(
                {"PRISM_RECLAIM_AFTER_S": str(args.reclaim_after)} if args.reclaim_after else None
            ),
        ) as stack,
    ):
        plan = build_plan(
            rate=args.rate,
            seconds=args.seconds,
            companies={r.slug: r.company.name for r in reports},
            bot_user_id=stack.slack.bot_user_id,
            dm_share=args.dm_share,
            dm_channels=args.dm_channels,
            channels=args.channels,
            retry_share=args.retry_share,
            base_time=int(time.time()),
            seed=args.seed,
        )
        print(
            f"prism serve up on {stack.url} (workers {stack.server.worker_pids()}); "
            f"binding {len(plan.bindings)} channels…",
            flush=True,
        )
        bind_channels(stack, plan)
        if args.warmup:
            warm_up(stack, {r.slug: r.company.name for r in reports}, args)
        killer = WorkerKiller(stack, at_s=args.kill_worker_at) if args.kill_worker_at else None
        if killer is not None:
            killer.start()
        seen, waited = burst(stack, plan, responder, args)
        if killer is not None:
            killer.join(timeout=args.drain_timeout)
    result = analyse(seen, config_of(args, settle_wait_s=waited))
    if killer is None:
        return result
    report = killer.report
    targets = {**result.targets, "killed_worker_recovered": report.recovered_s is not None}
    return result.model_copy(update={"kill": report.model_dump(), "targets": targets})


def burst(
    stack: LoadStack, plan: Plan, responder: BenchResponder, args: argparse.Namespace
) -> tuple[Observed, float]:
    """Send the plan, wait for the app to settle, and collect what it did."""
    team, bot = stack.slack.team_id, stack.slack.bot_user_id
    outgoing = outgoing_for(plan.deliveries, team=team, bot_user_id=bot)
    model_calls_before = len(stack.gemini.requests)
    responder_before = Counter(responder.counts)
    watch = ServerWatch(stack.server).start()
    print(
        f"burst: {len(plan.messages)} messages, {len(outgoing)} deliveries "
        f"over {plan.duration_s:.1f} s…",
        flush=True,
    )
    start_at, sent = run_in_process(
        stack.events_url, SIGNING_SECRET, outgoing, concurrency=args.concurrency
    )
    waited = wait_settled(stack, sum(s.status == 200 for s in sent), args.drain_timeout)
    print(f"settled {waited:.1f} s after the last send", flush=True)
    watch.stop()
    workers, host, master = watch.workers(), watch.host(), watch.master()
    if args.keep_log:
        shutil.copyfile(stack.server.log_path, args.keep_log)
    seen = Observed(
        plan=plan,
        team=team,
        start_at=start_at,
        sent=sent,
        calls=[c for c in stack.slack.calls() if _not_warmup(c.params.get("channel"))],
        messages=[m for m in stack.slack.messages() if _not_warmup(m.channel)],
        model_requests=stack.gemini.requests[model_calls_before:],
        responder_counts=dict(Counter(responder.counts) - responder_before),
        log_text="\n".join(
            line
            for line in stack.server.log_text().splitlines()
            if f":{WARMUP_PREFIX}" not in line and f"channel={WARMUP_PREFIX}" not in line
        ),
        histories=histories(stack, sorted({m.channel for m in plan.messages if m.dm})),
        workers=workers,
        worker_pids_seen=sorted(watch.pids_seen),
        host=host,
        master=master,
    )
    return seen, waited


def _master_lines(master: MasterStats | None) -> list[str]:
    if master is None:
        return []
    return [
        f"  master pid {master.pid} (the workers share its pages copy-on-write): "
        f"RSS {master.rss_mib} MiB, PSS {master.pss_mib} MiB"
    ]


def config_of(args: argparse.Namespace, *, settle_wait_s: float) -> dict[str, object]:
    return {
        "rate": args.rate,
        "seconds": args.seconds,
        "workers": args.workers,
        "http_threads": args.threads,
        "listener_threads": args.listener_threads or "app default",
        "retry_share": args.retry_share,
        "dm_share": args.dm_share,
        "dm_channels": args.dm_channels,
        "channels": args.channels,
        "model_delay_s": args.model_delay,
        "judge_share": args.judge_share,
        "client_connections": args.concurrency,
        "seed": args.seed,
        "warmup_per_company": args.warmup,
        "settle_wait_s": round(settle_wait_s, 2),
    }


def summary(result: LoadResult) -> str:
    s, r, m, c = result.sends, result.replies, result.model_calls, result.config
    h = result.workers.host

    def lat(name: str, value: object) -> str:
        d = value if isinstance(value, dict) else value.model_dump()  # type: ignore[attr-defined]
        if not d["count"]:
            return f"  {name:<22} —"
        return (
            f"  {name:<22} p50 {d['p50_ms']:>7.1f}  p95 {d['p95_ms']:>7.1f}  "
            f"p99 {d['p99_ms']:>7.1f}  max {d['max_ms']:>7.1f} ms  (n={d['count']})"
        )

    lines = [
        "",
        f"PRISM Slack load bench — {c['rate']:g} msg/s × {c['seconds']:g} s, "
        f"{c['workers']} workers, model {c['model_delay_s']:g} s, judge share {c['judge_share']:g}",
        f"events sent: {s.distinct_messages} distinct ({s.dm_messages} DM, "
        f"{s.mention_messages} mentions) = {s.deliveries} deliveries: {s.first} first, "
        f"{s.duplicates} duplicate (message event of a mention), {s.retries} retries",
        f"  over {s.burst_s:.2f} s, max schedule slip {s.max_lag_ms:.1f} ms; "
        f"statuses {s.statuses}; errors {s.errors or 'none'}; reconnects {s.reconnects}",
        "ack latency:",
        lat("all deliveries", result.ack_all),
        *(lat(role, v) for role, v in result.ack_by_role.items()),
        "replies:",
        f"  per distinct message  min {r.per_message_min}  max {r.per_message_max}  "
        f"messages with ≠ 1: {r.messages_not_exactly_one}",
        f"  lost                  {r.lost}",
        f"  answers {r.answers}; other replies {r.notes or 'none'}",
        f"  placeholders posted {r.placeholders_posted}, left unreplaced {r.placeholders_left}",
        f"  app outcomes          {r.handled}",
        f"  listeners busy at once (all workers, from the app's log): peak {r.peak_listeners}",
        f"  DM attribution mismatches {len(r.dm_attribution_mismatches)}; "
        f"DM answers missing from history {r.dm_missing_from_history}",
        f"  DMs answered out of order {r.dm_out_of_order} of {c['dm_channels']} "
        f"({r.dm_answered_early} messages answered before one sent earlier)",
        f"  time to last reply    {r.time_to_last_reply_s} s after the burst began "
        f"({r.last_reply_after_last_send_s} s after the last send)",
        lat("mention → status", r.mention_time_to_progress),
        lat("mention → answer", r.mention_time_to_answer),
        f"model calls: {m.answer} answer + {m.judge} judge = "
        f"{m.total_per_message:.3f} per distinct message ({m.answer_per_message:.3f} answer)",
        "workers (memory before the burst → after it; PSS splits shared pages between "
        "their users, private is the worker's alone):",
        *(
            f"  pid {w.pid}: RSS {w.rss_before_mib} → peak {w.peak_rss_mib} MiB (VmHWM; "
            f"sampled {w.sampled_peak_rss_mib}), PSS {w.pss_before_mib} → {w.pss_mib} MiB, "
            f"private {w.private_mib} MiB; threads {w.threads_before} before the burst, "
            f"peak {w.threads_peak}; CPU {w.cpu_s} s"
            for w in result.workers.workers
        ),
        *_master_lines(result.workers.master),
        f"  workers replaced during the run: {result.workers.replaced}",
        f"host: {h.cores} cores {h.busy_pct:.0f}% busy over {h.wall_s:.1f} s — bench stack "
        f"{h.stack_cpu_s:.1f} CPU-s, other processes {h.other_cpu_s:.1f} CPU-s "
        f"(load average before: {h.load_avg_before}); listen-queue overflows "
        f"{h.listen_overflows}",
    ]
    lines.append("timeline (second: deliveries, ack p50/max ms, final replies posted):")
    lines += [
        f"  {t.second:>3}: {t.deliveries:>4}  {t.ack_p50_ms or 0:>6.1f} / {t.ack_max_ms or 0:>6.1f}"
        f"  {t.final_replies:>4}"
        for t in result.timeline
    ]
    if result.kill is not None:
        k = result.kill
        lines.append(
            f"worker killed (kill -9) {k['at_s']} s into the burst: pid {k['victim_pid']} held "
            f"{k['turns_held']} turns; {k['finished']} finished by the others, the last "
            f"{k['recovered_s']} s after the kill"
        )
    if result.log_problems:
        lines.append("server warnings/errors:")
        lines += [f"  {n:>5} × {shape}" for shape, n in result.log_problems.items()]
    lines.append("targets:")
    lines += [f"  {'OK  ' if ok else 'MISS'} {name}" for name, ok in result.targets.items()]
    return "\n".join(lines)


def exit_code(result: LoadResult) -> int:
    t = result.targets
    if not (
        t["exactly_one_reply_per_message"]
        and t["zero_lost"]
        and t["every_delivery_acked_200"]
        and t.get("killed_worker_recovered", True)
    ):
        return 1
    return 0 if t["ack_p99_under_100ms"] else 3


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # SIGTERM unwinds like Ctrl-C, so every ``with`` block tears its part of the stack down.
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s %(message)s")
    try:
        result = run(args)
    except (RuntimeError, ValueError, OSError) as e:
        print(f"slack_load: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("slack_load: interrupted; everything it started is stopped", file=sys.stderr)
        return 130
    print(summary(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result.model_dump(mode="json"), indent=2) + "\n")
    print(f"\nresults: {args.out}")
    return exit_code(result)


if __name__ == "__main__":
    raise SystemExit(main())
