"""Issue 17 §7, the effect DSL's bounds: "a flat expression is not deep; bound nesting, not length
(and bound length separately, with its own words)", and "a DSL number of 5,000 digits (and any DSL
token error) is located at the token, not at the start of the DSL text".

The classes: every operator chain, however long within the length bound, is accepted and acts
(check, the emitted module, a whole game, the reference); every form of nesting is refused one
level past the bound as nested too deeply, and its deepest accepted form compiles and loads; the
length bounds (characters, names-numbers-operators, one name's length) each refuse with their own
words at the place where the bound is passed; every token error is located at the token, whatever
the YAML style of the string that holds it."""
from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from checking import run_check
from nidavellir.compiler import docs as rdocs
from nidavellir.compiler.build import compile_specs
from nidavellir.compiler.compile import MAX_CARDS
from nidavellir.compiler.diagnostics import RulesError, split_lines
from nidavellir.compiler.dsl import MAX_CHARS, MAX_NAME, MAX_NESTING, MAX_WORDS, DslSyntaxError, parse_effect
from nidavellir.compiler.sources import layer_specs
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.invariants import violations


def card_variant(tmp_path: Path, effect: str, name: str = "v.yaml") -> Path:
    v = tmp_path / name
    v.write_text('layer: {id: v, name: V}\ncards:\n  - {id: astrid, effects: ["' + effect + '"]}\n',
                 encoding="utf-8")
    return v


def formula_variant(tmp_path: Path, formula: str) -> Path:
    v = tmp_path / "f.yaml"
    v.write_text('layer: {id: f, name: F}\ngame:\n  classes:\n    - {id: warrior, score: "' + formula + '"}\n',
                 encoding="utf-8")
    return v


def refusal(effect: str) -> DslSyntaxError:
    with pytest.raises(DslSyntaxError) as info:
        parse_effect(effect)
    return info.value


def play_out(rules, players: int = 3, seed: int = 4) -> Game:
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    while game.pending is not None:
        game.answer(game.pending.options[rng.randrange(len(game.pending.options))])
    assert not violations(game.engine)
    return game


# -- chains are long, not deep ------------------------------------------------------------------

CHAINS: dict[str, Callable[[int], str]] = {
    "sum": lambda n: "score " + " + ".join(["ranks(explorer)"] * n),
    "difference": lambda n: "score " + " - ".join(["1"] * n),
    "sum and difference": lambda n: "score " + " ".join(f"{'+-'[i % 2]} {i}" for i in range(n)).lstrip("+ "),
    "product": lambda n: "score " + " * ".join(["1"] * n),
    "and": lambda n: "requires " + " and ".join(["ranks(explorer) >= 0"] * n),
    "or": lambda n: "requires " + " or ".join(["ranks(explorer) >= 0"] * n),
}


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_a_flat_chain_of_60_terms_is_not_deep(chain):
    """Issue 17 §7: "A flat sum of 60 terms in the DSL is refused as 'nested too deeply (more than
    48 levels)': a flat expression is not deep"."""
    parse_effect(CHAINS[chain](60))


def longest(form: Callable[[int], str]) -> tuple[int, DslSyntaxError]:
    """The largest n whose form(n) parses, and the refusal of form(n + 1)."""
    n = 1
    while True:
        try:
            parse_effect(form(n + 1))
        except DslSyntaxError as err:
            return n, err
        n += 1


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_a_chain_is_bounded_by_its_length_in_its_own_words(chain):
    """Issue 17 §7: "bound length separately, with its own words": a chain past the bound is
    refused as too long (not as too deep), located at the first word beyond the bound (or at the
    first character beyond MAX_CHARS)."""
    n, err = longest(CHAINS[chain])
    text = CHAINS[chain](n + 1)
    assert err.message.startswith("effect too long"), err.message
    if "characters" in err.message:
        assert len(text) > MAX_CHARS >= len(CHAINS[chain](n)) and err.offset == MAX_CHARS
    else:
        assert err.message == f"effect too long: more than {MAX_WORDS} names, numbers and operators"
        words = [m.start() for m in re.finditer(r"[a-z0-9_]+(?:[-:][a-z0-9_]+)*|>=|[-+*/<>]", text)]
        assert len(words) > MAX_WORDS and err.offset == words[MAX_WORDS]
    assert n > 60


def test_a_sum_at_the_length_bound_checks_builds_plays_and_renders(capsys, tmp_path, monkeypatch):
    """Issue 17 §7: "check that the emitter, the checker and the docs renderer handle a long flat sum
    without recursion limits (... test a sum at the length bound through check, build, play and
    docs)": the longest sum a class formula and a card's score accept."""
    monkeypatch.chdir(tmp_path)
    formula = "ranks + " + " + ".join(["1"] * ((MAX_WORDS - 2) // 2))  # (with its `score `, at the bound)
    parse_effect("score " + formula)
    with pytest.raises(DslSyntaxError):
        parse_effect("score " + formula + " + 1")
    n, _ = longest(CHAINS["sum"])
    v = formula_variant(tmp_path, formula)
    text = v.read_text(encoding="utf-8").replace("game:", 'cards:\n  - {id: astrid, effects: ["'
                                                  + CHAINS["sum"](n) + '"]}\ngame:')
    v.write_text(text, encoding="utf-8")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    compiled = compile_specs(layer_specs((), (str(v),)))
    compile(compiled.source, "rules", "exec")  # the emitted module is valid Python
    rules = load_rules((), (str(v),))
    game = play_out(rules)
    scores = game.scores()
    for row in scores["players"]:
        assert row["breakdown"]["warrior"] >= (MAX_WORDS - 2) // 2  # each `1` of the sum counts
    written = rdocs.write(compiled, rdocs.load_catalog("en"), "md", tmp_path / "out")
    reference = "\n".join(p.read_text(encoding="utf-8") for p in written if p.suffix == ".md")
    assert "1 + 1 + 1 + 1" in reference and "((" not in reference  # read as written: flat


def test_the_emitted_python_of_a_chain_is_flat(tmp_path):
    """The emitter writes a left chain without brackets (`(a + b - c)`), so that its length never
    reaches Python's own limit on nested brackets (200)."""
    v = formula_variant(tmp_path, "ranks + " + " - ".join(["2"] * 150))
    source = compile_specs(layer_specs((), (str(v),))).source
    assert "2 - 2 - 2 - 2" in source and "((((" not in source


# -- nesting is bounded by real nesting ---------------------------------------------------------

NESTINGS: dict[str, Callable[[int], str]] = {
    "not": lambda k: "requires " + "not " * k + "ranks(explorer) >= 5",
    "call": lambda k: "score " + "max(1, " * k + "1" + ")" * k,
    "bracket on the right": lambda k: "score " + "(1 + " * k + "1" + ")" * k,
    "bracket on the left of a product": lambda k: "score " + "(" * k + "1" + " + 1) * 2" * k,
    "division": lambda k: "score " + " / ".join(["ranks(explorer)"] * k),
    "if-else": lambda k: "score " + "1 if ranks(explorer) > 1 else " * k + "2",
    "then": lambda k: "when recruited: " + "recruit hero uncounted then " * k + "recruit hero uncounted",
    "count in a call": lambda k: "score " + "max(count(dwarves in any columns), " * k + "1" + ")" * k,
}


@pytest.mark.parametrize("form", sorted(NESTINGS))
def test_nesting_is_bounded_and_the_deepest_accepted_effect_compiles(tmp_path, form):
    """DESIGN §10 "bounded ... nesting": one level past the deepest accepted effect is refused as
    nested too deeply (more than MAX_NESTING levels), within the length bounds; the deepest accepted
    one compiles, and its module loads (Python's own nesting limits are not reached)."""
    k, err = longest(NESTINGS[form])
    assert err.message == f"effect nested too deeply (more than {MAX_NESTING} levels)", err.message
    assert MAX_NESTING // 2 - 3 <= k <= MAX_NESTING  # (a bracket around a sum in a product: two levels)
    v = card_variant(tmp_path, NESTINGS[form](k))
    compiled = compile_specs(layer_specs((), (str(v),)))
    exec(compile(compiled.source, "rules", "exec"), {})  # noqa: S102 - our compiler's output


def test_deep_nesting_inside_a_long_chain_compiles(tmp_path):
    """The two bounds together: a chain as long as the length bound allows, ending in a term nested
    as deep as the nesting bound allows, compiles and loads."""
    def form(n: int) -> str:
        return "score " + " + ".join(["ranks(explorer)"] * n) + " + " + "max(1, " * 40 + "1" + ")" * 40
    n, _ = longest(form)
    v = card_variant(tmp_path, form(n))
    exec(compile(compile_specs(layer_specs((), (str(v),))).source, "rules", "exec"), {})  # noqa: S102


# -- length bounds, each in its own words, located ----------------------------------------------

def located(tmp_path: Path, effect: str) -> tuple[tuple[int, int], str]:
    v = card_variant(tmp_path, effect)
    with pytest.raises(RulesError) as info:
        compile_specs(layer_specs((), (str(v),)))
    (diag,) = [d for d in info.value.diagnostics if d.severity == "error"]
    assert diag.loc is not None
    return (diag.loc.line, diag.loc.col), diag.message


PREFIX = '  - {id: astrid, effects: ["'  # line 3 of card_variant's file


def test_too_many_characters(tmp_path):
    effect = "score 1" + " " * MAX_CHARS + "+ 1"
    where, message = located(tmp_path, effect)
    assert message == f"effect too long: {len(effect)} characters (at most {MAX_CHARS})"
    assert where == (3, len(PREFIX) + MAX_CHARS + 1)


def test_a_name_too_long_is_refused_at_the_name(tmp_path):
    """Very long identifiers are bounded in their own words, at the name."""
    name = "x" * (MAX_NAME + 1)
    where, message = located(tmp_path, f"score 2 * ranks({name})")
    assert message == f"name too long: {MAX_NAME + 1} characters (at most {MAX_NAME})"
    assert where == (3, len(PREFIX) + len("score 2 * ranks(") + 1)
    parse_effect(f"score ranks({'x' * MAX_NAME})")  # at the bound: parsed (the checker judges the name)


def test_many_effects_on_a_card_are_bounded_by_the_schema(capsys, tmp_path):
    """Very many effects on one card: the schema bounds them (30), located at the list."""
    v = tmp_path / "many.yaml"
    v.write_text('layer: {id: v, name: V}\ncards:\n  - {id: astrid, effects: [' + ", ".join(['"score 1"'] * 31)
                 + "]}\n", encoding="utf-8")
    code, _, err = run_check(capsys, str(v))
    assert code == 1 and f"{v}:3:27: error: expected at most 30 items, got 31" in err


def test_too_many_cards_are_refused_in_their_own_words(capsys, tmp_path):
    """Very many cards: a rule set holds at most MAX_CARDS, refused at the first card beyond."""
    v = tmp_path / "cards.yaml"
    extra = MAX_CARDS + 1 - len(load_rules().cards)
    lines = [f"  - {{id: c{i}, kind: hero, class: neutral, points: 1}}" for i in range(extra)]
    v.write_text("layer: {id: v, name: V}\ncards:\n" + "\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run_check(capsys, str(v))
    assert code == 1 and "Traceback" not in err
    assert f"{v}:{2 + extra}:5: error: too many cards: the rules define {MAX_CARDS + 1}, more than the " \
           f"{MAX_CARDS} a rule set may have" in err


# -- every token error at the token ---------------------------------------------------------------

TOKENS: dict[str, tuple[str, str]] = {  # bad token -> (effect holding it, message start)
    "9" * 5000: ("when recruited: transform chosen coin by {}", "`" + "9" * 40 + "...` is too long a number"),
    "9" * 20: ("when recruited: transform chosen coin by {}", "`" + "9" * 20 + "` is too large a number"),
    "1" + "0" * 15: ("score 2 * {}", "`1" + "0" * 15 + "` is too large a number"),
    "8" * 30: ("when recruited: gain gem {}", "`" + "8" * 30 + "` is too large a number"),
    "7" * 16: ("when won in age {}: gain gem 6", "`" + "7" * 16 + "` is too large a number"),
    "@": ("score 2 * {} 3", "unexpected character `@`"),
    "é": ("score ranks({})", "unexpected character `é`"),
    "unless": ("score 7 {}", "unexpected `unless`"),
    "q" * 100: ("score {} + 1", "name too long"),
}

def _folded(effect: str, token: str) -> str:
    """A folded block scalar that breaks the effect's line at the last space before the token."""
    at = effect.index(token)
    cut = effect.rindex(" ", 0, at) if " " in effect[:at] else at
    return "      - >-\n        " + effect[:cut].rstrip() + "\n        " + effect[cut:].lstrip() + "\n"


STYLES: dict[str, Callable[[str, str], str]] = {  # how the effect string is written in YAML
    "double-quoted": lambda e, t: '    effects: ["' + e + '"]\n',
    "double-quoted with escapes": lambda e, t: '    effects: ["' + e.replace(" ", "\\x20", 1) + '"]\n',
    "single-quoted": lambda e, t: "    effects:\n      - '" + e + "'\n",
    "plain": lambda e, t: "    effects:\n      - " + e + "\n",
    "folded block over two lines": lambda e, t: "    effects:\n" + _folded(e, t),
}
CASES = [(style, token) for token in sorted(TOKENS, key=lambda t: (len(t), t)) for style in sorted(STYLES)
         if not (style == "plain" and ": " in TOKENS[token][0])]  # (a plain scalar cannot hold `: `)


@pytest.mark.parametrize("style, token", CASES)
def test_a_token_error_is_located_at_the_token(tmp_path, style, token):
    """Issue 17 §7: "A DSL number of 5,000 digits (and any DSL token error) is located at the token,
    not at the start of the DSL text": the caret stands under the token's first character, wherever
    the string's YAML style puts it in the file."""
    template, message = TOKENS[token]
    effect = template.format(token)
    v = tmp_path / "t.yaml"
    v.write_text("layer: {id: t, name: T}\ncards:\n  - id: astrid\n" + STYLES[style](effect, token), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        compile_specs(layer_specs((), (str(v),)))
    diags = [d for d in info.value.diagnostics if d.severity == "error"]
    assert len(diags) == 1 and diags[0].message.startswith(message), diags
    lines = split_lines(v.read_text(encoding="utf-8"))
    (line,) = [n for n, text in enumerate(lines, 1) if token in text]
    assert diags[0].loc is not None and (diags[0].loc.line, diags[0].loc.col) == (line, lines[line - 1].index(token) + 1)
    assert "Traceback" not in str(info.value)


def test_a_very_long_id_and_name_in_the_rules_are_harmless(capsys, tmp_path, monkeypatch):
    """Very long identifiers outside the DSL (a card's id and name of 5,000 characters) are shown
    harmless: the card compiles, the game plays, the reference and the card sheets are written
    (its name only warned about as too long for a card)."""
    monkeypatch.chdir(tmp_path)
    v = tmp_path / "long.yaml"
    v.write_text("layer: {id: v, name: V}\ncards:\n  - {id: " + "x" * 5000 + ", kind: hero, class: neutral, points: 1, "
                 "name: " + "N" * 5000 + "}\n", encoding="utf-8")
    code, _, err = run_check(capsys, str(v))
    assert code == 0, err
    rules = load_rules((), (str(v),))
    assert "x" * 5000 in rules.cards
    play_out(rules)
    compiled = compile_specs(layer_specs((), (str(v),)))
    written = rdocs.write(compiled, rdocs.load_catalog("en"), "html", tmp_path / "out", warn=lambda d: None)
    assert any("N" * 5000 in p.read_text(encoding="utf-8") for p in written)
