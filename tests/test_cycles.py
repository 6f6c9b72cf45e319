"""`check` finds effects that feed themselves before a game (issue 17 §2): "`check` builds the
dependency graph of params, modifiers and event triggers and refuses a cycle that can never end,
located at each member ("`x` reads `y`, which reads `x`"), and warns about one that may repeat."

Each class of cycle is built from cards written in the test: values (params read by modifiers,
scores read through `points`), and events (each primitive action that fires an event its own chain
listens to). The negative cases are the places where a naive graph would see a loop the rules can
never make (a card taken from a pile it never lies in, a hero recruited twice without a return).
"""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from runtime_ast import FIRES, event_of, forwarding, self_calls

from checking import ROOT, expect, expect_warning, failed, find, run_check, write
from nidavellir.compiler import ir
from nidavellir.compiler.cycles import engine_calls
from nidavellir.compiler.dsl import parse_effect
from nidavellir.interface.engine import EngineAPI
from nidavellir.interface.events import ACTION_GIVES_BACK, ACTION_USES, EVENTS
from nidavellir.interface.events import HERO as HERO_
from nidavellir.interface.mechanisms import ACTION_EVENTS

RUNTIME = ROOT / "runtime"
PARAMS = "game: {params: {a: 0, b: 0}}\n"
VALUE_HINT = "a param or a score cannot read itself, even through others: remove one of these reads"
EVENT_HINT = "give one of these effects a condition (`if ...`), `may` or `once per game`, or break the chain"


def variant(tmp_path: Path, cards: str, game: str = "") -> Path:
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + game + "cards:\n" + cards)


def cycle_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if "never ends" in line or "can repeat" in line]


# -- values ------------------------------------------------------------------------------------

def test_two_modifiers_reading_each_others_param_are_refused_at_each_member(capsys, tmp_path):
    """The issue's reproduction: `modify a + param(b)` and `modify b + param(a)` on one card —
    "refuses a cycle that can never end, located at each member ("`x` reads `y`, which reads `x`")"."""
    v = variant(tmp_path, '  - id: skaa\n    effects:\n      - "modify a + param(b)"\n'
                          '      - "modify b + param(a)"\n', PARAMS)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    expect(err, v, *find(v, "param(b)"), "`a` reads `b`, which reads `a` again: working it out never ends", VALUE_HINT)
    expect(err, v, *find(v, "param(a)"), "`b` reads `a`, which reads `b` again: working it out never ends", VALUE_HINT)


def test_a_modifier_reading_its_own_param_and_a_loop_across_cards(capsys, tmp_path):
    """"a modifier reading itself" is refused; so is a loop whose members are on different cards."""
    v = variant(tmp_path, '  - id: skaa\n    effects: ["modify a + param(a)", "modify b + param(c)"]\n'
                          '  - id: astrid\n    effects: ["modify c + 2 * param(b)", "score param(a) + param(c)"]\n',
                "game: {params: {a: 0, b: 0, c: 0}}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 3)
    line, col = find(v, "param(a)")
    expect(err, v, line, col, "`a` reads `a` again: working it out never ends", VALUE_HINT)
    expect(err, v, *find(v, "param(c)"), "`b` reads `c`, which reads `b` again: working it out never ends",
           VALUE_HINT)
    expect(err, v, *find(v, "param(b)"), "`c` reads `b`, which reads `c` again: working it out never ends",
           VALUE_HINT)


def test_a_score_that_counts_the_column_it_stands_in(capsys, tmp_path):
    """`points(CLASS)` counts the scores of the cards in that column: a warrior hero whose score reads
    `points(warrior)` reads itself. A neutral hero (in the command zone) reading it does not."""
    v = variant(tmp_path, '  - id: kraal\n    effects: ["score points(warrior)"]\n'
                          '  - id: astrid\n    effects: ["score points(warrior)"]\n')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *find(v, "points(warrior)"),
           "the score of `kraal` reads the score of `kraal` (through `points(warrior)`) again: working it out "
           "never ends", VALUE_HINT)


def test_a_read_a_condition_decides_is_a_warning(capsys, tmp_path):
    """"warns about one that may repeat": a read under `… if … else …` happens only where the
    condition lets it."""
    v = variant(tmp_path, '  - id: skaa\n    effects: ["modify a + (param(b) if age > 1 else 0)", '
                          '"modify b + param(a)"]\n', PARAMS)
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    line, col = find(v, "param(b)")
    expect_warning(err, v, line, col, "`a` reads `b`, which reads `a` again: where a condition lets these reads "
                                      "happen, working it out never ends")
    assert len(cycle_lines(err)) == 2


# -- events --------------------------------------------------------------------------------------

def test_cards_that_step_aside_onto_each_other_never_end(capsys, tmp_path):
    """"a card whose effect re-triggers its own event (`covered` chains)": two cards that, covered,
    place themselves on the hunter column cover each other without end."""
    v = variant(tmp_path, '  - {id: kraal, effects: ["instead of covered: place self in column hunter"]}\n'
                          '  - {id: tarah, effects: ["instead of covered: place self in column hunter"]}\n')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    k = find(v, "place self in column hunter")
    t = (k[0] + 1, k[1])
    expect(err, v, *k, "`kraal`'s `instead of covered` fires `covered` (`place`), which runs `tarah`'s `instead of "
                       "covered`, which fires `covered` (`place`), which runs `kraal`'s `instead of covered` again: "
                       "nothing on the way can stop it, so it never ends", EVENT_HINT)
    expect(err, v, *t, "`tarah`'s `instead of covered` fires `covered` (`place`), which runs `kraal`'s `instead of "
                       "covered`, which fires `covered` (`place`), which runs `tarah`'s `instead of covered` again: "
                       "nothing on the way can stop it, so it never ends", EVENT_HINT)


@pytest.mark.parametrize("effect, needle, event, verb", [
    ("whenever joined: place self in command zone; place self in column warrior", "place self in column",
     "joined", "place"),
    ("whenever recruited: return chosen neutral hero then recruit another neutral hero uncounted",
     "recruit another", "recruited", "recruit"),
    ("instead of any discarded: discard chosen 1 dwarf in army", "discard chosen", "discarded", "discard"),
])
def test_an_action_that_fires_its_own_event_without_end(capsys, tmp_path, effect, needle, event, verb):
    """One case per action that can feed its own effect with nothing used up: a card leaving the army
    and joining it again, a hero returned and another recruited (the heroes are given back), a discard
    replaced by a discard (the card stays)."""
    v = variant(tmp_path, f'  - {{id: kraal, effects: ["{effect}"]}}\n')
    code, out, err = run_check(capsys, "--expansions", "idavoll", str(v))
    failed(code, out, err, 1)  # (Thrud, stepping aside, moves within the army: it joins nothing, no loop with him)
    form = effect.split(":")[0]
    expect(err, v, *find(v, needle), f"`kraal`'s `{form}` fires `{event}` (`{verb}`), which runs `kraal`'s `{form}` "
                                     "again: nothing on the way can stop it, so it never ends", EVENT_HINT)


def test_a_trigger_that_betters_a_coin_on_each_betterment_may_repeat(capsys, tmp_path):
    """The issue's Hrungnir case: `whenever coin-bettered: transform lowest coin by 1` fires its own
    event, but each time the coin is better: "a finite resource such as the treasure" stops it — a
    warning."""
    v = variant(tmp_path, '  - id: skaa\n    effects:\n      - "whenever coin-bettered: transform lowest coin by 1"\n')
    code, out, err = run_check(capsys, "--expansions", "idavoll", str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, "transform lowest"),
                   "`skaa`'s `whenever coin-bettered` fires `coin-bettered` (`transform`), which runs `skaa`'s "
                   "`whenever coin-bettered` again: this can repeat, and stops only when the treasure has no better "
                   "coin")


@pytest.mark.parametrize("head, stop", [
    ("may whenever coin-bettered", "its owner declines `skaa`'s `whenever coin-bettered`"),
    ("once per game whenever coin-bettered", "`skaa`'s `whenever coin-bettered` has been used (once per game)"),
    ("whenever coin-bettered if amount > 1", "`skaa`'s `whenever coin-bettered` finds its condition false"),
])
def test_may_once_and_a_condition_can_stop_a_loop(capsys, tmp_path, head, stop):
    """"a cycle that may repeat but can stop (a choice, a condition, once per game …) is a warning"
    that says what stops it."""
    v = variant(tmp_path, f'  - id: skaa\n    effects:\n      - "{head}: transform chosen coin by 1"\n')
    code, out, err = run_check(capsys, "--expansions", "idavoll", str(v))
    assert code == 0, err
    line, col = find(v, "transform chosen")
    expect_warning(err, v, line, col, f"`skaa`'s `whenever coin-bettered` fires `coin-bettered` (`transform`), which "
                                      f"runs `skaa`'s `whenever coin-bettered` again: this can repeat, and stops only "
                                      f"when {stop} or the treasure has no better coin")


def test_taking_from_a_pile_on_each_take_stops_with_the_pile(capsys, tmp_path):
    v = variant(tmp_path, '  - {id: skaa, effects: ["whenever taken: take chosen 1 card from discard"]}\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, "take chosen"), "`skaa`'s `whenever taken` fires `taken` (`take`), which runs "
                                                    "`skaa`'s `whenever taken` again: this can repeat, and stops only "
                                                    "when the pile runs out of cards")


def test_copies_of_a_card_that_steps_aside_may_cover_each_other(capsys, tmp_path):
    """Thrud steps aside into a chosen column; one Thrud never covers itself, but two copies can
    cover each other as long as their owner chooses so."""
    v = variant(tmp_path, '  - {id: thrud, copies: 2}\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    heroes = ROOT / "rules" / "base" / "heroes.yaml"
    line, col = find(heroes, "instead of covered: place self")
    expect_warning(err, "rules/base/heroes.yaml", line, col + len("instead of covered: "),
                   "`thrud`'s `instead of covered` fires `covered` (`place`), which runs `thrud`'s `instead of "
                   "covered` again: this can repeat, and stops only when a column is chosen whose top card does not "
                   "step aside")


@pytest.mark.parametrize("cards, boxes", [
    # a card taken from the discard pile it never lies in (an artifact's discards go to the camp discard)
    ('  - {id: gjallarhorn, effects: ["when taken: take chosen 1 card from discard"]}\n', ("thingvellir",)),
    # a hero that recruits: it is never recruited again in the same chain (no hero is returned)
    ('  - {id: grid, effects: ["when recruited: recruit hero"]}\n', ()),
    # a card placed in the command zone joins no army
    ('  - {id: skaa, effects: ["whenever joined: place self in command zone"]}\n', ("idavoll",)),
    # a giant's capture asks for a dwarf: cards drawn from the mythology deck never are one
    ('  - {id: skymir, effects: ["capture next hunter dwarf", '
     '"when captured: look at 5 from mythology deck, take 2, rest under deck in chosen order"]}\n', ("idavoll",)),
])
def test_no_cycle_where_the_rules_can_never_make_one(capsys, tmp_path, cards, boxes):
    """The graph follows a card's own event only when the card can be its subject again: a pile it
    lies in, a hero given back, another copy."""
    v = variant(tmp_path, cards)
    args = ("--expansions", ",".join(boxes)) if boxes else ()
    code, out, err = run_check(capsys, *args, str(v))
    assert code == 0 and not cycle_lines(err), err


def test_another_copy_can_be_its_own_cards_subject_again(capsys, tmp_path):
    """With copies, the hero recruited next can be another copy of the one recruiting: Dwerg's five."""
    v = variant(tmp_path, '  - {id: dwerg, effects: ["when recruited: recruit hero"]}\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, "recruit hero"), "`dwerg`'s `when recruited` fires `recruited` (`recruit`), "
                                                     "which runs `dwerg`'s `when recruited` again: this can repeat, "
                                                     "and stops only when no hero is left to recruit")


def test_the_shipped_rules_have_no_cycle(capsys):
    """"the shipped rules (every box combination, every shipped variant) must stay free of errors and of
    new warnings"."""
    code, out, err = run_check(capsys)
    assert code == 0 and not cycle_lines(err) and "warning" not in err + out, err + out


# -- the declaration the graph reads ------------------------------------------------------------------

def _methods() -> dict[str, ast.FunctionDef]:
    out: dict[str, ast.FunctionDef] = {}
    for path in sorted(RUNTIME.glob("*.py")):
        for cls in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(cls, ast.ClassDef) and cls.name in ("EngineCore", "CoinActions", "CardActions", "Engine"):
                for fn in cls.body:
                    if isinstance(fn, ast.FunctionDef):
                        out[fn.name] = fn
    return out


def _fired_through(name: str, methods: dict[str, ast.FunctionDef]) -> set[str]:
    """Every event `name` fires (`emit`, `replace`, or a method forwarding a literal event:
    tests/runtime_ast.py), through every engine method it calls."""
    forwards = forwarding(methods)
    fired: set[str] = set()
    seen: set[str] = set()
    todo = [name]
    while todo:
        fn = methods.get(todo.pop())
        if fn is None or fn.name in seen:
            continue
        seen.add(fn.name)
        for call in self_calls(fn):
            event = event_of(call, forwards)
            if event is not None:
                fired.add(event)
            if call.func.attr not in FIRES and call.func.attr != "window":  # type: ignore[attr-defined]
                todo.append(call.func.attr)  # type: ignore[attr-defined]  # (a window is the flow's)
    return fired & set(EVENTS)


def test_the_events_each_engine_action_fires_are_what_the_runtime_fires():
    """"declare which events each primitive action can fire — derive it from one declaration": the
    declaration is checked against the runtime's code, through every call each action makes."""
    methods = _methods()
    for name in (n for n in vars(EngineAPI) if not n.startswith("_")):
        declared = {f.event for f in ACTION_EVENTS.get(name, ())}
        assert _fired_through(name, methods) == declared, name
    assert set(ACTION_EVENTS) | set(ACTION_USES) | set(ACTION_GIVES_BACK) <= set(vars(EngineAPI))


def test_what_an_effect_calls_is_read_from_the_code_the_emitter_writes():
    """Each action's engine calls come from its generated code (so a new action needs no table)."""
    def calls(text: str) -> frozenset[str]:
        effect = parse_effect(text)
        assert isinstance(effect, ir.Triggered)
        return engine_calls(effect.actions[0])

    assert "transform" in calls("when taken: transform each coin by 2")
    assert {"supply_card", "place"} <= calls("when taken: place card gullinbursti in chosen column")
    assert "take_from" in calls("when taken: take chosen 1 card from discard")
    assert {"return_hero", "recruit_hero"} <= calls("when taken: return chosen neutral hero then recruit hero")
    members = {n for n, _ in inspect.getmembers(EngineAPI)}
    assert calls("when taken: discard chosen 2 last dwarf of other columns") <= members


# -- value cycles under a condition the rules data decides (issue 17 audit item 3) ----------------------

@pytest.mark.parametrize("read_a", [
    "(param(b) if 1 > 0 else 0)",                      # audit s2/val-cond-true.yaml
    "(1 if 0 > 1 or param(b) > 0 else 0)",             # audit s2/val-or2.yaml: the left side decides nothing
    "(1 if 1 > 0 and param(b) > 0 else 0)",
    "(1 if not 0 > 1 and param(b) > 0 else 0)",
    "(param(b) if param(z) == 0 else 0)",              # a param no card modifies decides the condition
    "(0 if 0 > 1 else param(b))",
    "lookup(param(b), 1, 2)",
])
def test_a_read_behind_a_condition_the_rules_decide_is_a_cycle_refused_at_each_member(capsys, tmp_path, read_a):
    """README: "A read behind a condition the rules data decides is made, or never made, as surely as
    the condition: `modify a + (param(a) if 1 > 0 else 0)` reads `a` whenever `a` is worked out" —
    so the cycle never ends: an error "located at each member" (audit: only warned)."""
    v = variant(tmp_path, f'  - id: skaa\n    effects: ["modify a + {read_a}", "modify b + param(a)"]\n',
                "game: {params: {a: 0, b: 0, z: 0}}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    expect(err, v, *find(v, "param(b)"), "`a` reads `b`, which reads `a` again: working it out never ends", VALUE_HINT)
    expect(err, v, *find(v, "param(a)"), "`b` reads `a`, which reads `b` again: working it out never ends", VALUE_HINT)


@pytest.mark.parametrize("read_a", ["(param(a) if 1 > 0 else 0)", "(1 if 0 > 1 or param(a) > 0 else 0)"])
def test_the_audits_self_reading_modifier_is_refused(capsys, tmp_path, read_a):
    """Audit s2/val-cond-true.yaml, s2/val-or2.yaml: a modifier reading its own param behind a
    condition that always lets the read happen."""
    v = variant(tmp_path, f'  - id: loopy\n    kind: hero\n    class: neutral\n    points: 1\n'
                          f'    effects: ["modify a + {read_a}", "score param(a)"]\n', "game: {params: {a: 0}}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *find(v, "param(a) "), "`a` reads `a` again: working it out never ends", VALUE_HINT)


@pytest.mark.parametrize("read_a", ["(param(b) if 0 > 1 else 0)", "(1 if 1 > 0 or param(b) > 0 else 0)",
                                    "(1 if 0 > 1 and param(b) > 0 else 0)", "(param(b) if param(z) > 0 else 0)"])
def test_a_read_a_condition_never_lets_happen_makes_no_cycle(capsys, tmp_path, read_a):
    """"... or never made": no error and no warning of a loop."""
    v = variant(tmp_path, f'  - id: skaa\n    effects: ["modify a + {read_a}", "modify b + param(a)", '
                          f'"score param(b)"]\n', "game: {params: {a: 0, b: 0, z: 0}}\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0 and not cycle_lines(err), err


def test_a_score_reading_its_column_behind_a_constant_condition_is_refused(capsys, tmp_path):
    v = variant(tmp_path, '  - id: kraal\n    effects: ["score points(warrior) if 1 > 0 else 0"]\n')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *find(v, "points(warrior)"),
           "the score of `kraal` reads the score of `kraal` (through `points(warrior)`) again: working it out "
           "never ends", VALUE_HINT)


# -- the circumstances in which actions fire events (issue 17 audit item 2) -----------------------------

JOINED = "game: {events: {joined: a card joins an army}}\n"


@pytest.mark.parametrize("effect", [
    "when joined: place self in column warrior",          # audit s2/ev-joined-self.yaml
    "when joined: place self in chosen column",           # audit s2/ev-joined-self2.yaml
    "may when joined: place self in column warrior",      # audit s2/ev-joined-self-may.yaml
    "whenever joined: place self in column warrior",      # joins once (from the command zone), then moves
    "when joined: place self in own column",
    "when joined: place self in command zone",            # leaves the army: joins nothing
    "instead of covered: place self in command zone",     # covers nothing
])
@pytest.mark.parametrize("copies", [1, 2, 3])
def test_a_card_moving_within_the_army_or_out_of_it_fires_no_loop(capsys, tmp_path, effect, copies):
    """README: "a card joins an army only from outside it, so `when joined: place self in column
    warrior` moves within the army and joins nothing, and a card placed in the command zone covers
    nothing and completes no line" (events.py: `joined` JOINS, `covered` LANDS). Audit: refused
    as endless. With copies, a `whenever` effect runs for a copy its owner holds, which stands in the
    army when it enters a column and no effect puts it in the command zone (Places.held_at): moving
    it moves it within the army, whichever copy joined."""
    v = variant(tmp_path, f'  - {{id: hopper, kind: hero, class: hunter, ranks: [1], copies: {copies}, '
                          f'effects: ["{effect}"]}}\n', JOINED)
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    assert not [x for x in cycle_lines(err) if "`hopper`'s" in x and "fires `joined` (`place`), which runs `hopper`" in x
                and "no new line" not in x], err


@pytest.mark.parametrize("effect", [
    "when joined: place self in command zone; place self in column warrior",
    "whenever joined: place self in command zone; place self in column warrior",
])
@pytest.mark.parametrize("copies", [1, 2])
def test_a_card_that_leaves_the_army_and_joins_again_never_ends(capsys, tmp_path, effect, copies):
    """The same circumstance the other way: out of the army, then into it, joins again each time."""
    v = variant(tmp_path, f'  - {{id: hopper, kind: hero, class: hunter, ranks: [1], copies: {copies}, '
                          f'effects: ["{effect}"]}}\n', JOINED)
    code, out, err = run_check(capsys, str(v))
    assert code == 1, err
    assert any("error: `hopper`'s" in x and "fires `joined` (`place`), which runs `hopper`" in x and
               "never ends" in x for x in err.splitlines()), err


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The events the engine fires (`emit`) or offers for replacement (`replace`)."""
    from nidavellir.runtime.core import EngineCore

    seen: list[str] = []
    for name in ("emit", "replace"):
        original = getattr(EngineCore, name)

        def spy(self: EngineCore, p: int, event: str, *args: object, _o: object = original) -> object:
            seen.append(event)
            return _o(self, p, event, *args)  # type: ignore[operator]
        monkeypatch.setattr(EngineCore, name, spy)
    return seen


@pytest.mark.sources
def test_the_runtime_fires_place_events_in_the_circumstances_declared(tmp_path, monkeypatch):
    """The declaration the checker reads (`ACTION_EVENTS["place"]`: each event's `when`) is what the
    runtime does, for each circumstance it declares: a card from outside the army landing on a card
    that steps aside fires every event; one moving within the army fires those of LANDS, not those
    of JOINS; one placed in the command zone fires neither. (Hopper, in the command zone, listens
    to `joined`; Kraal, on top of the warrior column, steps aside when covered — and moving within
    the army so, joins nothing either.)"""
    from harness import give, new_engine, pull, run
    from nidavellir.interface.events import ALWAYS, JOINS, LANDS
    from nidavellir.rulesets import load_rules

    v = variant(tmp_path, '  - {id: kraal, effects: ["instead of covered: place self in column hunter"]}\n'
                          '  - {id: hopper, kind: hero, class: hunter, ranks: [1], '
                          'effects: ["whenever joined: add 1 token"]}\n', JOINED)
    rules = load_rules((), (str(v),))
    declared = {when: {f.event for f in ACTION_EVENTS["place"] if f.when == when and f.about != HERO_}
                for when in (ALWAYS, LANDS, JOINS)}
    assert declared[JOINS] == {"joined"} and declared[LANDS] == {"covered"}

    def fired(setup: str) -> set[str]:
        e = new_engine(2, rules=rules)
        give(e, 0, "hopper", column=None)
        kraal = give(e, 0, "kraal", column="warrior")[0]
        if setup == "within":
            card = give(e, 0, "warrior:3", column="hunter")[0]
            dest: str | None = "warrior"
        elif setup == "outside":
            card, dest = pull(e, "warrior:3"), "warrior"
            e.s.resolving.append(card)
        else:
            card, dest = pull(e, "skaa"), None
            e.s.resolving.append(card)
        seen = _recorded(monkeypatch)
        run(e.place(0, card, dest, check=False))
        monkeypatch.undo()
        assert (e.column_of(kraal) == "hunter") == (setup != "command")
        return set(seen) & (declared[LANDS] | declared[JOINS])

    assert fired("outside") == declared[LANDS] | declared[JOINS]
    assert fired("within") == declared[LANDS]
    assert fired("command") == set()


def test_may_when_joined_moving_within_the_army_asks_once_and_ends(tmp_path):
    """Audit s2/scene-joined-self.yaml: `may when joined: place self in column warrior`, placed in
    the hunter column from outside: its owner is asked once; yes moves it to the warrior column,
    which joins nothing, so nothing more is asked."""
    from harness import give, new_engine, pull, run_log
    from nidavellir.rulesets import load_rules

    v = variant(tmp_path, '  - {id: hopper, kind: hero, class: hunter, ranks: [1], '
                          'effects: ["may when joined: place self in column warrior"]}\n', JOINED)
    for answer, column in (("yes", "warrior"), ("no", "hunter")):
        e = new_engine(3, rules=load_rules((), (str(v),)))
        give(e, 0, "warrior:3", column="warrior")
        hopper = pull(e, "hopper")
        e.s.resolving.append(hopper)
        asked = run_log(e.place(0, hopper, "hunter"), answer)
        assert len(asked) == 1 and e.column_of(hopper) == column
