"""Internal consistency: OCP-S004 … OCP-S009 (spec §4.2, §6, §8.2)."""

from collections.abc import Iterator

from app import layout
from app.checkpoint import Checkpoint, Instant, parse_instant
from app.pointer import Path
from app.rules import Violation, rule


@rule("OCP-S004", "error", "`parent.id` differs from `id`.")
def parent_is_self(checkpoint: Checkpoint) -> Iterator[Violation]:
    """A checkpoint cannot derive from itself: `parent.id` must not equal the top-level `id`.
    Reported at /parent/id."""
    parent_id = checkpoint.get("parent", "id")
    if isinstance(parent_id, str) and parent_id == checkpoint.get("id"):
        yield (
            ("parent", "id"),
            "parent.id is this checkpoint's own id; a checkpoint cannot derive from itself: "
            "set parent.id to the id of the checkpoint this one was derived from",
        )


@rule("OCP-S005", "error", "No past-event timestamp is later than `created_at` (§4.2).")
def past_events_after_capture(checkpoint: Checkpoint) -> Iterator[Violation]:
    """The timestamps that record a past event (a step's completed_at, a statement's
    recorded_at, a verification's checked_at, a resource's observed_at, an operation's
    requested_at and last_attempt_at, an approval's decided_at) are not later than
    `created_at`, compared as instants with their offsets applied. `expires_at` may be later.
    Reported at each offending timestamp."""
    created = checkpoint.created_at
    if created is None:
        return
    if not _any_later(checkpoint, created):
        return
    for path, value in _past_event_timestamps(checkpoint):
        instant = parse_instant(value)
        if instant is not None and instant > created:
            yield (
                path,
                f"{path[-1]} {value} is later than the checkpoint's created_at "
                f"{checkpoint.get('created_at')}; a past event cannot follow the capture: "
                "correct this timestamp or created_at",
            )


def _any_later(checkpoint: Checkpoint, created: Instant) -> bool:
    """Whether a past event's timestamp may be later than ``created``: each distinct one
    compared once, before any place is walked to (a document repeats its timestamps: a batch
    of statements recorded at one time)."""
    distinct = {
        value
        for pattern in layout.PAST_EVENTS
        for value in checkpoint.values_at(pattern)
        if isinstance(value, str)
    }
    return any(
        instant is not None and instant > created for instant in map(parse_instant, distinct)
    )


def _past_event_timestamps(checkpoint: Checkpoint) -> Iterator[tuple[Path, object]]:
    walked = layout.walk(checkpoint.document, layout.PAST_EVENT_PATTERNS, in_order=False)
    for _, path, value in walked:
        yield path, value


OPEN_STATUSES = layout.OPEN_STATUSES


@rule(
    "OCP-S006",
    "error",
    "A `completed` task has no `planned`, `awaiting`, or `uncertain` operations.",
)
def completed_task_with_open_operations(checkpoint: Checkpoint) -> Iterator[Violation]:
    """When task.status is completed, no operation is planned, awaiting or uncertain: work
    that has not settled contradicts a finished task (§6.2). Reported at each such
    operation's status."""
    if checkpoint.get("task", "status") != "completed":
        return
    for i, operation in checkpoint.operations():
        status = operation.get("status")
        if status in OPEN_STATUSES:
            yield (
                ("operations", i, "status"),
                f"the task is completed but operation {operation.get('id')!r} is still "
                f"{status}; settle the operation (completed, failed or cancelled, as the system "
                "of record shows) or give the task the status it really has",
            )


@rule(
    "OCP-S007",
    "error",
    "`superseded_by` names a different statement of the same kind, or an observation that "
    "confirms a hypothesis.",
)
def superseded_by_kind(checkpoint: Checkpoint) -> Iterator[Violation]:
    """A superseded statement names its replacement, which is a different statement of the
    same kind; the one exception is a hypothesis superseded by the observation that confirms
    it (§6.5). A replacement that is not a statement at all is OCP-S003's finding. Reported
    at /statements/N/superseded_by."""
    for i, statement in checkpoint.statements():
        target_id = statement.get("superseded_by")
        if not isinstance(target_id, str):
            continue
        path = ("statements", i, "superseded_by")
        if target_id == statement.get("id"):
            yield (
                path,
                "superseded_by names this statement itself; name the different statement that "
                "replaces it",
            )
            continue
        target = checkpoint.by_id.get(target_id)
        if target is None or target.type != "statement":
            continue
        kind, target_kind = statement.get("kind"), target.value.get("kind")
        if kind == target_kind or (kind == "hypothesis" and target_kind == "observation"):
            continue
        allowed = (
            "another hypothesis, or the observation that confirms it"
            if kind == "hypothesis"
            else f"another {kind}"
        )
        yield (
            path,
            f"a {kind} can only be superseded by {allowed}, but {target_id!r} is a "
            f"{target_kind}; kinds never change (§6.5): record a new {kind} and point "
            "superseded_by at it",
        )


@rule("OCP-S008", "error", "No resource URI contains userinfo.")
def userinfo_in_resource_uri(checkpoint: Checkpoint) -> Iterator[Violation]:
    """A resource `uri` has no userinfo (`user@` or `user:password@` before the host, also
    `https:user@host` without slashes, which browsers read as userinfo): credentials never
    belong in a checkpoint (§6.4, §10.5). The message never repeats the user name or password.
    Reported at /resources/N/uri."""
    for i, resource in checkpoint.array("resources"):
        uri = resource.get("uri")
        if isinstance(uri, str) and has_userinfo(uri):
            yield (
                ("resources", i, "uri"),
                "this resource URI carries userinfo (a user name, maybe a password, before "
                "'@'); remove it: a checkpoint never carries credentials, and the destination "
                "uses its own access (§6.4, §10.1)",
            )


def has_userinfo(uri: str) -> bool:
    """True when ``uri`` carries userinfo, as RFC 3986 reads it (``scheme://user@host``) or as
    a browser does (``https:user@host``, no slashes): the one reading of app/links.py, which
    also decides whether a uri may be a link. Either reading needs an '@' before the host:
    without one, the URL parsers are not asked (most URIs of most documents), nor imported:
    `ocp lint` of such a document starts without them."""
    if "@" not in uri:
        return False
    from app import links

    return links.has_userinfo(uri)


@rule(
    "OCP-S009",
    "error",
    "An `until` entry whose status is `approved` or `rejected` names an operation of kind "
    "`approval`.",
)
def until_status_needs_approval(checkpoint: Checkpoint) -> Iterator[Violation]:
    """Only approval operations reach approved or rejected, so a stop condition lifted when an
    operation is approved or rejected must name an approval; otherwise it could never lift,
    or would be read against the wrong operation. Reported at
    /continuation/stop_conditions/N/until/M."""
    for i, stop in checkpoint.stop_conditions():
        until = stop.get("until")
        if not isinstance(until, list):
            continue
        for j, entry in enumerate(until):
            if not isinstance(entry, dict) or entry.get("status") not in ("approved", "rejected"):
                continue
            target = checkpoint.by_id.get(entry.get("operation"))  # type: ignore[arg-type]
            if target is None or target.type != "operation":
                continue
            kind = target.value.get("kind")
            if kind != "approval":
                yield (
                    ("continuation", "stop_conditions", i, "until", j),
                    f"this until entry waits for {entry['status']}, which only an approval "
                    f"reaches, but {entry.get('operation')!r} is an operation of kind {kind}; "
                    "name the approval operation, or the status this operation can reach",
                )
