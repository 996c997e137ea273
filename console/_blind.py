"""Blind calibration: on a calibration run, who wrote an item and what the judges made of it stay hidden from an
annotator until that annotator has graded the item.

Every read of ``console._queries`` that names a contestant or shows a judge's grade takes a :class:`Blind` (the
viewer's view of one run) and redacts what it hides: the item's author (display name, family, model) becomes its
neutral label ("Item 04"), its scores, grades and claim ledgers are withheld. A read given no ``Blind`` hides as
for a reader who graded nothing (the safe default). Operator tools that must see everything (the CLI, reports,
tests of storage) pass :meth:`Blind.open`; the pages never do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from grader.storage import ContestantRow, HumanGradeRow, RunRow, session_scope

HIDDEN_AUTHOR = "hidden until you grade it"


@dataclass(frozen=True)
class Blind:
    """What one viewer may not see of one run: the items (contestant rows and keys) they have not graded yet.

    Hashable, so Streamlit's ``st.cache_data`` can key cached reads by it (a new grade makes a new ``Blind``)."""

    run_id: str
    calibration: bool = False
    hidden_rows: frozenset[int] = frozenset()
    labels: tuple[tuple[str, str], ...] = field(default=())
    """(contestant key, neutral item label) of every hidden item."""
    row_keys: tuple[tuple[int, str], ...] = field(default=())
    """(contestant row id, contestant key) of every hidden item."""

    @classmethod
    def open(cls, run_id: str) -> Blind:
        """Nothing hidden: for operator tools (CLI, reports), never for a page an annotator reads."""
        return cls(run_id=run_id)

    @property
    def hides_any(self) -> bool:
        return bool(self.hidden_rows)

    def hides(self, row_id: int) -> bool:
        return row_id in self.hidden_rows

    def hides_key(self, key: str) -> bool:
        return key in dict(self.labels)

    def label(self, key: str) -> str:
        """The neutral label of a hidden item (its key when it has none)."""
        return dict(self.labels).get(key, key)

    def label_of_row(self, row_id: int) -> str:
        return self.label(dict(self.row_keys).get(row_id, str(row_id)))


def blinding(run_id: str, viewer: str | None, db_url: str | None = None) -> Blind:
    """What ``viewer`` (a signed-in annotator's name; None: nobody signed in) may not see of ``run_id``: on a
    calibration run every item they have not graded in it; on any other run nothing."""
    from grader.calibration import calibration_set_of

    found = calibration_set_of(run_id, db_url)
    if found is None:
        return Blind.open(run_id)
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id}")
        keys = dict(
            s.execute(
                select(ContestantRow.id, ContestantRow.contestant_key).where(ContestantRow.season_id == run.season_id)
            ).all()
        )
        graded: set[int] = set()
        if viewer:
            graded = set(
                s.scalars(
                    select(HumanGradeRow.contestant_id)
                    .where(HumanGradeRow.run_id == run_id, HumanGradeRow.annotator == viewer)
                    .distinct()
                )
            )
    items = found["items"]
    hidden = {rid: key for rid, key in keys.items() if rid not in graded}
    return Blind(
        run_id=run_id,
        calibration=True,
        hidden_rows=frozenset(hidden),
        labels=tuple(sorted((key, str((items.get(key) or {}).get("label") or key)) for key in hidden.values())),
        row_keys=tuple(sorted(hidden.items())),
    )


def resolve(run_id: str, blind: Blind | None, db_url: str | None) -> Blind:
    """The ``Blind`` a read applies: the given one (it must be of this run), else the nobody-signed-in one."""
    if blind is None:
        return blinding(run_id, None, db_url)
    if blind.run_id != run_id:
        raise ValueError(f"a blind view of run {blind.run_id!r} cannot be applied to run {run_id!r}")
    return blind
