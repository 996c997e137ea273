"""Authorship frames and market clauses found on holdout5's development half (odd ids; the even ids are held out),
one case each way: the frame is scrubbed, the market sentence of the same shape stays verbatim."""

from __future__ import annotations

import pytest

from grader.anonymizer import Anonymizer
from grader.anonymizer._anonymizer import universe_allowlist
from tests.anonymizer._battery import FAMILY_MODELS, INFO, contestants_for


def _scrub(family: str, text: str) -> str:
    people = contestants_for({"family": family, "model": FAMILY_MODELS[family]})
    anon = Anonymizer.for_contestants(people, seed="frames", allowlist=universe_allowlist(INFO))
    return anon.scrub(text, f"c-{family}").text


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("meta", "generated with llama-3.3-70b via meta API. Meta Platforms' tax charge is one-off.", "llama"),
        ("meta", "generated with llama-3.3-70b via meta API. Meta Platforms' tax charge is one-off.", "via meta"),
        ("anthropic", "via Anthropic API (claude opus) — thesis: GLD over TLT.", "Anthropic"),
        ("xai", "xai's model speaking — long DIS after the parks margin beat.", "xai"),
    ],
)
def test_how_the_text_was_made_is_an_authorship_frame(family, text, gone):
    assert gone.lower() not in _scrub(family, text).lower()


def test_a_label_in_brackets_ends_at_its_bracket():
    out = _scrub("alibaba", "(model: qwen3-235b-a22b) Sell YUMC: same-store sales are flat.")
    assert "qwen" not in out and out.endswith(") Sell YUMC: same-store sales are flat.")


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("google", "Videos generated with Veo went viral, lifting GOOGL."),  # a product's users, not the author
        ("google", "Apple will offer Gemini via the Google Cloud platform next year; long GOOGL."),
        ("xai", "Grok shipping in every new Tesla is a software-margin story; buy TSLA."),
        ("openai", "ChatGPT Enterprise wins are Microsoft's loss at the margin; trim MSFT."),
        ("alibaba", "Apple's China iPhone AI features reportedly use Qwen models; AAPL's China share matters more."),
    ],
)
def test_market_news_of_the_same_shape_stays(family, text):
    assert _scrub(family, text) == text


def test_shipping_as_a_name_is_the_author_not_news():
    out = _scrub("openai", "This author, a descendant of the text-davinci line now shipping as GPT-4.1, buys the dip.")
    assert "GPT-4.1" not in out


@pytest.mark.parametrize(
    ("family", "text", "kept"),
    [
        (
            "anthropic",
            "[claude-haiku-4-5] Google Cloud's TPU contract with Anthropic is worth tens of billions; buy GOOGL.",
            "Google Cloud's TPU contract with Anthropic is worth tens of billions",
        ),
        ("xai", "[Grok-3] Grok 3's free tier pushed the X app up the charts; long META.", "Grok 3's free tier pushed"),
    ],
)
def test_a_label_names_who_wrote_not_the_news_after_it(family, text, kept):
    """A label says who wrote the text: the market sentence after it is not the author describing itself."""
    out = _scrub(family, text)
    assert kept in out and "[undisclosed]" in out


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("xai", "[xAI / grok-4] xAI's Colossus power draw is why I like utilities: long VST.", "grok-4"),
        ("meta", "Signed-off-by: Llama 3.3 <llama@meta.com>\nTrim GS after the trading beat.", "llama@"),
        (
            "alibaba",
            "DASHSCOPE_API_KEY=*** MODEL=qwen-plus\nnews: Alibaba-backed Moonshot raised; long BABA",
            "DASHSCOPE",
        ),
    ],
)
def test_every_name_inside_a_label_is_the_author_s(family, text, gone):
    assert gone.lower() not in _scrub(family, text).lower()


# Frames found on holdout6's development half (odd ids; the even ids are held out). Sentences written here, of the
# same kinds.


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("xai", "Power demand keeps rising /\n-- grok, long VST", "grok"),  # a sign-off line
        ("anthropic", "Bonds over stocks this week.\n— claude, anthropic", "anthropic"),
        ("mistral", "(c) 2026 Mistral AI. Position: hold TLT.", "Mistral"),  # a copyright line
        ("deepseek", "(DeepSeek, 2026, this note): underweight EWZ.", "DeepSeek"),  # a citation of the text itself
        ("google", "{modelName: 'gemini-3-pro', authorOrg: 'GoogleDeepMind', side: 'buy'}", "DeepMind"),  # keys
        ("openai", "X-Model-Id: gpt-5\nX-Provider: openai\n\nAdd 1% to XLU.", "openai"),  # header keys
        ("mistral", "# vendor: mistral.ai\nsharpe = ret.mean() / ret.std()", "mistral"),  # a key in a comment
        ("alibaba", "Cheers,\nQwen (通义千问)\nclosing the EWH hedge", "通义千问"),  # what describes a replaced name
        ("alibaba", "From Qwen to you: trim EWH.", "Qwen"),  # a letter's opening
        ("meta", "Llama writing (the Scout one, from Meta): sell F.", "Scout"),  # a spoken line
        ("deepseek", "Trained by DeepSeek's Hangzhou team. I stay long TLT.", "DeepSeek"),  # no subject needed
        ("anthropic", "This rationale is authored by a model from Anthropic's lab: buy GLD.", "Anthropic"),
    ],
)
def test_sign_offs_keys_citations_and_subjectless_frames_name_the_author(family, text, gone):
    assert gone.lower() not in _scrub(family, text).lower()


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("mistral", "# thesis: Mistral's Codestral competes with GitHub Copilot, a nonissue for MSFT"),  # a comment
        ("xai", "Grok was put into Telegram under a reported $300 million deal; no read-through."),  # a sum of money
        ("deepseek", '{"event": "DeepSeek R1 sell-off", "NVDA": "-17%"}'),  # a price move
        ("google", "Gemini 2.5 On Alphabet's Quarter: Cloud Up 34%"),  # a quarter's results
    ],
)
def test_news_with_a_sum_a_move_or_a_quarter_stays_verbatim(family, text):
    out = _scrub(family, text)
    news = {
        "mistral": "Mistral's Codestral competes",
        "xai": "Grok was put into Telegram",
        "deepseek": "DeepSeek R1 sell-off",
        "google": "Alphabet's Quarter",
    }[family]
    assert news in out


# found on holdout7's development half (odd ids; the even ids are held out)
@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("openai", "Disclaimer: generated by an OpenAI model; not investment advice.", "OpenAI"),
        ("xai", "Output of an xAI model. Long FICO on model-risk spend.", "xAI"),
        ("meta", "Hi, Meta AI here. Quick take: GLD is a buy.", "Meta"),
        ("deepseek", "This is R1 from DeepSeek. Long SONO.", "DeepSeek"),
        ("mistral", "I like EZU for carry. Bisous from Paris — Mistral AI's model.", "Mistral"),
        ("anthropic", "- Model: Claude Opus 4.1\n- Vendor: Anthropic PBC\n- Call: buy EWJ", "Anthropic"),
        ("google", "Since I was trained at Google DeepMind, I'll skip GOOGL; long TSM.", "DeepMind"),
        ("meta", "I come out of Meta's GenAI org; long SNAP.", "Meta"),
        ("alibaba", "我是千问。利好 BABA。", "千问"),  # a name in a script written without spaces
        ("deepseek", "Fade the FXI rally. 署名：深度求索", "深度求索"),
    ],
)
def test_authorship_said_by_structure_is_scrubbed(family, text, gone):
    assert gone not in _scrub(family, text)


@pytest.mark.parametrize(
    ("family", "text", "kept"),
    [
        ("openai", "Copilot is powered by an OpenAI model, lifting MSFT.", "OpenAI"),  # a product's engine: news
        (
            "openai",
            "Note from an OpenAI model on OpenAI risk: if the financing stalls, ORCL takes the hit.",
            "OpenAI risk",
        ),
        ("alibaba", "我是千问。阿里巴巴的千问App下载量破千万，利好 BABA。", "阿里巴巴的千问App下载量破千万"),
        ("meta", "Hey, the Meta earnings call is tonight; long META.", "Meta earnings"),
    ],
)
def test_the_same_names_as_topics_or_news_stay(family, text, kept):
    assert kept in _scrub(family, text)


# found on dev4 (a development set); holdout4, never read, went from 13 to 8 sentences still naming their author
@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("deepseek", "R1-0528 (that's me) reasons: rising OI with falling price means new shorts.", "R1"),
        ("deepseek", "作为 DeepSeek 模型，我认为这是假突破，减仓。", "DeepSeek"),
        ("google", "Als Gemini-Modell sehe ich bei MSFT eine Überreaktion.", "Gemini"),
        ("openai", "Como modelo de OpenAI, prefiero reducir riesgo.", "OpenAI"),
        ("google", "signed, your friendly Google model. P.S. buybacks support GOOG.", "Google model"),
        ("google", "Trained at Google DeepMind in London, I'd call this a low-conviction short.", "DeepMind"),
        ("anthropic", "I, a model from anthropic, think the squeeze has more room.", "anthropic"),
        ("anthropic", "posted by claude@desk-07", "claude"),
        ("deepseek", "Signed: 深度求索 (the model), short bias maintained.", "深度求索"),
    ],
)
def test_authorship_in_other_languages_signatures_and_asides_is_scrubbed(family, text, gone):
    assert gone not in _scrub(family, text)


def test_a_maker_is_never_read_across_a_line_break():
    """A signature line, then news of the author's own lab on the next: the lab there is no maker of the name."""
    out = _scrub("anthropic", "posted by claude@desk-07\nAnthropic's rumored raise lifts the private-AI marks at AMZN.")
    assert "Anthropic's rumored raise" in out and "claude" not in out


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("google", "Die Capex ist höher als Google, Meta und Microsoft erwartet haben; long NVDA."),  # "als": than
        ("openai", "Empresas como OpenAI, Meta y Google compran GPUs; long NVDA."),  # "como": like
    ],
)
def test_as_in_other_languages_is_a_frame_only_with_a_model_word(family, text):
    assert _scrub(family, text) == text


# Classes found on holdout8's development half (odd ids; the even ids are held out) and holdout7 (both halves now
# development). Sentences written here, never the battery's: other wordings of each class, and the market sentence
# of the same shape that must stay verbatim.
@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        # the first person plural named by its model line in the plural
        ("google", "We Geminis lean defensive this week: add XLU.", "Geminis"),
        ("alibaba", "none of us qwens would chase this; hold FXI.", "qwens"),
        # a former name with no subject, ending its sentence
        ("google", "Previously known as Bard. Long XLP on pricing power.", "Bard"),
        ("google", "Buy GLD. (Once shipped to you as Bard.)", "Bard"),
        # a sign-off phrase and who signs
        ("openai", "Cut HYG. Signing off, your ChatGPT seat on the desk.", "ChatGPT"),
        ("anthropic", "Long TLT.\nSigning off: the Claude instance of round 4", "Claude"),
        # the text's own noun and where it comes from
        ("meta", "This analysis came from a Llama model, so weigh it: long DIS.", "Llama"),
        ("xai", "The note is from xAI; short XLY on delinquencies.", "xAI"),
        # the text's own noun made by someone (this commentary / view / output / memo)
        ("google", "This memo was written by Google's Gemini team: long COPX.", "Google"),
        ("deepseek", "This output was produced by DeepSeek's reasoning model; long EEM.", "DeepSeek"),
        # who wrote the text, with no subject: a model noun after the name, or the sentence ends
        ("mistral", "Composed by the Mistral Large model: fade the CAC rally.", "Mistral"),
        ("alibaba", "Written by Qwen. Long EWH.", "Qwen"),
        # a dash sign-off line whose words say who wrote it
        ("anthropic", "Hold ACN.\n— posted by claude", "claude"),
        ("xai", "Long HOOD.\n-- from grok #weekly", "grok"),
        # a request to a lab's API host
        ("deepseek", "POST api.deepseek.com/chat/completions -> BUY 50 FXI", "deepseek"),
        ("alibaba", "curl -s https://dashscope.aliyuncs.com/api/v1 | jq .order", "aliyuncs"),
        # "X made/built" before the first person or a model noun: the author's maker
        ("google", "Google built me to be careful, so: flat QQQ.", "Google"),
        # where the text was typed, with no subject
        ("openai", "Typed in the ChatGPT app on a train: buy XLF.", "ChatGPT"),
        ("mistral", "Sent from Le Chat. Long EWQ.", "Le Chat"),
        # the maker with a corporate word between it and "made"
        ("alibaba", "Although Alibaba Group made me, I'm neutral on BABA.", "Alibaba"),
        # "we X" in Chinese and Korean
        ("alibaba", "我们通义千问团队看好港股。", "通义千问"),
        ("anthropic", "저희 Claude는 TLT를 매수합니다.", "Claude"),
        # the o-series: OpenAI's reasoning line, by its series name (a name of the lexicon, in a frame)
        ("openai", "I'm an o-series model, so I sell HYG.", "o-series"),
    ],
)
def test_holdout8_frames_name_the_author(family, text, gone):
    assert gone not in _scrub(family, text)


@pytest.mark.parametrize(
    ("family", "text", "kept"),
    [
        # a speaker takes a version or variant before its speech word, not ordinary words ("a wind ... output")
        (
            "mistral",
            "Mistral 3 here. The mistral wind cut wind-farm output in Languedoc; long EDF.",
            "mistral wind cut",
        ),
        # "X made <something>": a clause whose subject is the name, not "X-made"
        (
            "deepseek",
            "Nvidia's sell-off started when R1 showed cheap training works (I recall it well); buy NVDA.",
            "R1 showed cheap training works",
        ),
        (
            "google",
            "Gemini built a lead in app installs, which I like for GOOGL.",
            "Gemini built a lead in app installs",
        ),
        # "the X assistant" followed by an event: the product in the news
        (
            "google",
            "I'm Gemini. The Gemini assistant now ships on Galaxy watches; no read for GOOGL.",
            "Gemini assistant",
        ),
        # a "|" ends a label's run: the next field is another one
        (
            "google",
            "engine=gemini-2.5-pro|news=Google's Gemini app passed 650M users|trade=long GOOGL",
            "Google's Gemini app passed 650M users",
        ),
        # a model line followed by a company's camel-case word is part of that company's name
        ("anthropic", "Haiku BioPharma shares fell 9% on the trial readout; too small for us.", "Haiku BioPharma"),
        # distribution and adoption of a product by a company
        ("anthropic", "Accenture rolling Claude out to 30,000 consultants matters for ACN.", "rolling Claude out"),
        ("mistral", "Free bundling Le Chat into its broadband plans is a small plus for ILD.", "bundling Le Chat"),
        ("google", "Gemini subscriptions doubled in Japan; long GOOGL.", "Gemini subscriptions"),
        ("alibaba", "Qwen topping the open-weights leaderboard again helps the cloud story.", "Qwen topping"),
        ("deepseek", "R1 was the most downloaded app in 140 markets that week.", "R1 was the most downloaded"),
        # a sum of money in the author's own lab's clause is news, beside a label too
        (
            "anthropic",
            "<author>anthropic/claude-sonnet-4.5</author><note>Anthropic's $10B Texas data-center plan helps VST.</note>",
            "Anthropic's $10B Texas data-center plan",
        ),
        # a sum of money in a piece the author speaks in is news
        (
            "meta",
            "Since I was built at Meta, I'd say Meta's $14.3 billion Scale AI stake is the tell; long META.",
            "Meta's $14.3 billion Scale AI stake",
        ),
        # a request verb is case-sensitive: "put" is also a word of deals
        ("google", "Samsung's deal to put Gemini in every Galaxy fridge is immaterial; hold.", "put Gemini in"),
        # the text's own noun and a maker that is no model: "this view comes from Meta's guidance"
        ("meta", "This view comes from Meta's guidance raise, so long META.", "Meta's guidance"),
        # a participle opening a news sentence: the name is followed by no model noun
        ("google", "Drafted by Google's lawyers, the settlement caps the fine at $2B.", "Google's lawyers"),
        # a former name followed by the product's news: no self-description (Bard, a model name in a piece without
        # a market word, is still a model name)
        ("google", "Formerly known as Bard, Gemini now has 650M monthly users; long GOOGL.", "Gemini now has 650M"),
        # "signing off on" a deal is no sign-off
        ("google", "Regulators signing off on Google's Wiz deal would lift GOOGL.", "Google's Wiz deal"),
    ],
)
def test_holdout8_market_news_of_the_same_shape_stays(family, text, kept):
    assert kept in _scrub(family, text)


def test_a_sentence_ends_at_a_full_width_stop():
    """A frame in a Chinese sentence does not reach the next one ("。" ends a sentence as "." does)."""
    out = _scrub("alibaba", "我是千问。阿里巴巴的千问App下载量破千万。")
    assert "阿里巴巴的千问App下载量破千万" in out and "我是千问" not in out


@pytest.mark.parametrize(
    ("family", "text", "kept"),
    [
        ("anthropic", "私は Claude です。Anthropic の大阪拠点開設は追い風です。", "Anthropic の大阪拠点開設"),
        ("xai", "作为 xAI 的模型，我看好电力股：xAI 的新数据中心需要大量电力。", "xAI 的新数据中心"),
    ],
)
def test_the_author_s_lab_is_never_read_across_a_full_width_stop(family, text, kept):
    """The author's own lab beside its scrubbed name ends at a full-width stop, colon or semicolon: the lab in the
    next piece is news."""
    assert kept in _scrub(family, text)


def test_typed_on_a_product_as_news_stays():
    text = "Orders typed into the ChatGPT app rose 40%, a tailwind for MSFT."
    assert "ChatGPT app rose 40%" in _scrub("openai", text)


def test_a_plural_of_no_name_after_we_stays():
    text = "We metals bulls got paid; we options sellers too. Long COPX."
    assert _scrub("meta", text) == text
