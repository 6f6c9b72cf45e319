"""Every card's rule text, of every box combination and in both languages, is grammatical.

Issue 9: "Fix the text bugs a read-through finds (e.g. "1 Bravery Points", "With 5 players or
more", a capital after a semicolon, a header breaking "1-й"); add a test that renders every card of
every box in both languages and checks agreement (singular/plural) and that no message falls back
to another language."

The checkers below are plain functions of a string, so that the small tests at the end can feed
them known-bad text: a check that cannot fail proves nothing.
"""
from __future__ import annotations

import re
from functools import cache

import pytest
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.compiler.compile import Compiled
from nidavellir.compiler.docs import card_views, compile_rules, load_catalog, render_all
from nidavellir.compiler.docs.text import (
    PLURAL_CATEGORIES,
    Catalog,
    MissingMessage,
    card_text,
    context_of,
    effect_text,
    plural_category,
)
from nidavellir.compiler.dsl import parse_effect
from nidavellir.interface.rules import CardDef

BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]
LANGS = ("en", "be")
CASES = [(boxes, lang) for boxes in BOXES for lang in LANGS]

# Words in Latin letters a Belarusian card may show by design: none. Seed 004 leaves the Idavoll
# names in Latin letters, but be/cards.yaml writes every name in Cyrillic (as 004 writes
# Thingvellir's), so a Latin word on a Belarusian card is English that fell through.
LATIN_BY_DESIGN: frozenset[str] = frozenset()
# The nouns the rule text counts; each catalog gives their forms (`plural.<noun>.<category>`).
COUNTED = {"point", "coin", "card", "rank", "token", "notch", "column"}


# -- the reference rules the checks hold text to (CLDR cardinal categories of whole numbers) ------

def cldr_category(lang: str, n: int) -> str:
    """English: one for 1, other otherwise. Belarusian: one: n%10=1 and n%100≠11; few: n%10=2..4
    and n%100∉12..14; many: otherwise (the issue's rule, written here apart from text.py's)."""
    if lang == "en":
        return "one" if n == 1 else "other"
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return "few"
    return "many"


@cache
def counted_nouns(lang: str) -> dict[str, dict[str, str]]:
    """noun -> category -> form, from the catalog's `plural.<noun>.<category>` keys."""
    nouns: dict[str, dict[str, str]] = {}
    for key, text in Catalog.load(lang).messages.items():
        if key.startswith("plural."):
            noun, _, category = key[len("plural."):].rpartition(".")
            nouns.setdefault(noun, {})[category] = text
    return nouns


# -- the checkers ---------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.,/+-])(\d+) ")   # a whole number, then a space (not "1-й", "+3", "2.5")
_CLASS_WORD = re.compile(r"[A-Z]\w* ")          # a class between a number and its noun: "1 Warrior rank"


def agreement(text: str, lang: str, nouns: dict[str, dict[str, str]]) -> tuple[list[str], set[str]]:
    """(errors, the categories seen): each number followed by a counted noun (after at most two
    capitalised words, a class name) must be followed by the noun's form for its plural category."""
    errors, seen = [], set()
    for m in _NUMBER.finditer(text):
        n, rest = int(m.group(1)), text[m.end():]
        want = cldr_category(lang, n)
        for _ in range(3):
            for forms in nouns.values():
                found = {cat for cat, form in forms.items() if re.match(re.escape(form) + r"(?!\w)", rest)}
                if not found:
                    continue
                seen.add(want)
                if want not in found:
                    errors.append(f"{n} {forms[min(found)]!r}: {want} wants {forms.get(want)!r} ({text!r})")
            skip = _CLASS_WORD.match(rest)
            if not skip:
                break
            rest = rest[skip.end():]
    return errors, seen


def agreement_errors(text: str, lang: str) -> list[str]:
    return agreement(text, lang, counted_nouns(lang))[0]


def latin_words(text: str) -> list[str]:
    """Words in Latin letters (English left in a Belarusian text), but the names Latin by design."""
    return [w for w in re.findall(r"[A-Za-z][\w’'-]*", text) if w not in LATIN_BY_DESIGN]


_ARTICLE_A = re.compile(r"\b[Aa] (?=[AEIOUaeiou])(?!one|once|uni|use|eu)")
_ARTICLE_AN = re.compile(r"\b[Aa]n (?=[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z])(?!hour|honest|heir)")


def style_errors(text: str, lang: str, names: frozenset[str] = frozenset()) -> list[str]:
    """Typography a read-through flags: a capital after a semicolon (unless a name starts there),
    a doubled space or punctuation, a space before punctuation, a placeholder left, an empty
    sentence; in English "a" before a vowel sound and "an" before a consonant; in Belarusian у
    where a vowel before it makes it ў."""
    errors = []
    if not text.strip():
        errors.append("empty text")
    for m in re.finditer(r"; (\w)", text):
        if m.group(1).isupper() and not any(text.startswith(name, m.start(1)) for name in names):
            errors.append(f"capital after a semicolon: {text[m.start():m.start() + 20]!r}")
    if "  " in text:
        errors.append("double space")
    if re.search(r"[{}]", text):
        errors.append("placeholder left")
    if re.search(r"([,.;:])\1|[,;:][.,;:]|\.[,;:]", text):
        errors.append("doubled punctuation")
    if re.search(r" [,.;:)]|\( ", text):
        errors.append("space before punctuation")
    if lang == "en" and (_ARTICLE_A.search(text) or _ARTICLE_AN.search(text)):
        errors.append("a/an")
    if lang == "be" and re.search(r"(?<=[аеёіоуыэюяАЕЁІОУЫЭЮЯ]) у(?=\w| )", text):
        errors.append("у after a vowel (ў)")
    return [f"{e}: {text!r}" for e in errors]


# -- every card of every box, both languages -------------------------------------------------------

@cache
def _compiled(boxes: tuple[str, ...]) -> Compiled:
    return compile_rules(boxes)


@cache
def _views(boxes: tuple[str, ...], lang: str) -> tuple[list[dict[str, object]], Catalog]:
    cat = load_catalog(lang)
    views = [dict(v) for v in card_views(_compiled(boxes), cat)]
    return views, cat


def _names(views: list[dict[str, object]]) -> frozenset[str]:
    return frozenset(str(v["name"]) for v in views)


@pytest.mark.parametrize("boxes, lang", CASES)
def test_every_card_agrees_in_number(boxes, lang):
    """Issue 9: "checks agreement (singular/plural)": after every number, a counted noun (points,
    coins, cards, ranks, tokens, notches, columns) takes the form of the number's plural category —
    "1 Bravery Point", "5 Bravery Points"; "1 ранг", "2 рангі", "5 рангаў", "21 ранг"."""
    views, _ = _views(boxes, lang)
    errors, seen = [], set()
    for v in views:
        for sentence in v["text"]:  # type: ignore[attr-defined]
            found, categories = agreement(sentence, lang, counted_nouns(lang))
            errors += [f"{v['id']}: {e}" for e in found]
            seen |= categories
    assert not errors, errors
    if boxes == ("thingvellir", "idavoll"):  # the check met every form: it checked something
        assert seen == set(PLURAL_CATEGORIES[lang]), seen


@pytest.mark.parametrize("boxes, lang", CASES)
def test_every_card_reads_cleanly(boxes, lang):
    """Issue 9: "Fix the text bugs a read-through finds (… a capital after a semicolon …)": no
    capital after a semicolon (but a card's name), no double space or doubled punctuation, no
    "{"/"}" left, no empty sentence, no card with effects and no text; "a"/"an" and у/ў right."""
    compiled = _compiled(boxes)
    views, _ = _views(boxes, lang)
    names = _names(views)
    errors = []
    for v in views:
        text = v["text"]
        if compiled.effects.get(str(v["id"])) and not text:
            errors.append(f"{v['id']}: no text")
        for sentence in text:  # type: ignore[attr-defined]
            errors += [f"{v['id']}: {e}" for e in style_errors(sentence, lang, names)]
            if not sentence.endswith("."):
                errors.append(f"{v['id']}: no full stop: {sentence!r}")
    assert not errors, errors


@pytest.mark.parametrize("boxes", BOXES)
def test_no_belarusian_card_falls_back_to_english(boxes):
    """Issue 9: "checks … that no message falls back to another language": rendering every card
    and the whole reference in Belarusian records no `missing` key, and no card (name, class, ranks,
    text) shows a word in Latin letters (none is Latin by design: LATIN_BY_DESIGN)."""
    compiled = _compiled(boxes)
    cat = load_catalog("be")
    views = card_views(compiled, cat)
    render_all(compiled, cat)
    assert not cat.missing, sorted(cat.missing)
    latin = [(v["id"], w) for v in views
             for piece in [v["name"], v["class_label"], v["ranks_label"], *v["text"]] for w in latin_words(piece)]
    assert not latin, latin


def test_counted_nouns_have_every_form_of_their_language():
    """Issue 9: "check the catalog has plural forms": the nouns card text counts, with English
    one/other and Belarusian one/few/many forms."""
    for lang in LANGS:
        nouns = counted_nouns(lang)
        assert COUNTED <= set(nouns), COUNTED - set(nouns)
        assert all(set(forms) == set(PLURAL_CATEGORIES[lang]) for forms in nouns.values()), nouns


# Forms seed 004 prints after a number (004 "Heroes", "Artifacts", "Setup"): the catalog's forms,
# which the agreement check trusts, are held to them.
SEED_004_FORMS = {
    ("point", 1): "пункт",     # "1 пункт за шахтэра"
    ("point", 4): "пункты",    # "варты 4 пункты"
    ("point", 12): "пунктаў",  # "варты 12 пунктаў"
    ("rank", 1): "ранг",       # "1 ранг 3"
    ("rank", 2): "рангі",      # "2 рангі"
    ("card", 3): "карты",      # "вазьміце 3 карты з тальлі 2-й эпохі"
    ("coin", 34): "манэты",    # "34 манэты Каралеўскага скарбу"
    ("coin", 5): "манэтаў",    # "5 звычайных манэтаў"
}


@pytest.mark.parametrize("noun, n", sorted(SEED_004_FORMS))
def test_belarusian_forms_follow_seed_004(noun, n):
    """Belarusian wording follows seed 004: the forms it prints after a number."""
    assert Catalog.load("be").noun(noun, n).split()[0] == SEED_004_FORMS[noun, n]


def test_each_category_has_its_own_form():
    """A form shared by two categories would let the agreement check pass a wrong number."""
    for lang in LANGS:
        for noun, forms in counted_nouns(lang).items():
            assert len(set(forms.values())) == len(forms), (lang, noun, forms)


# -- the checkers fail on bad text -----------------------------------------------------------------

@pytest.mark.parametrize("lang, bad", [
    ("en", "1 Warrior rank, worth 1 Bravery Points."),
    ("en", "1 Warrior rank, worth 2 Bravery Point."),
    ("en", "1 Warrior ranks."),
    ("en", "draw 3 card from the deck."),
    ("be", "1 ранг клясу «Ваяр», вартасьцю 1 пункты мужнасьці."),
    ("be", "2 рангаў клясу «Ваяр»."),
    ("be", "5 рангі клясу «Ваяр»."),
    ("be", "11 ранг клясу «Ваяр»."),
    ("be", "12 рангі клясу «Ваяр»."),
    ("be", "21 рангі клясу «Ваяр»."),
    ("be", "22 рангаў клясу «Ваяр»."),
    ("be", "вазьміце 5 карты з тальлі."),
    ("be", "пакладзіце на гэтую карту 2 жэтонаў."),
])
def test_the_agreement_check_finds_a_wrong_form(lang, bad):
    """Issue 9: "1 Bravery Points" is the bug the check must catch, in either language."""
    assert agreement_errors(bad, lang), bad


@pytest.mark.parametrize("lang, good", [
    ("en", "1 Warrior rank, worth 1 Bravery Point."),
    ("en", "2 Warrior ranks, worth 7 and 0 Bravery Points."),
    ("en", "draw 3 cards (6 with Garm) from the Age 2 deck, keep 1 and shuffle."),
    ("be", "1 ранг клясу «Ваяр», вартасьцю 1 пункт мужнасьці."),
    ("be", "2 рангі клясу «Ваяр», вартасьцю 7 і 0 пунктаў мужнасьці."),
    ("be", "11 рангаў, 12 рангаў, 21 ранг, 22 рангі, 25 рангаў, 111 рангаў, 0 рангаў."),
    ("be", "у 1-й эпосе: вазьміце 5 картаў з тальлі 2-й эпохі."),
])
def test_the_agreement_check_accepts_right_forms(lang, good):
    assert not agreement_errors(good, lang), good


@pytest.mark.parametrize("lang, bad", [
    ("en", "When you take this card: take a card; Then discard it."),
    ("en", "When you take this card:  take a card."),
    ("en", "When you take this card: take {n} cards."),
    ("en", "When you take this card: take a card.."),
    ("en", "When you take this card: take a card , then discard it."),
    ("en", "When you take this card: recruit a Explorer hero."),
    ("en", "When you take this card, if that card is an dwarf card: recruit a hero."),
    ("en", " "),
    ("be", "Калі вы бераце гэтую карту: вазьміце карту; Скіньце яе."),
    ("be", "Гэтая карта трапляе у вашую камандную зону."),
])
def test_the_style_check_finds_what_a_reader_would(lang, bad):
    """Issue 9: "a capital after a semicolon" among "the text bugs a read-through finds"."""
    assert style_errors(bad, lang), bad


def test_the_style_check_lets_a_name_start_after_a_semicolon():
    text = "Калі вы наймаеце гэтую карту: Дубль Ольвына трапляе ў слупок; Дубль Ольвына трапляе ў іншы слупок."
    assert not style_errors(text, "be", frozenset({"Дубль Ольвына"}))
    assert style_errors(text, "be")


def test_the_fallback_check_finds_english_words():
    """Issue 9: "no message falls back to another language": English in Belarusian text is found."""
    assert latin_words("Калі вы бераце гэтую карту: add 7 to one of your coins.") == \
        ["add", "to", "one", "of", "your", "coins"]
    assert not latin_words("Калі вы бераце гэтую карту: дадайце 7 на адну з вашых манэтаў (× 2 → 3).")


def test_a_belarusian_gap_is_recorded_as_missing():
    """Issue 9: "that no message falls back to another language" — a catalog without a Belarusian
    form falls back to English and says so, which the test over every card would then report."""
    cat = Catalog.load("be")
    del cat.messages["plural.rank.few"]
    assert cat.noun("rank", 2) == "ranks" and "plural.rank.few" in cat.missing
    with pytest.raises(MissingMessage):
        cat.noun("no-such-noun", 2)


# -- the plural helper ------------------------------------------------------------------------------

NUMBERS = [1, 2, 5, 11, 12, 21, 22, 25, 111, 0]
BE_CATEGORIES = ["one", "few", "many", "many", "many", "one", "few", "many", "many", "many"]
BE_RANKS = ["ранг", "рангі", "рангаў", "рангаў", "рангаў", "ранг", "рангі", "рангаў", "рангаў", "рангаў"]


@pytest.mark.parametrize("n, category", list(zip(NUMBERS, BE_CATEGORIES)))
def test_belarusian_plural_categories(n, category):
    """Issue 9 (brief): "Belarusian numerals need the three forms: 1 / 2–4 / 5+ with the 11–14
    exception" — CLDR: one: n%10=1 and n%100≠11; few: n%10=2..4 and n%100∉12..14; many: otherwise."""
    assert plural_category("be", n) == category == cldr_category("be", n)


@pytest.mark.parametrize("n", NUMBERS)
def test_english_plural_categories(n):
    """English: "1 Bravery Point", any other number "Bravery Points" (0 included)."""
    assert plural_category("en", n) == ("one" if n == 1 else "other")


def test_a_list_of_numbers_agrees_as_each_language_does():
    """"worth 7 and 0 Bravery Points": English counts a list as plural; Belarusian agrees with the
    nearest number ("7 і 1 пункт", "7 і 0 пунктаў")."""
    assert plural_category("en", [7, 1]) == "other" and plural_category("en", [1]) == "one"
    assert plural_category("be", [7, 1]) == "one" and plural_category("be", [1, 0, 0]) == "many"


BASE = compile_specs(layer_specs())


@pytest.mark.parametrize("n, rank", list(zip(NUMBERS, BE_RANKS)))
def test_the_catalog_gives_the_form_for_any_number(n, rank):
    """Issue 9 (brief): "check the catalog has plural forms and text.py picks the right one for any
    number": 1 ранг, 2 рангі, 5 рангаў, 11 рангаў, 12 рангаў, 21 ранг, 22 рангі, 25 рангаў,
    111 рангаў, 0 рангаў; "1 rank", else "ranks"."""
    assert Catalog.load("be").noun("rank", n) == rank
    assert Catalog.load("en").noun("rank", n) == ("rank" if n == 1 else "ranks")


@pytest.mark.parametrize("n, rank", [(n, r) for n, r in zip(NUMBERS, BE_RANKS) if n])
def test_a_card_with_n_ranks_reads_its_number_rightly(n, rank):
    """Issue 9 (brief): "text.py picks the right one for any number": a card of n Warrior ranks,
    the last worth n ("… 1 Bravery Point", "… 0 пунктаў"), in both languages."""
    card = CardDef("c", "C", "dwarf", "warrior", ranks=(3,) * (n - 1) + (n,))
    be = card_text(card, [], context_of(BASE.ruleset, Catalog.load("be")))[0]
    en = card_text(card, [], context_of(BASE.ruleset, Catalog.load("en")))[0]
    assert be.startswith(f"{n} {rank} клясу «Ваяр»"), be
    assert en.startswith(f"{n} Warrior {'rank' if n == 1 else 'ranks'}"), en
    assert not agreement_errors(be, "be") and not agreement_errors(en, "en"), (be, en)


def test_a_card_whose_points_end_in_zero_reads_rightly():
    """Kraal: "2 Warrior ranks, worth 7 and 0 Bravery Points" (003); in Belarusian the noun agrees
    with the nearest number: "7 і 0 пунктаў мужнасьці"."""
    card = CardDef("c", "C", "dwarf", "warrior", ranks=(7, 0))
    assert card_text(card, [], context_of(BASE.ruleset, Catalog.load("be"))) == \
        ["2 рангі клясу «Ваяр», вартасьцю 7 і 0 пунктаў мужнасьці."]
    assert card_text(card, [], context_of(BASE.ruleset, Catalog.load("en"))) == \
        ["2 Warrior ranks, worth 7 and 0 Bravery Points."]


COUNTED_ACTIONS = ["when taken: add {n} tokens", "when taken: remove {n} tokens",
                   "when taken: take chosen {n} cards from discard",
                   "when taken: look at {n} from age 2 deck, take 1, rest shuffled",
                   "when taken: look at {n} from age 2 deck, take 1, rest under deck in chosen order",
                   "when taken: discard chosen {n} dwarf in army", "when taken: discard chosen {n} cards in army",
                   "when taken: discard chosen {n} non-hero in other columns",
                   "when taken: discard chosen {n} non-hero in column warrior",
                   "when taken: discard chosen {n} last dwarf of other columns",
                   "when taken: discard chosen {n} last cards of any columns",
                   "whenever coin-bettered: advance track by {n}"]


@pytest.mark.parametrize("n", NUMBERS)
def test_counted_actions_agree_for_any_number(n):
    """Issue 9 (brief): agreement "for any number": tokens, cards drawn, taken and discarded, notches."""
    for lang in LANGS:
        cx = context_of(BASE.ruleset, Catalog.load(lang))
        for action in COUNTED_ACTIONS:
            effect = action.format(n=n)
            text = effect_text(parse_effect(effect), cx)
            assert not agreement_errors(text, lang) and not style_errors(text, lang), (effect, text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("action", COUNTED_ACTIONS)
def test_every_counted_action_has_a_wording_for_a_count_known_only_in_play(action, lang):
    """Issue 9 (brief): numbers "only known at run time … should be phrased so agreement holds":
    each counted action has its `.computed` wording in both languages, with the count after its
    noun ("as many cards … as", "столькі картаў …, колькі складае")."""
    cat = Catalog.load(lang)
    text = effect_text(parse_effect(action.format(n="ranks(warrior)")), context_of(BASE.ruleset, cat))
    assert not cat.missing and not style_errors(text, lang), (text, cat.missing)
    assert ("as many" if lang == "en" else "столькі") in text, text


def test_a_count_only_known_during_play_has_no_noun_after_it():
    """Issue 9 (brief): "including numbers only known at run time, which should be phrased so
    agreement holds": the noun comes before the count ("as many tokens as …", "столькі жэтонаў,
    колькі складае …")."""
    effect = parse_effect("when taken: add ranks(warrior) tokens")
    en = effect_text(effect, context_of(BASE.ruleset, Catalog.load("en")))
    be = effect_text(effect, context_of(BASE.ruleset, Catalog.load("be")))
    assert "put as many tokens on this card as the number of your Warrior ranks" in en
    assert "столькі жэтонаў, колькі складае колькасьць вашых рангаў клясу «Ваяр»" in be


def test_a_count_a_card_changes_names_the_card_after_its_noun():
    """The Pioneer of the Kingdom draws 3 cards, 6 with Garm (001 "Garm"): the noun agrees with the
    number before it, in both languages ("3 cards (6 with Garm)", "3 карты (6, калі ёсьць Гарм)")."""
    compiled = compile_rules(("idavoll",))
    texts = {lang: " ".join(*[v["text"] for v in card_views(compiled, load_catalog(lang))
                              if v["id"] == "distinction:explorer"]) for lang in LANGS}
    assert "draw 3 cards (6 with Garm) from the Age 2 deck" in texts["en"]
    assert "вазьміце 3 карты (6, калі ёсьць Гарм) з тальлі 2-й эпохі" in texts["be"]


def test_the_article_and_u_follow_the_value_put_in():
    """"a"/"an" before a value (English), у/ў after a vowel (Belarusian), where a message meets it."""
    en, be = Catalog.load("en"), Catalog.load("be")
    assert en.format("recruit a {cls} hero", cls="Explorer") == "recruit an Explorer hero"
    assert en.format("recruit a {cls} hero", cls="Warrior") == "recruit a Warrior hero"
    assert en.format("recruit an {cls} hero", cls="unique") == "recruit a unique hero"
    assert en.format("see a {link}", link="<a href='#x'>Explorer</a>") == "see a <a href='#x'>Explorer</a>"
    assert be.format("{card} у {place}", card="Гулінбурсты", place="слупок") == "Гулінбурсты ў слупок"
    assert be.format("{card} у {place}", card="Каваль", place="слупок") == "Каваль у слупок"
    assert be.format("трапляе {place}", place="у слупок") == "трапляе ў слупок"
