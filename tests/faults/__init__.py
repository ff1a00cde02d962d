"""Fault tests: a real `ocp serve` process killed mid-upload, and its database stopped under it
(helpers in tests/serve.py)."""
