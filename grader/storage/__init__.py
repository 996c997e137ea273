"""Storage: SQLAlchemy 2 models, Alembic migrations, sessions; ``GRADER_DATABASE_URL`` picks the database."""

from grader.storage._engine import database_url, get_engine, session_scope
from grader.storage._models import (
    Base,
    CalibrationSetRow,
    ContestantRow,
    ContestantScoreRow,
    DecisionRow,
    GradeRow,
    HumanGradeRow,
    IdentityProbeCallRow,
    JudgeCallRow,
    LedgerAnnotationRow,
    LedgerEntryRow,
    PromptRow,
    RunLeaseRow,
    RunRow,
    ScoreVersionRow,
    SeasonRow,
)
from grader.storage._seasons import ImportResult, contestant_map, import_season, season_by_hash

__all__ = [
    "Base",
    "ContestantRow",
    "ContestantScoreRow",
    "DecisionRow",
    "GradeRow",
    "HumanGradeRow",
    "CalibrationSetRow",
    "IdentityProbeCallRow",
    "ImportResult",
    "JudgeCallRow",
    "LedgerAnnotationRow",
    "LedgerEntryRow",
    "PromptRow",
    "RunLeaseRow",
    "RunRow",
    "ScoreVersionRow",
    "SeasonRow",
    "contestant_map",
    "database_url",
    "get_engine",
    "import_season",
    "season_by_hash",
    "session_scope",
]
