"""Reading claim text: a sentence -> the assertions it makes (numbers bound to fields, rankings and signs,
qualitative phrases, forecasts, plans and probabilities), each with its span and its subject.

One module per concern: ``_vocab`` (shared word lists), ``_horizons``, ``_clauses`` (clauses, forecast words,
subjects), ``_fields`` (field phrases), ``_binding`` (what a number is bound to), ``_numbers`` (which numbers are
claims), ``_number_assertion`` (a number found and the assertion it makes), ``_intent`` (probabilities, plans,
forecasts), ``_ranking`` (superlatives and signs), ``_technical`` / ``_trend`` / ``_fundamentals`` (qualitative
readers, run by ``_qualitative``; ``_moves``, ``_move_nouns`` and ``_owned_moves`` read moves said by a verb, as a
noun phrase, and with their owner inside the phrase; ``_held_sets`` a move said of the writer's holdings as a set), ``_text`` (one sentence), ``_template`` (the cache of sentence shapes),
``_keys`` (a figure written as a key's value), ``_tables`` (a markdown table's rows and columns).
"""

from ledgers.reading._certainty import ClauseRead, key_doubt, read_clause
from ledgers.reading._clauses import (
    Mention,
    clause_start,
    forecast_marker_before,
    main_subject,
    piece_label,
    subjects,
)
from ledgers.reading._figure_rank import figure_rank
from ledgers.reading._held_sets import HeldSet, read_held_sets
from ledgers.reading._horizons import FIELD_HORIZONS, HORIZON_FIELDS, horizon_key
from ledgers.reading._keys import key_before, key_field_of, ranking_keys, value_start
from ledgers.reading._leadership import leader
from ledgers.reading._list_subjects import shared_by_list
from ledgers.reading._number_assertion import NumberHit
from ledgers.reading._numbers import find_numbers
from ledgers.reading._tables import table_rows
from ledgers.reading._template import parse_assertions_cached, skeleton
from ledgers.reading._text import Parsed, parse_assertions, parse_text
from ledgers.reading._vocab import SIGN_WORDS

__all__ = [
    "ClauseRead",
    "FIELD_HORIZONS",
    "HORIZON_FIELDS",
    "HeldSet",
    "Mention",
    "NumberHit",
    "Parsed",
    "SIGN_WORDS",
    "clause_start",
    "figure_rank",
    "find_numbers",
    "forecast_marker_before",
    "horizon_key",
    "key_before",
    "key_doubt",
    "key_field_of",
    "main_subject",
    "parse_assertions",
    "parse_assertions_cached",
    "parse_text",
    "read_held_sets",
    "shared_by_list",
    "leader",
    "piece_label",
    "ranking_keys",
    "read_clause",
    "skeleton",
    "subjects",
    "table_rows",
    "value_start",
]
