"""ocp-viewer: read, check and share OpenCheckpoint documents."""

__version__ = "0.1.0"
SPEC_VERSION = "0.1"
