"""The `ocp` command line: `ocp lint` (report-contract.md) and the service's other entry points.

Exit status of `ocp lint`: 0 when every file is valid (warnings allowed), 1 when any file is
invalid or holds a warning fail-on names, 2 for a usage or I/O error (an unknown code in
--select, --ignore or --fail-on among them). Never a traceback. A policy decides which findings
are listed and which warnings fail the run; an invalid file fails it whatever is listed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from app import TYPE_CHECKING, __version__
from app.analysis import Analysis, LintResult, analyze, lint, pair
from app.argparse_plain import argparse  # argparse, its messages read as written
from app.collector import CollectionPaused
from app.config import ConfigError, Settings, parse_base_url
from app.policy import Policy, PolicyError, load, load_nearest
from app.report import FORMATS, FileResult, shown_file
from app.visible import visible, visible_json

if TYPE_CHECKING:
    from typing import Any, NoReturn, TypeAlias

    from app.diff import Data  # the module itself is imported only when a diff is asked for
    from app.outputs import Outputs  # imported by a run that writes files, or fails early

    _Commands: TypeAlias = argparse._SubParsersAction["_Parser"] | "_Alone"

EXIT_VALID, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class InputError(Exception):
    """A file could not be read: reported on stderr, exit status 2."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{shown_file(name)}: {reason}")
        self.name, self.reason = name, reason


class _ArgumentError(Exception):
    """A command line argparse refused: raised, not printed, so that `main` can also write
    the failed run's document where a machine reads one (`fail_run`)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser, self.message = parser, message


def _terminal_columns() -> int:
    """The width `shutil.get_terminal_size` gives (COLUMNS, the terminal's, else 80), read
    without importing shutil: argparse's formatter imports it (and with it zlib, bz2, lzma)
    for every argument a parser is given, help asked for or not."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    stdout = sys.__stdout__
    try:
        return os.get_terminal_size(stdout.fileno()).columns if stdout else 80
    except (ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = _terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)  # each subcommand's parser too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise _ArgumentError(self, message)


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    parser, arguments = _parser(given)
    try:
        args = parser.parse_args(arguments)
    except _ArgumentError as exc:
        from app.outputs import Outputs, fail_run

        exc.parser.print_usage(sys.stderr)
        print(f"{exc.parser.prog}: error: {exc.message}", file=sys.stderr)
        fail_run(Outputs.intended(given), f"{exc.parser.prog}: {exc.message}")
        raise SystemExit(EXIT_USAGE) from None
    try:
        settings = Settings.from_env()
        return int(args.run(args, settings))
    except ConfigError as exc:
        from app.outputs import Outputs, fail_run

        message = f"configuration error: {exc}"
        fail_run(Outputs.intended(given), message)
        return usage_error(message)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (ocp lint … | head): not our error to report.
        sys.stderr.close()
        return EXIT_USAGE
    except OSError as exc:
        # Most often the output cannot be written (a full disk, a closed stream): never a
        # traceback, and never the exit status of a verdict (1 is "invalid", or "refuse").
        where = f": {exc.filename}" if exc.filename else ""
        return usage_error(f"{exc.strerror or exc}{where}")


def _parser(given: Sequence[str] = ()) -> tuple[argparse.ArgumentParser, Sequence[str]]:
    """The command line's parser, and the arguments it reads. A command line that names its
    command first gets that command's parser alone (`ocp lint`), reading what follows: each
    parser costs a few milliseconds (argparse looks its words up in the message catalogues),
    and `ocp lint` of one file must start within 3× a bare interpreter (issue 28). Help, a
    version, a mistyped command and no command get `ocp` with every command."""
    if given and given[0] in _COMMANDS:
        alone = _Alone()
        _COMMANDS[given[0]](alone)
        assert alone.parser is not None
        return alone.parser, given[1:]
    parser = _Parser(prog="ocp", description="Read, check and share OpenCheckpoint documents.")
    parser.add_argument("--version", action="version", version=f"ocp {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for add in _COMMANDS.values():
        add(commands)
    return parser, given


class _Alone:
    """In place of `ocp`'s commands, for a command line that names one: that command's
    parser, made alone, with the name and the description it has among them."""

    def __init__(self) -> None:
        self.parser: _Parser | None = None

    def add_parser(self, name: str, **options: Any) -> _Parser:
        options.pop("help", None)  # the line `ocp --help` shows of it
        self.parser = _Parser(prog=f"ocp {name}", **options)
        return self.parser


def _add_lint(commands: _Commands) -> None:
    lint_cmd = commands.add_parser(
        "lint",
        help="check checkpoints: strict I-JSON, the v0.1 schema, the semantic rules",
        description="Check OpenCheckpoint documents (levels 1 and 2 of spec §8.1). Exit "
        "status: 0 all valid, 1 any invalid or failing by --fail-on, 2 usage or I/O error. "
        "A policy (--select, --ignore, the configuration) decides which findings are listed; "
        "an invalid file fails the run whatever is listed, and a json or version error "
        "(after which nothing of the file is checked) is always listed.",
    )
    lint_cmd.add_argument(
        "files",
        nargs="+",
        metavar="PATH",
        help="a checkpoint file, a folder (every *.ocp.json below it), or - for standard input",
    )
    lint_cmd.add_argument(
        "--exclude",
        action="append",
        metavar="PATTERN",
        help="leave out the files found in a folder whose path below it, or any folder on the "
        "way, matches this glob (repeatable): --exclude drafts --exclude 'old-*.ocp.json'",
    )
    lint_cmd.add_argument(
        "--force-exclude",
        action="store_true",
        help="leave out a file named on the command line too when --exclude or the "
        "configuration's exclude matches it (pre-commit names each staged file)",
    )
    lint_cmd.add_argument(
        "--stdin-filename",
        metavar="NAME",
        help="the name standard input (-) is reported under, as the file it came from",
    )
    lint_cmd.add_argument(
        "--fail-on",
        action=_Joined,
        type=_fail_on_list,
        metavar="WHAT",
        help="exit 1 also for these findings, not only for errors: 'warning' for any warning, "
        "or codes and code prefixes, comma-separated (--fail-on secret,OCP-W: an apparent "
        "credential fails the run); repeatable, each adding to the others; replaces the "
        "configuration's; 'none', the default: errors only",
    )
    lint_cmd.add_argument(
        "--extend-fail-on",
        action=_Joined,
        type=_code_list,
        metavar="WHAT",
        help="as --fail-on, but adding to the configuration's fail-on instead of replacing it "
        "(the pre-commit hook's --extend-fail-on secret)",
    )
    lint_cmd.add_argument(
        "--select",
        action=_Joined,
        type=_code_list,
        metavar="CODES",
        help="report only these codes or code prefixes, comma-separated or repeated "
        "(--select OCP-S,secret)",
    )
    lint_cmd.add_argument(
        "--ignore",
        action=_Joined,
        type=_code_list,
        metavar="CODES",
        help="never report these codes or code prefixes, comma-separated or repeated "
        "(--ignore OCP-W004)",
    )
    lint_cmd.add_argument(
        "--config",
        metavar="FILE",
        help="the configuration to read (ocp.toml, or a pyproject.toml with [tool.ocp]); "
        "default: the nearest one from the working directory up",
    )
    lint_cmd.add_argument(
        "--quiet",
        action="store_true",
        help="text format: print the findings only, no verdict or summary lines",
    )
    lint_cmd.add_argument("--parent", metavar="PARENT_FILE", help="the parent checkpoint")
    lint_cmd.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default="text",
        help="the report on standard output (default: text)",
    )
    lint_cmd.add_argument(
        "--output-format",
        action="append",
        type=_output_spec,
        metavar="FORMAT=PATH",
        help="also write the report in FORMAT to the file PATH (repeatable): "
        "--output-format sarif=ocp.sarif --output-format json=ocp.json; each file is written "
        "whole, even when the run fails",
    )
    lint_cmd.add_argument(
        "--verbose",
        action="store_true",
        help="say on standard error which folders and files a folder walk skipped, and why",
    )
    lint_cmd.add_argument(
        "--base-url",
        metavar="URL",
        help="absolute URL of an ocp-viewer service whose rule pages SARIF helpUri and "
        "informationUri and JSON help_url point at (default: $OCP_PUBLIC_URL; with neither, "
        "SARIF carries each rule's help itself, no helpUri, and JSON help_url is a path)",
    )
    lint_cmd.add_argument(
        "--sarif-root",
        metavar="FOLDER",
        help="the folder SARIF names files relative to, as %%SRCROOT%% (default: the working "
        "directory; give the repository's root when linting from elsewhere)",
    )
    lint_cmd.set_defaults(run=run_lint)


def _add_render(commands: _Commands) -> None:
    render_cmd = commands.add_parser(
        "render",
        help="write the checkpoint page as one self-contained HTML file",
        description="Write the checkpoint page to standard output as one HTML file (CSS "
        "inlined, no script), for attaching to a ticket or an email. Exit status as for lint.",
    )
    render_cmd.add_argument("file", metavar="FILE", help="a checkpoint file, or -")
    render_cmd.add_argument("--parent", metavar="PARENT_FILE", help="the parent checkpoint")
    render_cmd.add_argument(
        "--base-url",
        metavar="URL",
        help="absolute URL of an ocp-viewer service for the page's rule links (default: "
        "$OCP_PUBLIC_URL; with neither, rule codes are plain text)",
    )
    render_cmd.set_defaults(run=run_render)


def _add_diff(commands: _Commands) -> None:
    diff_cmd = commands.add_parser(
        "diff",
        help="compare a checkpoint with its parent",
        description="A semantic diff keyed by local id, with the findings that need both "
        "documents (OCP-T001, OCP-T002, digest, the lineage-* compaction rules). Exit status: "
        "0 no error finding, 1 an error finding, 2 usage or I/O error.",
    )
    diff_cmd.add_argument("parent", metavar="PARENT", help="the parent checkpoint, or -")
    diff_cmd.add_argument("child", metavar="CHILD", help="the child checkpoint, or -")
    diff_cmd.add_argument("--format", choices=["text", "json", "patch"], default="text")
    diff_cmd.set_defaults(run=run_diff)


def _add_guard(commands: _Commands) -> None:
    guard_cmd = commands.add_parser(
        "guard",
        help="say what a checkpoint records about a proposed tool call",
        description="Say what the checkpoint records about a proposed tool call (spec §6.6, "
        "§6.8, §10.3): a repeat of a completed, cancelled or rejected operation, or one a stop "
        "condition forbids, is refused; a repeat of an uncertain one waits until its outcome "
        "is determined; otherwise the checkpoint records nothing against the call. It never "
        "says a call is allowed: the destination's own policy decides (§10.1). Exit status: 0 "
        "nothing recorded against the call, 1 refuse, 3 determine first, 2 usage or I/O error.",
    )
    guard_cmd.add_argument("file", metavar="CHECKPOINT", help="a checkpoint file, or -")
    given = guard_cmd.add_mutually_exclusive_group(required=True)
    given.add_argument(
        "--call",
        metavar="JSON",
        help='the call, as JSON: \'{"tool": "refund_payment", "arguments": {"order": "A-1"}}\'',
    )
    given.add_argument("--call-file", metavar="FILE", help="the call, from a JSON file, or -")
    guard_cmd.add_argument("--format", choices=["text", "json"], default="text")
    guard_cmd.set_defaults(run=run_guard)


def _add_mcp(commands: _Commands) -> None:
    mcp_cmd = commands.add_parser(
        "mcp",
        help="run the MCP server on standard input and output, for agents",
        description="Run the MCP server (Model Context Protocol) on standard input and output: "
        "tools to lint, read (as a model should), diff, store and fetch checkpoints and to check "
        "a tool call against one. Stored checkpoints go to the configured store "
        "(OCP_DATABASE_URL: a deployment's PostgreSQL database, or the embedded SQLite file), "
        "under the web service's own rules; OCP_PUBLIC_URL, the address of a service on that "
        "store, gives the answers their links.",
    )
    mcp_cmd.set_defaults(run=run_mcp)


def _add_serve(commands: _Commands) -> None:
    serve_cmd = commands.add_parser(
        "serve", help="start the web service", description="Start the web service (uvicorn)."
    )
    serve_cmd.add_argument("--host", default="127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000)
    serve_cmd.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="comma-separated addresses of the reverse proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto headers are trusted (uvicorn's setting); default: none, links use "
        "the request's own scheme and host, or $OCP_PUBLIC_URL",
    )
    serve_cmd.set_defaults(run=run_serve)


_COMMANDS: dict[str, Callable[[_Commands], None]] = {
    "lint": _add_lint,
    "render": _add_render,
    "diff": _add_diff,
    "guard": _add_guard,
    "mcp": _add_mcp,
    "serve": _add_serve,
}


def run_lint(args: argparse.Namespace, settings: Settings) -> int:
    # the collector waits for the run: it keeps every file's analysis for the report, which
    # each collection would walk again (app/collector.py)
    with CollectionPaused():
        return _run_lint(args, settings)


def _run_lint(args: argparse.Namespace, settings: Settings) -> int:
    limit = settings.limits.max_bytes
    if args.output_format:
        from app.outputs import OutputError, check_outputs

        try:
            check_outputs(_outputs(args), [*args.files, *([args.parent] if args.parent else [])])
        except OutputError as exc:
            return _failed(_outputs(args, files=False), str(exc))
    try:
        found = load(os.path.normpath(args.config)) if args.config else load_nearest(os.getcwd())
        policy = found.with_options(
            select=args.select, ignore=args.ignore, fail_on=args.fail_on, exclude=args.exclude
        ).with_more_fail_on(args.extend_fail_on)
    except PolicyError as exc:
        return _failed(_outputs(args), f"configuration: {exc}")
    if args.stdin_filename and "-" not in args.files:
        # (said, not refused: a hook passes it on every run, reading files or not)
        say("--stdin-filename names standard input (-), which this run does not read: ignored")
    if args.files.count("-") + (args.parent == "-") > 1:
        return _failed(
            _outputs(args),
            "standard input (-) can be read only once: give the parent or the checkpoints as files",
        )
    try:
        base_url = parse_base_url(args.base_url, "--base-url") or settings.public_url
    except ConfigError as exc:
        return _failed(_outputs(args), f"configuration error: {exc}")
    if args.sarif_root is not None and not os.path.isdir(args.sarif_root):
        # (said, not refused: the SARIF names files relative to it all the same, as a CI job
        # linting a checkout elsewhere may mean)
        say(f"--sarif-root {args.sarif_root}: no such folder here; files are named relative to it")
    options = {"base_url": base_url, "sarif_root": args.sarif_root, "quiet": args.quiet}

    parent: Analysis | None = None
    if args.parent is not None:
        # Read and analysed once, whatever the number of files checked against it.
        try:
            parent = analyze(read_input(args.parent, limit), settings.limits)
        except InputError as exc:
            problem: str | None = f"the parent cannot be read: {exc}"
        else:
            problem = _unusable_parent(args.parent, parent)
        if problem is not None:
            # Machine output is still a whole document (an empty SARIF file fails its upload),
            # and the github format's ::error says it in the log.
            from app.outputs import fail_run

            say(problem)
            stdout_formats = ("json", "sarif", "github")
            fail_run(_outputs(args), problem, stdout_formats=stdout_formats, **options)
            return EXIT_USAGE

    status = EXIT_VALID
    results: list[FileResult] = []
    expanded = _expanded(args.files, policy, verbose=args.verbose, force_exclude=args.force_exclude)
    if not expanded:
        say("every file named is excluded (--force-exclude): none is linted")
    for name in expanded:
        shown = args.stdin_filename if name == "-" and args.stdin_filename else name
        try:
            data = read_input(name, limit)
        except InputError as exc:
            say(str(exc) if name != "-" else f"{shown}: {exc.reason}")
            results.append(FileResult(shown, error=exc.reason))
            status = EXIT_USAGE
            continue
        child = analyze(data, settings.limits)
        result = LintResult(child, pair(child, parent) if parent is not None else None)
        outcome = policy.apply(
            shown,
            result.findings,
            result.omitted,
            valid=result.valid,
            lineage=result.lineage,
            lineage_omitted=result.lineage_omitted,
        )
        results.append(FileResult(shown, result, outcome=outcome))
        if outcome.fails and status == EXIT_VALID:
            status = EXIT_INVALID

    why = None
    if status != EXIT_VALID:
        from app.run_failure import why_failed

        why = why_failed(results, policy)
    if args.output_format:
        from app.outputs import write_files

        # the files first: each is whole once the run's status is known, whatever stdout does
        write_files(_outputs(args), results, why=why, **options)
    sys.stdout.write(
        FORMATS[args.format](results, why=why, colour=wants_colour(sys.stdout), **options)
    )
    sys.stdout.flush()
    return status


def _outputs(args: argparse.Namespace, *, files: bool = True) -> Outputs:
    """Where this run writes: imported only by a run that writes files or fails early (most
    runs print one format and pass)."""
    from app.outputs import Outputs

    return Outputs(args.format, tuple(args.output_format or ()) if files else ())


def _failed(outputs: Outputs, message: str) -> int:
    """A usage or configuration error of `ocp lint`: said on standard error, and, under a
    machine format, the failed run's document where it is read (report-contract.md)."""
    from app.outputs import fail_run

    fail_run(outputs, message)
    return usage_error(message)


def wants_colour(stream: object) -> bool:
    """Colour for a terminal, unless NO_COLOR is set (https://no-color.org); FORCE_COLOR
    asks for it where there is no terminal (a CI log that shows colours)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty()) and os.environ.get("TERM") != "dumb"


def _output_spec(value: str) -> tuple[str, str]:
    from app.outputs import OutputError, parse_output

    try:
        return parse_output(value)
    except OutputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _Joined(argparse.Action):
    """A list option given more than once: each occurrence's items are added to the others'
    (--select OCP-S --select secret selects both), as --exclude's are. Kept only the last, a
    hook's own --fail-on secret would drop silently when its args repeat the option."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        so_far = getattr(namespace, self.dest, None) or ()
        assert isinstance(values, tuple)
        setattr(namespace, self.dest, tuple(dict.fromkeys([*so_far, *values])))


def _fail_on_list(value: str) -> tuple[str, ...]:
    """--fail-on: codes, prefixes and levels, or 'none' (errors alone fail the run)."""
    if value.strip().lower() == "none":
        return ()
    return _code_list(value)


def _code_list(value: str) -> tuple[str, ...]:
    """A comma-separated list of codes or code prefixes (or 'warning', for --fail-on)."""
    items = tuple(item.strip() for item in value.split(",") if item.strip())
    if not items:
        raise argparse.ArgumentTypeError("give codes or prefixes, such as secret or OCP-W")
    return items


CHECKPOINT_GLOB = "*.ocp.json"


def _expanded(
    names: Sequence[str], policy: Policy, *, verbose: bool = False, force_exclude: bool = False
) -> list[str]:
    """The files to lint: each name as given, and for a folder every ``*.ocp.json`` below it
    in name order, less what a walk skips (`app.walk`: hidden folders, virtualenvs,
    node_modules, __pycache__, what .gitignore files ignore) and what the policy excludes
    (`Policy.excludes`: its globs read from the folder walked, and from the configuration's
    folder). A folder with none is an input error, reported as one: a CI job that lints
    nothing must not pass. ``verbose``: say on stderr what was skipped and why.
    ``force_exclude``: a file named is left out too when the policy excludes it (a hook's
    files, which pre-commit names one by one)."""
    out: list[str] = []
    for name in names:
        if name == "-" or not os.path.isdir(name):
            if force_exclude and name != "-" and policy.exclude and _excluded_named(name, policy):
                if verbose:
                    say(f"{shown_file(name)}: excluded by the configuration or --exclude")
                continue
            out.append(name)  # named: never skipped, unless --force-exclude
            continue
        from pathlib import Path  # a folder's walk: linting named files never loads pathlib

        from app.walk import checkpoints_below, walk_lines

        folder = Path(name)

        def excluded(relative: Path, folder: Path = folder) -> bool:
            # (a glob of a path, "cases/drafts", is the configuration's: read from its folder
            # too, whichever folder below it is named)
            return policy.excludes(relative) or (
                policy.root is not None and _excluded_named(str(folder / relative), policy)
            )

        found, skipped = checkpoints_below(folder, excluded if policy.exclude else policy.excludes)
        if verbose:
            for line in walk_lines(skipped):
                say(line)
        out.extend([str(path) for path in found] or [name])  # none: read_input says so
    return _once_each(out)


def _once_each(names: list[str]) -> list[str]:
    """``names`` less a file named again (``a`` and ``./a``, a file and its folder): each is
    linted and counted once, under its first name (SARIF's results of one file are one)."""
    seen: set[str] = set()
    kept = []
    for name in names:
        key = name if name == "-" else os.path.normpath(os.path.abspath(name))
        if key not in seen:
            seen.add(key)
            kept.append(name)
    return kept


def _excluded_named(name: str, policy: Policy) -> bool:
    """Whether the policy's exclude globs match the file ``name`` (as the shell gave it), read
    as a path from the configuration's folder (from the working directory when there is no
    configuration), or any folder on its way, or its name."""
    from pathlib import PurePosixPath

    from app.policy import relative_name

    return policy.excludes(PurePosixPath(relative_name(name, policy.root or os.getcwd())))


def _unusable_parent(name: str, parent: Analysis) -> str | None:
    if parent.document is not None:
        return None
    first = parent.findings[0]  # (the intake's first, what it quotes of a credential withheld)
    return (
        f"{name}:{first.line}:{first.column}: the parent is not a JSON checkpoint, so lineage "
        f"rules cannot run: {first.message}"
    )


def say(message: str) -> None:
    """One line on standard error, made visible: file names come from the user's shell and
    messages quote documents."""
    print(f"ocp: {visible(message)}", file=sys.stderr)


def usage_error(message: str) -> int:
    say(message)
    return EXIT_USAGE


def run_render(args: argparse.Namespace, settings: Settings) -> int:
    from app.web.pages import checkpoint_html

    limit = settings.limits.max_bytes
    if args.parent == "-" and args.file == "-":
        return usage_error("standard input (-) can be read only once")
    try:
        data = read_input(args.file, limit)
        parent = read_input(args.parent, limit) if args.parent is not None else None
    except InputError as exc:
        return usage_error(str(exc))
    result = lint(data, parent=parent, limits=settings.limits)
    if result.parent is not None and (problem := _unusable_parent(args.parent, result.parent)):
        return usage_error(problem)
    name = "standard input" if args.file == "-" else os.path.basename(os.path.normpath(args.file))
    page = checkpoint_html(
        name,
        result,
        settings.limits,
        standalone=True,
        public_url=parse_base_url(args.base_url, "--base-url") or settings.public_url,
    )
    sys.stdout.write(page)
    sys.stdout.flush()
    return EXIT_VALID if result.valid else EXIT_INVALID


def run_diff(args: argparse.Namespace, settings: Settings) -> int:
    from app.diff import diff_checkpoints

    if args.parent == "-" and args.child == "-":
        return usage_error("standard input (-) can be read only once")
    limit = settings.limits.max_bytes
    try:
        parent = read_input(args.parent, limit)
        child = read_input(args.child, limit)
    except InputError as exc:
        return usage_error(str(exc))
    parent_analysis = analyze(parent, settings.limits)
    child_analysis = analyze(child, settings.limits)
    for label, name, result in (
        ("parent", args.parent, parent_analysis),
        ("child", args.child, child_analysis),
    ):
        if result.document is None:
            # Nothing to compare: a diff would list the whole document as added or removed,
            # and the JSON error as "fixed".
            first = result.findings[0]  # (the intake's first, a credential withheld)
            return usage_error(
                f"{name}:{first.line}:{first.column}: the {label} is not a JSON document, so "
                f"there is nothing to compare: {first.message}"
            )
    diff = diff_checkpoints(pair(child_analysis, parent_analysis))
    if args.format == "json":
        sys.stdout.write(visible_json(diff, indent=2) + "\n")
    elif args.format == "patch":
        if diff["patch"] is None:
            # Never a patch with redaction markers that would not produce the child.
            return usage_error(f"no JSON Patch: {diff['patch_withheld']}")
        sys.stdout.write(visible_json(diff["patch"], indent=2) + "\n")
    else:
        sys.stdout.write(format_diff(args.child, diff))
    errors = [f for f in diff["lineage_findings"] if f["severity"] == "error"]
    return EXIT_INVALID if errors else EXIT_VALID


def format_diff(name: str, diff: Data) -> str:
    """The diff in a few lines a person reads in a terminal, findings in GNU style. Every
    text from the documents (ids, pointers, statuses, messages) goes through `visible`."""
    v = visible
    name = v(name)
    lines = [
        f"{name}:{f['line']}:{f['column']}: {f['severity']} {f['code']} {v(f['message'])}"
        if f.get("line")
        else f"{name}: {f['severity']} {f['code']} {v(f['message'])}"
        for f in [*diff["lineage_findings"], *diff["lineage_notes"]]
    ]
    summary = diff["summary"]
    lines.append(
        f"{summary['added']} added, {summary['removed']} removed, {summary['changed']} changed, "
        f"{summary['moved']} moved, {summary['unchanged']} unchanged objects; "
        f"{summary['fields_changed']} fields changed"
    )
    # the document's own fields (the objective, the task's status) before its objects
    for field in diff["fields"]["changed"]:
        lines.append(f"  ~ field {v(field['pointer'])}: {field['change']}")
    for section in diff["sections"]:
        for verb, items in (("+", section["added"]), ("-", section["removed"])):
            for item in items:
                lines.append(f"  {verb} {section['type_name']} {v(item['id'] or item['pointer'])}")
        for item in section["changed"]:
            fields = ", ".join(v(c["pointer"]) or "(whole)" for c in item["changes"])
            lines.append(
                f"  ~ {section['type_name']} {v(item['id'] or item['child_pointer'])}: {fields}"
            )
        for item in section["moved"]:
            name = v(item["id"] or f"#{item['parent_position']}")
            lines.append(
                f"  ^ {section['type_name']} {name}: moved from position "
                f"{item['parent_position']} to {item['child_position']} (the order matters)"
            )
    for t in diff["operation_transitions"]:
        mark = "  (leaves a terminal status)" if t["leaves_terminal"] else ""
        lines.append(
            f"  operation {v(str(t['id']))}: {v(str(t['from']))} -> {v(str(t['to']))}{mark}"
        )
    for f in diff["findings"]["new"]:
        lines.append(f"  new finding {f['code']} at {v(f['path']) or '(document)'}")
    for f in diff["findings"]["fixed"]:
        lines.append(f"  fixed finding {f['code']} at {v(f['path']) or '(document)'}")
    return "\n".join(lines) + "\n"


def run_mcp(args: argparse.Namespace, settings: Settings) -> int:
    import anyio

    from app.mcp_server import run_stdio

    anyio.run(run_stdio, settings)
    return EXIT_VALID


EXIT_GUARD = {"nothing_against": 0, "refuse": 1, "determine_first": 3}


def run_guard(args: argparse.Namespace, settings: Settings) -> int:
    from app.guard import NO_AUTHORITY, GuardError, guard, read_call

    limit = settings.limits.max_bytes
    if args.call_file == "-" and args.file == "-":
        return usage_error("the checkpoint and the call cannot both come from standard input")
    try:
        data = read_input(args.file, limit)
        call_text = (
            args.call.encode("utf-8", "surrogateescape")
            if args.call is not None
            else read_input(args.call_file, limit)
        )
    except InputError as exc:
        return usage_error(str(exc))
    try:
        answer = guard(analyze(data, settings.limits), read_call(call_text, settings.limits))
    except GuardError as exc:
        if args.format == "json":
            print(visible_json({"error": exc.as_json()}, indent=2))
        # "" is the whole document (RFC 6901): then the line and column alone say where
        where = [exc.path] if exc.path else []
        if exc.line is not None:
            where.append(f"line {exc.line}, column {exc.column}")
        name = "the call" if exc.subject == "call" else args.file
        return usage_error(f"{', '.join([name, *where])}: {exc.message}")
    if args.format == "json":
        print(visible_json(answer.as_json(), indent=2))
    else:
        lines = [f"{answer.outcome}: {answer.summary}"]
        for reason in answer.reasons:
            lines.append(
                f"  {reason.path or '(the whole checkpoint)'} [{reason.code}, {reason.section}] "
                f"{reason.message}"
            )
        if answer.stops:
            lines.append(
                "  Stop conditions in force (nothing this checkpoint records lifts one, §6.8):"
            )
            for stop in answer.stops:
                lines.append(f"    {stop.id or stop.path}: {stop.lifted_by}")
        if answer.uncompared:
            lines.append(
                f"  {len(answer.uncompared)} action operation(s) record no call to compare "
                f"with, so whether this call repeats one of them is not known: "
                + ", ".join(answer.uncompared)
            )
        lines.append(NO_AUTHORITY)
        print("\n".join(visible(line) for line in lines))
    return EXIT_GUARD[answer.outcome]


def run_serve(args: argparse.Namespace, settings: Settings) -> int:
    from app.mcp_http import service_with_mcp
    from app.store import StoreConfigError, store_backend
    from app.web.server import capacity, descriptor_limit, serve

    try:
        store_backend(settings.database_url)
    except StoreConfigError as exc:
        raise ConfigError(f"OCP_DATABASE_URL: {exc}") from None
    # Before anything starts: too few descriptors for OCP_MAX_CONNECTIONS is a usage error.
    room = capacity(settings, descriptor_limit())
    app = service_with_mcp(settings)
    serve(app, settings, room, args.host, args.port, args.forwarded_allow_ips)
    return 0


def read_input(name: str, limit: int) -> bytes:
    """The bytes of a file (or of standard input for ``-``), reading at most one byte past
    ``limit`` so an oversized input is refused without being held in memory."""
    try:
        if name == "-":
            return sys.stdin.buffer.read(limit + 1)
        if os.path.isdir(name):
            raise InputError(
                name, f"is a folder with no {CHECKPOINT_GLOB} file below it (or all excluded)"
            )
        with open(name, "rb") as handle:
            return handle.read(limit + 1)
    except FileNotFoundError:
        raise InputError(name, "no such file") from None
    except PermissionError:
        raise InputError(name, "permission denied") from None
    except OSError as exc:
        raise InputError(name, f"cannot be read ({exc.strerror or exc})") from None


# The commands that answer once and end, after which nothing of the process is needed.
_ONE_SHOT = frozenset({"lint", "render", "diff", "guard"})


def entry() -> NoReturn:
    """The `ocp` command: `main`, then, after a one-shot command, out of the process at once.

    The interpreter's orderly teardown frees every module and object one by one: a tenth of
    the run of `ocp lint` on one small file (issue 28), for nothing a one-shot command leaves
    behind (its output files are closed, its streams flushed here; it starts no thread and
    registers no exit handler). mypy's fast exit does the same. `ocp serve` and `ocp mcp` end
    as Python ends."""
    status = main()
    if sys.argv[1:2] and sys.argv[1] in _ONE_SHOT:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            # the reader went away (ocp lint … | head), a full disk, a stream main() closed:
            # the output is not whole, so the status is never a verdict's
            status = EXIT_USAGE
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    entry()
