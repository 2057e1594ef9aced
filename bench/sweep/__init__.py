"""The fabrication sweep's parts: field discovery, claim generators, runners, directives.

``bench/qa_sweep.py`` is the entry point; this package is imported by it (the bench
directory is on ``sys.path`` when the script runs) and by ``tests/test_qa_sweep.py``.
Every module here uses relative imports so that either way of importing works.

The generators read the sample reports on their own terms (``fields``) rather than through
the verifier's number grammar, so a bug in the verifier cannot hide itself by shaping the
claims it is tested with.
"""
