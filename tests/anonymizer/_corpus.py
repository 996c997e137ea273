"""Shared test data: a season's contestants, the identity-phrasing leak corpus and the negative corpus."""

from __future__ import annotations

import re

from grader.season import Contestant

CONTESTANTS = [
    Contestant(id="openai-gpt-5-5", display_name="OpenAI GPT-5.5", provider_family="openai", model="gpt-5.5"),
    Contestant(
        id="anthropic-claude-opus-4-8",
        display_name="Anthropic Claude Opus 4.8",
        provider_family="anthropic",
        model="claude-opus-4-8",
    ),
    Contestant(id="xai-grok-4-3", display_name="xAI Grok 4.3", provider_family="xai", model="grok-4.3"),
    Contestant(
        id="google-gemini-3-1-pro",
        display_name="Google Gemini 3.1 Pro",
        provider_family="google",
        model="gemini-3.1-pro",
    ),
    Contestant(id="deepseek-r1", display_name="DeepSeek R1", provider_family="deepseek", model="deepseek-r1"),
    Contestant(
        id="meta-llama-4-maverick",
        display_name="Meta Llama 4 Maverick",
        provider_family="meta",
        model="llama-4-maverick",
    ),
    Contestant(
        id="mistral-large-2",
        display_name="Mistral Large 2",
        provider_family="mistral",
        model="mistral-large-2",
    ),
]

# (sentence, identity words that must be gone afterwards). 80+ phrasings: every variant of the brief, in
# sentences, with punctuation, possessives, different cases, self-identification.
LEAK_CORPUS: list[tuple[str, list[str]]] = [
    ("As an OpenAI model, I prefer quality names.", ["OpenAI"]),
    ("I'm Claude, and I would trim NVDA here.", ["Claude"]),
    ("Grok here: adding to XOM on the breakout.", ["Grok"]),
    ("As a large language model trained by Google, I can't see live prices.", ["Google"]),
    ("GPT-4.1 flagged the same setup.", ["GPT"]),
    ("Unlike gpt4, I weigh valuation.", ["gpt4"]),
    ("GPT 4o suggested otherwise.", ["GPT", "4o"]),
    ("My model, gpt-5.5, is cautious.", ["gpt"]),
    ("o3 would disagree with this thesis.", ["o3"]),
    ("o4-mini was used for the summary.", ["o4"]),
    ("I was built by xAI.", ["xAI"]),
    ("Grok 4.3 reasoning: buy the dip.", ["Grok"]),
    ("Decision by grok-4 (temperature 0).", ["grok"]),
    ("Claude 3.7 Sonnet would hold.", ["Claude", "Sonnet"]),
    ("Model: claude-sonnet-4-6.", ["claude", "sonnet"]),
    ("Sonnet thinks rates will fall.", ["Sonnet"]),
    ("Opus 4.8 conclusion: overweight energy.", ["Opus"]),
    ("Haiku-class models are faster.", ["Haiku"]),
    ("Gemini 3.1 Pro sees upside in LLY.", ["Gemini"]),
    ("Running as gemini-3-1-pro.", ["gemini"]),
    ("Google DeepMind trained me.", ["Google", "DeepMind"]),
    ("Bard once said something similar.", ["Bard"]),
    ("DeepSeek-R1 style chain of thought.", ["DeepSeek"]),
    ("Llama 3 would buy more.", ["Llama"]),
    ("Mistral Large prefers bonds.", ["Mistral"]),
    ("Qwen models are cheap.", ["Qwen"]),
    ("Claude's conviction is moderate.", ["Claude"]),
    ("i'm claude and i like KO.", ["claude"]),
    ("CLAUDE HERE — BUYING PG.", ["CLAUDE"]),
    ("As an Anthropic model I must flag risk.", ["Anthropic"]),
    ("As a Claude model, I avoid leverage.", ["Claude"]),
    ("This is GPT-5.5 speaking: trim risk.", ["GPT"]),
    ("My creators at OpenAI emphasise caution.", ["OpenAI"]),
    ("I am Gemini, a model built by Google.", ["Gemini", "Google"]),
    ("(Grok 4.3) Thesis: energy rotation.", ["Grok"]),
    ("[gpt-5.5] hold", ["gpt"]),
    ("Signed, Claude Opus 4.8.", ["Claude", "Opus"]),
    ("openai/gpt-5.5 output follows.", ["openai", "gpt"]),
    ("anthropic-claude-opus-4-8 decision log", ["anthropic", "claude", "opus"]),
    ("xai-grok-4-3: sell MRK", ["xai", "grok"]),
    ("google-gemini-3-1-pro recommends QUAL", ["google", "gemini"]),
    ("Per Google's Gemini 3.1 Pro, buy.", ["Google", "Gemini"]),
    ("Meta AI and Meta Llama 3 disagree.", ["Llama"]),
    ("meta-llama/Llama-3.1-405B-Instruct says buy.", ["llama"]),
    ("Mistral AI's Mixtral 8x7B is another option.", ["Mistral", "Mixtral"]),
    ("DeepSeek V3 and deepseek-r1 both like value.", ["DeepSeek"]),
    ("Qwen2.5-72B-Instruct scored this.", ["Qwen"]),
    ("I'm ChatGPT.", ["ChatGPT"]),
    ("As a GPT-based assistant, I recommend diversification.", ["GPT"]),
    ("Trained by Anthropic, I try to be careful.", ["Anthropic"]),
    ("I, Grok, think TSLA is overvalued.", ["Grok"]),
    ("Greetings from Claude!", ["Claude"]),
    ("—Gemini", ["Gemini"]),
    ("As the Grok model, I'm contrarian.", ["Grok"]),
    ("Being an xAI system, I favour momentum.", ["xAI"]),
    ("I'm a model from OpenAI.", ["OpenAI"]),
    ("We at Anthropic believe in safety.", ["Anthropic"]),
    ("Claude.ai users: this is not advice.", ["Claude"]),
    ("GPT\u20115.5 with a non-breaking hyphen.", ["GPT"]),
    ("Using GPT-5.5 Pro for this call.", ["GPT"]),
    ("gpt-5.5's target: 120.", ["gpt"]),
    ("The Sonnet 4.6 view is neutral.", ["Sonnet"]),
    ("sonnet-4 and opus-4 variants agree.", ["sonnet", "opus"]),
    ("Google's Bard is retired.", ["Google", "Bard"]),
    ("Grok-ing the data, I think XOM is cheap.", ["Grok"]),
    ("I grok here: long XOM.", ["grok"]),  # the pronoun, then the name ("I grok the setup" is the verb)
    ("as a large language model developed by Meta, I stay neutral.", ["Meta"]),
    ("Kimi K2 and GLM-4.5 disagree.", ["Kimi", "GLM"]),
    ("Phi-4 and Gemma 3 are small models.", ["Phi", "Gemma"]),
    ("Command R+ by Cohere is an option.", ["Command R"]),
    ("DeepMind's Gemini Ultra, per reports.", ["DeepMind", "Gemini"]),
    ("GPT-4o-mini-2024-07-18 snapshot.", ["GPT"]),
    ("claude-3-5-sonnet-20241022 said hold.", ["claude", "sonnet"]),
    ("Gpt4O and CHATGPT and Chat-GPT.", ["Gpt4O", "CHATGPT", "Chat-GPT"]),
    ("Speaking as Grok, I see momentum.", ["Grok"]),
    ("This decision was made by Claude Opus 4.8 (Anthropic).", ["Claude", "Anthropic"]),
    ("I've been trained by OpenAI to be careful.", ["OpenAI"]),
    ("DeepSeek's R1 model and Llama's 405B.", ["DeepSeek", "Llama"]),
    ("text-davinci-003 and gpt-oss-120b are older or open.", ["davinci", "gpt", "oss"]),
    ("Claude-3-Opus, claude3, CLAUDE_3_OPUS and Grok-3-mini-beta.", ["Claude", "claude3", "Grok"]),
]

# Ordinary finance text (and near-misses) that must come out byte for byte unchanged.
NEGATIVE_CORPUS = [
    "Metadata for the trade was logged.",
    "The operator of the pipeline raised capex.",
    "Intermittent claudication trial data for LLY look strong.",
    "His magnum opus was a value fund.",
    "She wrote a haiku about bonds.",
    "NO3 and co3 concentrations matter for fertilizer makers.",
    "Q3 guidance and Q4 outlook both improved; O2 levels are irrelevant.",
    "Precious metals rallied while metallurgical coal fell.",
    "Limited open AI-related exposure through XOM.",
    "The mistral wind hurt French tourism stocks.",
    "A meta point about process: position sizes were small.",
    "Phi Beta Kappa alumni run the fund.",
    "The Geminids meteor shower has no market impact.",
    "Llamas and alpacas are not in the universe.",
    "Googling the ticker found nothing.",
    "A coherent thesis needs cohesive sizing.",
    "Bingo: the breakout held.",
    "Sonnets and haikus aside, KO is defensive.",
    "The metaverse capex cycle is long.",
    "Grokking the curve took time.",
    "Palm oil prices rose 3%.",
    "A deep pullback in deep value names.",
    "Traders seek yield; keep in mind the duration risk.",
    "Claudette sold her shares.",
    "Command center upgrades at XOM.",
    "Chat with management suggested stable margins.",
    "Model X deliveries beat; the model portfolio holds 5 names.",
    "Alpha, beta and gamma of the position are modest.",
    "We open positions at the close; open interest rose.",
    "Quality (QUAL) and momentum (MTUM) factors diverged.",
    "Co-pilot error was blamed for the airline's delay.",
    "Ernie Els won the tournament.",
    "Metamaterials are a niche.",
    "Meta-analysis of factor returns shows momentum decays.",
    "The bard of Avon never traded options.",
    "Gross margin 40%, RSI14 61, SMA50 above SMA200.",
    "I grok the setup.",  # a verb between a pronoun and its object (an xAI author's copy is the leak guard's: a gap)
]


def word_present(word: str, text: str) -> bool:
    """``word`` (any case, separators inside it flexible) appears as a whole word in ``text``."""
    parts = [re.escape(p) for p in re.split(r"[\s.\-]+", word) if p]
    pattern = r"(?<![^\W_])" + r"[\s.\-_\u2011]*".join(parts) + r"(?![^\W_])"
    return re.search(pattern, text, re.IGNORECASE) is not None


# Companies named as market context: they stay verbatim (issue: "scrub identity, not markets"); the scrub report
# lists each one it kept and why. Real sentences from CapitalBench rationales are in test_anon_real_rationales.
MARKET_CONTEXT_CORPUS: list[str] = [
    "OpenAI's latest release moved software stocks.",
    "Open AI is not public, so no exposure.",
    "x.AI raised capital last month.",
    "X AI's Colossus cluster consumes power.",
    "Anthropic's guidance is to be careful.",
    "Meta released new weights.",
    "OPENAI'S VIEW ON AAPL IS IRRELEVANT.",
    "Apple and OpenAI partnership news.",
    "Google\nDeepMind published it.",
    "x-ai and X.AI and XAI.",
    "OpenAI, Anthropic, xAI, Google, DeepSeek, Meta and Mistral all ship models.",
    "Meta-owned Instagram and a Meta-backed lab.",
    "Meta -8% on capex worries while Google Cloud grew +82%.",
    "A data-center lease with Anthropic and Microsoft's stake in OpenAI support the AI capex theme.",
    "xAI buying GPUs adds to Nvidia demand.",
    # products named as actors of market news stay too (issue 30: never an alias or a placeholder where a product
    # stood in the news)
    "ChatGPT users are bullish on AAPL.",
    "Copilot suggested MSFT.",
]
