"""The cyclic garbage collector paused while documents are built and read.

What json.loads makes of a document holds no cycle, yet every few hundred containers made
have the collector walk the young ones, and the old ones ever more often: 4 MB of small
nested objects, 600,000 containers, took 1.1 s to parse with the collector running and
0.45 s with it waiting. So intake pauses it while it decodes (`app.parse.parse`); `ocp lint`
for its whole run (`app.cli.run_lint`): a run keeps every file's analysis for its report, and
each collection after a parse walked those documents again (the same 4 MB: 460 ms of a 920 ms
lint), while a run makes some ninety objects of cyclic garbage whatever the number of files,
which the collector takes once the run is over; and the service for each job of its large
lane (`app.web.work.run_cpu`: the same 4 MB's page, 1.7 s with the collector running, 0.7
with it waiting).

The collector is the process's: a pause stops it only when it runs and no other pause is
under way, and lets it run again when that pause ends, whoever else is paused then. So a
server's collector never waits longer than one job, however many overlap (a server working
on several threads at once), and collects what the others made meanwhile once it runs again.
"""

from __future__ import annotations

import _thread  # the lock of `threading`, without that module (some 1 ms of start-up)
import gc

_COLLECTOR = _thread.allocate_lock()
_paused = 0


class CollectionPaused:
    """``with CollectionPaused():`` a parse or a lint run, as the module says. (A class, not a
    contextlib generator: importing contextlib costs `ocp lint` most of a millisecond.)"""

    __slots__ = ("pauses",)

    def __enter__(self) -> None:
        global _paused
        with _COLLECTOR:
            self.pauses = _paused == 0 and gc.isenabled()
            if self.pauses:
                gc.disable()
            _paused += 1

    def __exit__(self, *exc: object) -> None:
        global _paused
        with _COLLECTOR:
            _paused -= 1
            if self.pauses:
                # Nothing is moved between generations: freezing and thawing (which spared
                # the young collections after a parse a walk of the document, a saving lost
                # in the noise of a lint) moved every object of the process into the oldest
                # generation, where a server's cyclic garbage waited for a full collection
                # that 3.11 seldom runs (1,500 refused uploads: 122 MB to 1.5 GB).
                gc.enable()


def paused() -> int:
    """How many pauses are under way (for tests)."""
    return _paused
