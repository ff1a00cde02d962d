"""Where `ocp lint` writes its report: the main format on standard output, and any number of
``--output-format FORMAT=PATH`` files beside it (as ruff users ask: SARIF for code scanning,
text for the log, in one run). Each file is written whole or not at all: a reader (an upload
step that runs ``if: always()``) never finds half a log, even when the run fails."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.report import FORMATS, FileResult
from app.visible import visible


class OutputError(ValueError):
    """An --output-format value that cannot be used: a usage error (exit 2)."""


@dataclass(frozen=True, slots=True)
class Outputs:
    """The main format (standard output) and the files asked for, as (format, path)."""

    format: str = "text"
    files: tuple[tuple[str, str], ...] = ()

    @classmethod
    def intended(cls, argv: Sequence[str]) -> Outputs:
        """What a command line that argparse refused meant to write, read leniently (only
        what is well-formed): a failed run still owes a machine-readable document to the
        places a CI job reads. Nothing for another command than ``lint``."""
        if not argv or argv[0] != "lint":
            return cls()
        main, files = "text", []
        values = _option_values(argv[1:], ("--format", "--output-format"))
        for option, value in values:
            if option == "--format" and value in FORMATS:
                main = value
            elif option == "--output-format":
                try:
                    files.append(parse_output(value))
                except OutputError:
                    continue
        return cls(main, tuple(dict.fromkeys(files)))


def _option_values(argv: Sequence[str], options: Sequence[str]) -> list[tuple[str, str]]:
    found = []
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if name in options:
            if equals:
                found.append((name, value))
            elif i + 1 < len(argv):
                found.append((name, argv[i + 1]))
    return found


def parse_output(value: str) -> tuple[str, str]:
    """``FORMAT=PATH`` (``sarif=ocp.sarif``) as (format, path)."""
    fmt, equals, path = value.partition("=")
    if not equals or fmt not in FORMATS or not path:
        raise OutputError(
            f"--output-format takes FORMAT=PATH with FORMAT one of {', '.join(sorted(FORMATS))}, "
            f"such as sarif=ocp.sarif; not {value!r}"
        )
    if path == "-":
        raise OutputError("--output-format writes files; standard output is --format's")
    return fmt, path


def check_outputs(outputs: Outputs, inputs: Sequence[str] = ()) -> None:
    """Before anything is linted: every file's folder exists, no file is named twice, and none
    is a file the run reads (``inputs``, as named: a checkpoint, or a folder whose checkpoints
    it lints), which the report would replace."""
    seen: set[str] = set()
    for _, path in outputs.files:
        key = os.path.normpath(os.path.abspath(path))
        if key in seen:
            raise OutputError(f"--output-format names {path} twice")
        seen.add(key)
        read = _read_by_the_run(path, inputs)
        if read is not None:
            raise OutputError(
                f"--output-format {path}: is {read}, which this run lints; write the report "
                "to another file"
            )
        folder = Path(path).parent
        if not folder.is_dir():
            raise OutputError(f"--output-format {path}: no folder {folder} to write it in")
        if Path(path).is_dir():
            raise OutputError(f"--output-format {path}: is a folder")


def _read_by_the_run(path: str, inputs: Sequence[str]) -> str | None:
    """The input ``path`` is (or, for a folder, holds as a checkpoint it lints), or None."""
    target = Path(path)
    for name in inputs:
        if name == "-":
            continue
        given = Path(name)
        try:
            if given.is_dir():
                if target.name.endswith(".ocp.json") and given.resolve() in (
                    target.resolve().parents
                ):
                    return f"in {name}"
            elif target.exists() and os.path.samefile(given, target):
                return name
        except OSError:  # (an input that cannot be read is reported when it is linted)
            continue
    return None


def render(
    fmt: str, results: Sequence[FileResult], problems: Sequence[str] = (), **options: Any
) -> str:
    """The report in ``fmt``. A text file also says the run's own errors, which the main
    text output leaves to standard error."""
    text = FORMATS[fmt](results, problems=problems, **options)
    if fmt == "text" and problems:
        text = "".join(f"ocp: {visible(p)}\n" for p in problems) + text
    return text


def write_files(
    outputs: Outputs, results: Sequence[FileResult], problems: Sequence[str] = (), **options: Any
) -> None:
    """Each --output-format file, whole: written beside its place and renamed onto it."""
    for fmt, path in outputs.files:
        write_whole(Path(path), render(fmt, results, problems, **{**options, "colour": False}))


def write_whole(path: Path, text: str) -> None:
    """``text`` at ``path`` atomically: a temporary file in the same folder (so the rename
    does not cross file systems), flushed to disk, then renamed over the old file. Created
    with the mode a new file gets (0666 less the umask), not a temporary file's 0600."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def fail_run(
    outputs: Outputs,
    message: str,
    *,
    stdout_formats: Sequence[str] = ("json", "sarif"),
    **options: Any,
) -> None:
    """A run that failed before any file was linted: the contract's document of a failed run
    (a JSON report with the error in ``errors``, a SARIF log whose invocation failed with a
    notification) on standard output for ``stdout_formats``, and in every file asked for.
    The message itself goes to standard error, as always: the caller says it."""
    # the run has failed already: a file that cannot be written is not a second error
    with contextlib.suppress(OSError):
        write_files(outputs, [], [message], **options)
    if outputs.format in stdout_formats:
        sys.stdout.write(FORMATS[outputs.format]([], problems=[message], **options))
        sys.stdout.flush()
