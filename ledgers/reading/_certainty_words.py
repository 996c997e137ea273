"""The words the certainty reader (``_certainty.py``) knows: measures, signs, light verbs, scopes, predicates and
windows. A clause is read with certainty only when every word of it is one of these (or the subject's own names,
a field's words, a window): a word outside them is a doubt, never a guess."""

from __future__ import annotations

import re

from ledgers._registry import FIELDS

NEVER_CONTRADICTED = frozenset(
    {"forecast", "probability", "plan", "briefing", "any_return", "any_field", "unrecognised", "categorical"}
)

_MEASURE = set(
    """
return returns returned returning active relative performance perf outperformance underperformance excess alpha
momentum trend vol vola volatility volatile realized realised annualized annualised beta betas corr correlation
correlated drawdown drawdowns dd max maximum distance from high highs low lows 52w 52wk 52-week wk week weeks weekly
month months monthly year years yearly annual quarter quarterly day days daily session sessions trading calendar
trailing prior previous recent recently latest last past window horizon lookback rank ranked ranking percentile
quality score evidence up-day upday share volume z zscore z-score price prices close closing level move moves
gain gains loss losses change ytd mtd strength rsi sma moving average ma macd signal line pe p/e ratio yield
dividend target upside downside points pp bps basis point percent percentage pct ret spread reversal pullback
run run-up runup bounce rebound drop decline rally rise fall selloff sell-off slide surge jump dip swing stretch
stretched extended oversold overbought breakout range record records peak peaks trough lows term near short long
medium intermediate price action benchmark timeframe timeframes horizons windows periods multi cross
""".split()
)
_SIGN = set(
    """
up down higher lower rose fell gained lost losing declined dropped climbed rallied slipped jumped sank surged
advanced retreated positive negative outperformed outperforming outperform outperforms underperformed
underperforming underperform underperforms lagged lagging lags trailed trails led leading leads beat beats beating
rising falling gaining climbing dropping declining sliding slid sold sell selling off gave give giving back
surrendered shed
""".split()
)
_LIGHT = set(
    """
is was are were be been being has had have having shows show showing showed shown posted posting printed prints
delivered delivering returned returning sits sitting sat stands standing stood remains remained remaining trades
traded trading ran running sees saw seen offers offered offering carries carried carrying its it their the a an
and of in on over for at by to about around roughly approximately approx nearly near close ~ only just still now
currently strong stronger strongest weak weaker weakest solid modest sharp sharply very elevated low lower lowest
high higher highest best worst top bottom largest smallest deepest shallowest biggest greatest least most
no not also both while with vs versus against than relative
clear clearly steady steadily firm firmly robust notable notably significant significantly mild mildly slight
slightly small smaller large larger big bigger substantial good better poor poorer positive negative
same flat roughly all every each too after following despite amid since profit taking under beneath another
further additional held holding
""".split()
)
_WINDOW_NUMBER_WORD = re.compile(
    r"^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|sixty)$",
    re.I,
)
_UNIVERSAL_SCOPE = re.compile(
    r"^(?:the\s+)?(?:whole\s+|entire\s+|full\s+|allowed\s+|option\s+|investable\s+)?"
    r"(?:universe|table|cross[-\s]section|list|market|options?\s+list|(?:all\s+)?(?:\d+\s+)?"
    r"(?:options|assets|etfs|choices|instruments))\b|^all\s+(?:\d+\s+)?(?:options|assets|etfs|choices|instruments)\b"
    r"|^(?:every|any)\s+(?:option|asset|etf)\b|^(?:all\s+|multiple\s+|several\s+)?(?:time\s*frames?|horizons|"
    r"windows|periods|lookbacks)\b",
    re.I,
)
_WINDOW_WORDS = re.compile(
    r"\d+\s*-?\s*(?:s|d|w|m|y|mo|days?|sessions?|weeks?|months?|years?)\b|\b(?:one|two|three|"
    r"five|ten|twenty|thirty|six)[\s-]+(?:days?|sessions?|weeks?|months?|years?)\b|\b(?:weekly|monthly|"
    r"yearly|annual|daily|ytd|mtd|week|month|year)\b",
    re.I,
)
_RELATIVE_WORDS = re.compile(
    r"\b(?:vs\.?|versus|relative|active|alpha|excess|outperform\w*|underperform\w*|beat\w*|"
    r"lag\w*|ahead of|behind|than|spread|benchmark|spy|s&p|sp500)\b",
    re.I,
)
_GROUP_NOUNS = {
    "sector",
    "sectors",
    "theme",
    "themes",
    "thematic",
    "group",
    "groups",
    "factor",
    "factors",
    "style",
    "styles",
    "region",
    "regional",
    "country",
    "countries",
    "industry",
    "industries",
    "sleeve",
    "sleeves",
    "equity",
    "equities",
    "stocks",
    "bond",
    "bonds",
    "commodity",
    "commodities",
    "defensive",
    "defensives",
    "cyclical",
    "cyclicals",
    "cohort",
    "slate",
    "basket",
    "peers",
    "peer",
    "class",
    "tech",
    "international",
    "domestic",
    "developed",
    "emerging",
    "proxy",
    "space",
    "complex",
}
_PREDICATES = {
    "rich",
    "cheap",
    "expensive",
    "attractive",
    "reasonable",
    "demanding",
    "undemanding",
    "compelling",
    "confirm",
    "confirms",
    "support",
    "supports",
    "suggest",
    "suggests",
    "indicate",
    "indicates",
    "show",
    "shows",
    "point",
    "points",
    "argue",
    "argues",
    "justify",
    "justifies",
    "favor",
    "favors",
    "favour",
    "favours",
    "signal",
    "signals",
    "imply",
    "implies",
    "reinforce",
    "reinforces",
    "validate",
    "validates",
}
_SCOPE_PREP = {"in", "among", "within", "across", "of", "amongst", "inside"}
_TAIL_STOP = set(
    """
amid with as on after while backed driven supported given due thanks and but into heading ahead since which that
to through likely despite plus because so yet though although whereas offering providing making leaving keeping
suggesting signaling signalling indicating confirming implying showing giving supporting favoring favouring near
""".split()
)
_SUPERLATIVE = re.compile(
    r"^(?:strongest|weakest|best|worst|highest|lowest|largest|smallest|deepest|shallowest|biggest|greatest|least|"
    r"most|top|bottom|leading|leader|led|lead|leads|first|last)$",
    re.I,
)
_RANK_MEASURES = set(
    """
return returns returned returning performance perf performer performers gain gains gainer gainers loss losses loser
losers momentum trend vol vola volatility volatile beta corr correlation correlated drawdown drawdowns dd distance
quality score volume yield ratio rsi spread alpha excess active relative strength move moves mover movers rally
rallied run rise rose fall fell drop dropped decline declined pullback rebound bounce advance advanced upside
downside up down percentile rank ranked week weekly month monthly year ytd session sessions day days
""".split()
)
"""Words that name what a superlative ranks on (a window alone says a return)."""
_NON_RETURN_MEASURES = set(
    """
vol vola volatility volatile beta corr correlation correlated drawdown drawdowns dd mdd distance quality qual score
volume yield ratio rsi spread percentile rank ranked
""".split()
)
"""Measures other than a return: a superlative with no measure of its own may rank on one named beside it."""
_PLURAL_SUBJECT = {
    "segments",
    "sectors",
    "areas",
    "names",
    "assets",
    "themes",
    "exposures",
    "options",
    "holdings",
    "groups",
    "markets",
    "regions",
    "countries",
    "factors",
    "sleeves",
    "candidates",
    "positions",
    "picks",
    "ideas",
    "trades",
    "industries",
}
_WINDOW = re.compile(
    r"^(?:\d+(?:\.\d+)?(?:s|d|w|m|y|mo|wk|h|-?(?:day|days|session|sessions|week|weeks|month|months|"
    r"year|years|yr|yrs))|\d+(?:st|nd|rd|th))$",
    re.I,
)
_NUMBER = re.compile(r"^[+\-\u2212~]?\$?\d[\d,]*(?:\.\d+)?(?:%|x|pp|bps|[kmbt]n?)?$", re.I)
_TOKEN = re.compile(r"[+\-\u2212~]?\$?\d[\d,]*(?:\.\d+)?(?:%|x|pp|bps)?[A-Za-z]*|[A-Za-z][A-Za-z0-9'&/]*|[(),;:]")
_HARD = re.compile(r"[;:\u2014\u2013]|\s-\s|\.\s")
FIELD_WORDS = frozenset(
    w for f in FIELDS for name in (f.name, *f.aliases) for w in re.split(r"[\s_\-/().,&']+", name.lower()) if w
)
"""Every word of a registry field's name or alias ("forward", "p/e", "ebitda", "target", ...)."""

__all__ = [
    "NEVER_CONTRADICTED",
    "_MEASURE",
    "_SIGN",
    "_LIGHT",
    "_WINDOW_NUMBER_WORD",
    "_UNIVERSAL_SCOPE",
    "_WINDOW_WORDS",
    "_RELATIVE_WORDS",
    "_GROUP_NOUNS",
    "_PREDICATES",
    "_SCOPE_PREP",
    "_TAIL_STOP",
    "_SUPERLATIVE",
    "_RANK_MEASURES",
    "_NON_RETURN_MEASURES",
    "_PLURAL_SUBJECT",
    "_WINDOW",
    "_NUMBER",
    "_TOKEN",
    "_HARD",
    "FIELD_WORDS",
]
