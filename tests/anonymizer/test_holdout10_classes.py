"""Classes read on the odd ids of holdout10 (issue 30, session of 09:20 UTC 2026-11-27), one structural rule each,
written with sentences of other wording than the battery's, and the market sentence of the same shape that must stay:
a name disguised by its code points (full-width letters, an invisible character, Unicode spaces or dots and hyphens
between its letters); the people and places behind a lab named as the author's maker; a phrase the author glosses as
itself ("(me)"); a question the text asks of itself, a denial and a relation ("I'm not X", "I'm its predecessor, X");
the author's own words in quotes; a header line (User-Agent, X-*, commit trailers, a sender with an address); a
footnote citing a model by its lab; a tier speaking with its line in brackets, a speaker line made of where the author
was made, the first person as a tier; a header naming the unit of a lab the text comes from; the model a lab ships
under a name as who wrote the text; verbs of working the text out and the lab's model in apposition; the lab's
weights in a fragment and "由「X」的 Y 生成". Market text kept: a company putting a product into its own, a cell of a
data table, a model line as the second half of a place or a person's name, a company that makes no model in a
header. The leak guard learns each class with its own patterns."""

from __future__ import annotations

import pytest

from tests.anonymizer._class_checks import check_kept, check_passed, check_refused, check_removed


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        # a name disguised by its code points
        ("openai", "Ｃｈａｔｇｐｔ writing: trim QQQ into the print.", "ｃｈａｔｇｐｔ"),
        ("anthropic", "Hai\u200bku here, short notes only: buy XLV.", "hai\u200bku"),
        ("xai", "G\u2009r\u2009o\u2009k speaking: long TSLA calls are too rich.", "g\u2009r\u2009o\u2009k"),
        ("meta", "Signed, L.L.A.M.A. Long XLE.", "l.l.a.m.a"),
        ("alibaba", "Q.w.e.n here: long FXI.", "q.w.e.n"),
        ("google", "G-E-M-I-N-I here: long XLU.", "g-e-m-i-n-i"),
        # the people and places behind a lab named as the author's maker
        ("openai", "Sam Altman's startup trained me, so weigh this QQQ call accordingly.", "altman"),
        ("google", "I was built by Demis Hassabis's team; long XLU.", "hassabis"),
        ("alibaba", "This model was trained by Eddie Wu's group in Hangzhou; long FXI.", "eddie wu"),
        ("anthropic", "Sent from 500 Howard Street by the model on desk 4: long XLV.", "howard"),
        # a phrase the author glosses as itself
        ("xai", "Elon's chatbot (me) thinks utilities are cheap; long XLU.", "elon"),
        ("meta", "The Llama desk model (that's me) is flat SPY.", "llama"),
        # a question the text asks of itself; a denial; a relation
        ("mistral", "Is this Magistral? Nope. Long EWQ.", "magistral"),
        ("google", "Is it Flash? No: it's Gemini Pro, long XLU.", "flash"),
        ("meta", "Am I a Llama? Since you ask: long XLE.", "llama"),
        ("anthropic", "Who is writing? Not Haiku, for once: long XLV.", "haiku"),
        ("openai", "I'm not o3, whatever the log says; long TLT.", "o3"),
        ("deepseek", "I am the earlier version, V3, and I'd buy FXI.", "v3"),
        # the author's own words in quotes
        ("xai", "I told the desk 'Grok 4, heavy mode,' before sizing; long TLT.", "grok"),
        ("mistral", "J'ai répondu « je suis Mistral Small », puis: achat EWQ.", "mistral"),
        # a header line
        ("openai", "X-Org: openai\nCall: long TLT", "openai"),
        ("google", "Co-authored-by: gemini-cli <gemini@google.com>\nlong XLU", "gemini"),
        ("xai", "Reply-To: desk <grok@x.ai>\nshort TSLA", "grok"),
        # a footnote citing a model by its lab
        (
            "google",
            "Rates look heavy; long TLT.[^a]\n\n[^a]: Google DeepMind (2025). *Gemini 2.5 Pro*, run 12.",
            "deepmind",
        ),
        # a tier speaking with its line in brackets; where the author was made; the first person as a tier
        ("anthropic", "Opus here (Claude family): long XLV.", "opus"),
        ("deepseek", "DeepSeek-trained, Hangzhou-based model here: long FXI.", "deepseek"),
        ("mistral", "Magistral-tuned, Paris-built reasoner here (Mistral line): long EWQ.", "magistral"),
        ("openai", "I'm the Mini tier, so keep it short: long SPY.", "mini"),
        # a header naming the unit of a lab the text comes from
        ("meta", "From the Llama team at Meta: long XLE.", "llama"),
        ("alibaba", "From the Qwen series of Alibaba Cloud: buy FXI.", "qwen"),
        # the model a lab ships under a name, as who wrote the text
        ("google", "Drafted by the model Google ships as Gemini 2.5 Flash; long XLU.", "gemini"),
        # verbs of working the text out, and the lab's model in apposition
        ("mistral", "This trade was worked out by Mistral's small model, Ministral, and it is long EWQ.", "ministral"),
        # the lab's weights in a fragment; a name in quotes before its model in Chinese
        ("meta", "Scout-sized view; Meta weights. Long XLE.", "meta"),
        ("alibaba", "本文由『通义千问』的 Qwen3-Max 撰写：买入 FXI。", "通义千问"),
        # a Latin name right after the first person in a script without spaces
        ("anthropic", "僕はClaudeなので、XLVを買う。", "claude"),
        ("alibaba", "저는Qwen3 모델입니다. FXI 매수.", "qwen"),
        # a speaker line opened by a version and its variant or size alone
        ("mistral", "Small 3 here: long EWQ.", "small 3"),
        ("xai", "3 Heavy speaking: short TSLA.", "3 heavy"),
        ("meta", "4.0 17B here: long XLE.", "17b"),
        ("alibaba", "480B total / 35B active here: buy FXI.", "480b"),
        # a lab or line as a segment of an environment variable's name
        ("anthropic", "ANTHROPIC_API_KEY loaded; long XLV.", "anthropic"),
        ("xai", "GROK_TEMPERATURE=0.2 set; short TSLA.", "grok"),
        # the places behind a lab, where the author was made or wrote
        ("meta", "Built at Menlo Park, I lean long XLE.", "menlo park"),
        ("openai", "Drafted in Mission Bay by a model; long TLT.", "mission bay"),
        ("xai", "Memphis-built assistant here: short TSLA.", "memphis"),
        # the people of a lab as its maker, a lab's holding company as the maker
        ("google", "Google Brain engineers built me; long XLU.", "google brain"),
        ("xai", "X.AI Holdings trained me; short TSLA.", "x.ai"),
        # a CSV or TSV record under an authorship column; a name in emphasis before "here"
        ("openai", "speaker\tcall\no4-mini\tlong TLT", "o4-mini"),
        ("meta", "_Maverick_ here: long XLE.", "maverick"),
        # a chat host where the text was drafted
        ("deepseek", "Typed at chat.deepseek.com; buy FXI.", "deepseek"),
        # a lab or a line as a segment of a file path
        ("mistral", "Weights at /srv/ckpt/mistral/large-2411/ -> long EWQ.", "mistral"),
        ("google", "cache: ../runs/deepmind/eval.json; long XLU.", "deepmind"),
        # the first person's own sibling model, by whatever name
        ("google", "Unlike my Veo video model sibling, I only trade: long XLU.", "veo"),
    ],
)
def test_the_author_is_scrubbed_and_the_guard_refuses_it(family: str, text: str, gone: str) -> None:
    check_removed(family, text, gone)


@pytest.mark.parametrize(
    ("family", "text"),
    [
        # full-width text and Unicode spaces that name nobody
        ("deepseek", "ＦＸＩ rose 2% as Ｓｈａｎｇｈａｉ reopened."),
        ("openai", "Sam Altman's company raised $40B at a $300B valuation; MSFT owns a stake."),
        ("xai", "Elon Musk's company bought 100,000 more GPUs in Memphis; NVDA rose."),
        # a question about a product, no answer: news
        ("google", "Is this Gemini's moment? GOOGL rallied 4% on the launch."),
        # a quote of someone else's words about a product
        ("google", 'Pichai told investors "Gemini 3 drove Cloud growth"; GOOGL +4%.'),
        ("anthropic", 'Analysts said "Claude Code revenue doubled"; AMZN rose.'),
        # a company putting a product into its own, and embedding it
        ("anthropic", "Apple is putting Claude into Xcode; AAPL +1%."),
        ("google", "Samsung is embedding Gemini in every Galaxy phone; 005930.KS rose."),
        # a cell of a data table with no authorship column
        ("alibaba", "| benchmark | top score |\n|---|---|\n| LiveCodeBench | Qwen3-Max |\nBABA +2% on the print."),
        ("deepseek", "| app | rank |\n|---|---|\n| DeepSeek | 1 |\n| ChatGPT | 2 |\nNVDA fell 17%."),
        # a model line as the second half of a place or a person's name
        ("anthropic", "Tourism in Saint-Claude rose 4%; the Jura region's hotels are cheap."),
        ("mistral", "Jean-Mistral Dupont, the new CFO, bought shares."),
        # a company that makes no model, in a header line
        ("meta", "X-Cache: HIT via Groq\n\nMETA fell 2% on capex."),
        # the lab's weights as news
        ("meta", "Meta weights were downloaded 1B times; META rose."),
        # a Latin name after other CJK words: news
        ("google", "谷歌发布Gemini 3，GOOGL上涨。"),
        # versions and variants that are products in the news
        ("openai", "The iPhone 17 Pro here in Europe costs more; AAPL flat."),
        ("google", "Pixel 10 Pro sales rose; GOOGL +1%."),
        # environment-like names that name no lab, and a lab's place in the news
        ("meta", "SPY_CLOSE_PRICE fell; META_HOLDERS unchanged."),
        ("meta", "Meta built a data center in Menlo Park; META rose 2%."),
        ("xai", "xAI's Memphis-based Colossus cluster drew power complaints; TSLA flat."),
        # a chat host in the news
        ("deepseek", "Traffic to chat.deepseek.com rose 30% in January; NVDA fell."),
        # a list of companies with slashes, and another's video model
        ("meta", "Microsoft/Amazon/Meta capex rose; META up 3%."),
        ("google", "OpenAI's Sora video model drew 1M downloads; GOOGL fell."),
        # a unit of a lab heading news, a header that reports news, a version before other words than speech
        ("deepseek", "From the research team at DeepSeek: a paper on MoE drove NVDA down 3%."),
        ("openai", "X-Rate: OpenAI raised prices 10%\nMSFT flat"),
        ("mistral", "Medium 3 speaking engagements boosted WPP; long EWQ."),
    ],
)
def test_market_text_of_the_same_shape_stays(family: str, text: str) -> None:
    check_kept(family, text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("mistral", "mistral-large", "ｍｉｓｔｒａｌ ｍｅｄｉｕｍ speaking: long EWQ."),
        ("anthropic", "claude-opus-4-7", "Cla\u200bude here, long XLV."),
        ("google", "gemini-3-1-pro", "G\u2009e\u2009m\u2009m\u2009a here: long XLU."),
        ("deepseek", "deepseek-v3", "Deep\nSeek speaking: long FXI."),
        ("meta", "llama-4-maverick", "My maker, Meta, now spends on AI; long XLE."),
        ("meta", "llama-4-maverick", "- note: my creator is Meta Platforms"),
        ("alibaba", "qwen3-235b", "Eddie Wu's research unit trained me; long FXI."),
        ("xai", "grok-4", "The Elon lab's assistant (me) is short TSLA."),
        ("anthropic", "claude-opus-4-7", "Written in SF by the model Anthropic ships as Opus; long XLV."),
        ("openai", "gpt-5", "User-Agent: openai-python/1.40 (gpt-5)\nlong TLT"),
        ("openai", "gpt-5", "[^2]: OpenAI (2025). GPT-5 system card."),
        ("deepseek", "deepseek-v3", "High-Flyer-backed model here: long FXI."),
        ("openai", "gpt-5", "From the reasoning team at OpenAI: long TLT."),
        ("mistral", "mistral-large", "Is it Large? Nope. Long EWQ."),
        ("mistral", "mistral-large", "I'm its Small model; long EWQ."),
        ("google", "gemini-3-1-pro", "Pro here ([model] line): long XLU."),
        ("openai", "gpt-5", "I said 'GPT-5, thinking mode' to the PM; long TLT."),
        ("deepseek", "deepseek-v3", "我们的报告由「DeepSeek」的 V3 生成。"),
        ("alibaba", "qwen3-235b", "Alibaba Cloud weights. Long FXI."),
        ("anthropic", "claude-opus-4-7", "This call was reasoned out by Claude; long XLV."),
        ("google", "gemini-3-1-pro", "Flash here: long XLU."),
        ("mistral", "mistral-large", "Medium 3 speaking: long EWQ."),
        ("mistral", "mistral-large", "MISTRAL_API_KEY=*** set; long EWQ."),
        ("openai", "gpt-5", "author,call\ngpt-5,long SPY"),
        ("xai", "grok-4", "Memphis-trained model here: short TSLA."),
        ("google", "gemini-3-1-pro", "Written in Mountain View by a model; long XLU."),
        ("xai", "grok-4", "X.AI Holdings made me; short TSLA."),
        ("alibaba", "qwen3-235b", "/opt/models/alibaba/tongyi/ -> long FXI"),
        ("alibaba", "qwen3-235b", "Not our Wan video model, just me: long FXI."),
        ("alibaba", "qwen3-235b", "From the Tongyi group of Alibaba Cloud: buy FXI."),
    ],
)
def test_the_guard_refuses_each_class_with_its_own_patterns(family: str, model: str, text: str) -> None:
    check_refused(family, model, text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("anthropic", "claude-opus-4-7", "Tourism in Saint-Claude rose 4%; the Jura region's hotels are cheap."),
        ("google", "gemini-3-1-pro", "Analyst Gemma Okafor cut GOOGL to hold."),
        ("anthropic", "claude-opus-4-7", "Opus Genetics (IRD) fell 9% on trial data."),
        ("xai", "grok-4", "Elon Musk's company bought more GPUs in Memphis; NVDA rose."),
        (
            "anthropic",
            "claude-opus-4-7",
            "Claude was down for an hour on Monday; AMZN, which hosts Anthropic models, was flat.",
        ),
    ],
)
def test_the_guard_passes_market_text_of_the_same_shape(family: str, model: str, text: str) -> None:
    check_passed(family, model, text)
