"""The Slack load bench's parts (``bench/slack_load.py`` runs them).

- ``plan``: the seeded workload — which event is delivered when;
- ``responder``: what the fake Gemini answers (a verified claim per report, a judge verdict);
- ``sender``: the open-loop HTTP load generator (its own process, keep-alive connections);
- ``stack``: Redis, the fakes and ``prism serve`` as a subprocess, and its workers' memory;
- ``outcome``: what happened — acks, replies per message, losses, model calls, memory.
"""
