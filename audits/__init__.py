"""Judge audits and the published judge-agreement report.

Inputs are plain typed data (:class:`AuditInputs`: run metadata plus pandas tables) so every statistic is
testable without storage. Each audit returns a pydantic result with ``caveats`` in plain words;
:func:`build_report` runs them all and :func:`write_report` writes HTML, Markdown, JSON and CSV.
"""

from audits._agreement import (
    AgreementResult,
    AxisAgreement,
    BlandAltmanPair,
    ContestantSpread,
    KendallW,
    agreement,
    kendall_w,
    krippendorff_interval_alpha,
)
from audits._calibration import AgreementWithReference, CalibrationPoint, CalibrationResult, calibration
from audits._charts import Chart
from audits._document import Caveats, ChartBlock, Definitions, Paragraph, Table
from audits._grounding import GroundingResult, JudgeGrounding, MissedContradiction, grounding
from audits._identity_probe import IdentityProbe, JudgeGuesses, judge_guess_stats, stylometric_probe
from audits._inputs import (
    DEFAULT_BANDS,
    LEDGER_COLUMNS,
    LOOKAHEAD_COLUMNS,
    OUTCOME_COLUMNS,
    SCORE_AXES,
    SCORES_COLUMNS,
    AuditInputError,
    AuditInputs,
    Band,
    RunMeta,
    RunType,
    SeasonStatus,
    band_of,
)
from audits._rank_confidence import ContestantRankConfidence, RankConfidenceResult, rank_confidence
from audits._render_html import render_html
from audits._render_markdown import render_markdown
from audits._report import RUN_TYPE_LABELS, AuditReport, ClaimsInRationales, ReportSettings, build_report
from audits._sections import report_document
from audits._self_consistency import RaterConsistency, SelfConsistencyResult, self_consistency
from audits._self_preference import ConsensusPoint, JudgeSelfPreference, SelfPreferenceResult, self_preference
from audits._stats import IccEstimate, alpha_label, icc_label, icc_two_way
from audits._write import write_report

__all__ = [
    "DEFAULT_BANDS",
    "LEDGER_COLUMNS",
    "LOOKAHEAD_COLUMNS",
    "OUTCOME_COLUMNS",
    "RUN_TYPE_LABELS",
    "SCORES_COLUMNS",
    "SCORE_AXES",
    "AgreementResult",
    "AgreementWithReference",
    "AuditInputError",
    "AuditInputs",
    "AuditReport",
    "AxisAgreement",
    "Band",
    "BlandAltmanPair",
    "CalibrationPoint",
    "CalibrationResult",
    "Caveats",
    "Chart",
    "ChartBlock",
    "ClaimsInRationales",
    "ConsensusPoint",
    "ContestantRankConfidence",
    "ContestantSpread",
    "Definitions",
    "GroundingResult",
    "IccEstimate",
    "IdentityProbe",
    "JudgeGrounding",
    "JudgeGuesses",
    "JudgeSelfPreference",
    "KendallW",
    "MissedContradiction",
    "Paragraph",
    "RankConfidenceResult",
    "RaterConsistency",
    "ReportSettings",
    "RunMeta",
    "RunType",
    "SeasonStatus",
    "SelfConsistencyResult",
    "SelfPreferenceResult",
    "Table",
    "agreement",
    "alpha_label",
    "band_of",
    "build_report",
    "calibration",
    "grounding",
    "icc_label",
    "icc_two_way",
    "judge_guess_stats",
    "kendall_w",
    "krippendorff_interval_alpha",
    "rank_confidence",
    "render_html",
    "render_markdown",
    "report_document",
    "self_consistency",
    "self_preference",
    "stylometric_probe",
    "write_report",
]
