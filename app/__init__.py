"""ocp-viewer: read, check and share OpenCheckpoint documents."""

__version__ = "0.1.0"
SPEC_VERSION = "0.1"

# typing.TYPE_CHECKING, without importing typing, for the modules `ocp lint` loads: importing
# typing is a tenth of its start-up on one small file (issue 28), and those modules need it
# only for the type checker. mypy reads any name TYPE_CHECKING as true, so
# `from app import TYPE_CHECKING` guards their imports of typing and the aliases made of it;
# at run time the guarded block never runs. tests/test_cli.py holds that a plain run of
# `ocp lint` imports no typing.
TYPE_CHECKING = False
