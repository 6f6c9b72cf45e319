"""Generic mechanisms of the Idavoll issue, each on its own, with the test layer
tests/layers/legends.yaml (not real cards; modelled on 001_b589e44fbbff9743.txt's wording): a
tavern filled from a zone's pile in given turns, looking into a pile, reserving a tavern card, a cost
before `then`, the capture of the next dwarf of a class, the event card's kind, cards that leave the
game when untaken."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness import fill_tavern, give, new_engine, pull, run, run_log, set_coins, shown
from nidavellir.rulesets import load_rules
from nidavellir.runtime.flow import enter_dwarves, picks, resolve_taverns, run_steps
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.position import engine_from_position, position_of
from nidavellir.runtime.scoring import player_score

LAYER = str(Path(__file__).parent / "layers" / "legends.yaml")
RULES = load_rules((), (LAYER,))


@pytest.fixture
def e():
    return new_engine(3, seed=3, rules=RULES)


def tavern_ids(e, t):
    return [e.s.cards[c] for c in e.s.taverns[t]]


def test_a_tavern_is_filled_from_a_pile_in_the_turns_its_draws_name(e):
    """001 Idavoll: "During the 3 first rounds of Age 1, the second tavern contains the new mythology
    cards" — here the third tavern in turn 2 of Age 1, from the legends pile."""
    pile = e.s.zones["legends"]
    legends = {"seer", "claimant", "swapper", "ogre", "sifter"}
    for turn, from_pile in ((1, False), (2, True), (3, False)):
        e.s.turn = turn
        e.s.taverns = [[], [], []]
        before = len(pile)
        run(enter_dwarves(e))
        assert (set(tavern_ids(e, 2)) <= legends) == from_pile
        assert not set(tavern_ids(e, 0)) & legends
        assert len(pile) == before - (3 if from_pile else 0)
        e.s.discard.extend(c for t in e.s.taverns for c in t)  # (out of the way)
    e.s.age, e.s.turn, e.s.taverns = 2, 2, [[], [], []]
    run(enter_dwarves(e))
    assert not set(tavern_ids(e, 2)) & legends  # Age 2: the age deck again


def test_untaken_cards_of_a_kind_that_leaves_the_game_go_to_the_box(e):
    """DESIGN §9: "untaken mythology cards leave the game" (a kind's `discards_to: box`); the dwarves
    left in a tavern go to the discard pile as before."""
    for p in range(3):
        set_coins(e, p, hand=[0, 2, 3, 4, 5])
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    fill_tavern(e, 0, "seer", "claimant", "warrior:3")
    fill_tavern(e, 1)
    fill_tavern(e, 2)
    log = run_log(resolve_taverns(e), "warrior:3")
    assert {e.s.cards[c] for c in e.s.box} == {"seer", "claimant"} and not e.s.taverns[0]
    assert [d.kind for d in log] == ["pick"]


def test_looking_into_a_pile_keeps_every_card_in_a_zone_while_the_order_is_asked(e):
    """001 Skymir: "draw 5 Mythology cards from the cards next to the Royal Treasure and keep 2. Put
    the 3 remaining cards under the Mythology card deck"; 001 Frigg: "Put the 2 remaining cards under
    the deck in the order of your choice" — every invariant holds at each question."""
    pile = e.s.zones["legends"]
    seer = pull(e, "seer")
    rest = list(pile[:1])
    top = [e.s.cards[c] for c in reversed(pile[1:])]  # the 3 drawn, top first
    gen = e.take_card(0, seer)
    answers = iter([top[0], top[1]])  # keep the first; then put the second under first
    decision = next(gen)
    kinds = []
    try:
        while True:
            assert not violations(e), violations(e)
            kinds.append(decision.kind)
            wanted = next(answers)
            decision = gen.send(next(o for o in decision.options if o.card == wanted))
    except StopIteration:
        pass
    assert kinds == ["card", "card"]  # the card kept; then the first of the 2 to go under
    assert [e.s.cards[c] for c in pile] == [top[2], top[1]] + [e.s.cards[c] for c in rest]
    assert e.s.cards[e.s.players[0].command[-1]] == top[0]  # taken as usual (a legend: command zone)


def test_a_reserved_card_is_only_its_reservers_and_a_player_with_only_reserved_cards_takes_nothing(e):
    """DESIGN §9 (Loki): "only his owner may take it; a player who finds only reserved cards takes
    nothing, and a reserved card left at the end of its tavern is discarded"."""
    give(e, 2, "claimant", column=None)
    set_coins(e, 0, slots=[5, 2, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 2, 4], pouch=[0, 5])
    fill_tavern(e, 0, "warrior:3", "hunter", "miner:1")
    run(run_steps(e, [next(s for s in RULES.ruleset.turn if s.id == "claims")]), "yes", "hunter@laughing-goblin")
    hunter = e.s.taverns[0][1]
    assert e.s.reserved == {hunter: 2}
    log = run_log(picks(e, next(s for s in RULES.ruleset.tavern if s.id == "picks")), "warrior:3")
    assert "hunter@laughing-goblin" not in shown(log[0])
    assert e.column_of(hunter) == "hunter" and e.s.players[2].army["hunter"] == [hunter]  # P3: the last, reserved
    fill_tavern(e, 1, "explorer:5")               # a tavern holding only P3's reserved card
    e.s.reserved = {e.s.taverns[1][0]: 2}
    e.s.tavern, e.s.revealed = 1, None
    armies = [sum(len(col) for col in pl.army.values()) for pl in e.s.players]
    run(picks(e, next(s for s in RULES.ruleset.tavern if s.id == "picks")))
    after = [sum(len(col) for col in pl.army.values()) for pl in e.s.players]
    assert after == [armies[0], armies[1], armies[2] + 1]  # P1 and P2 take nothing; P3 takes it


def test_a_cost_before_then_stops_the_rest_when_it_cannot_be_paid(e):
    """001 Odin: "put one of your Neutral Heroes back in the reserve and recruit another Neutral Hero
    instead"; DESIGN §9: "with no neutral hero to return nothing happens"."""
    swapper, = give(e, 0, "swapper", column=None)
    turn_end = [s for s in RULES.ruleset.turn if s.id == "turn-end"]
    run(run_steps(e, turn_end))                    # no neutral hero to return: not even asked
    assert not e.used(swapper)
    skaa, = give(e, 0, "skaa", column=None)
    log = run_log(run_steps(e, turn_end), "yes", "astrid")
    assert [d.kind for d in log] == ["use", "hero"]
    assert "skaa" not in [o.card for o in log[1].options]  # another than the one put back
    assert all(e.rules.cards[o.card].cls == "neutral" for o in log[1].options)
    assert skaa in e.s.heroes and e.s.cards[e.s.players[0].command[-1]] == "astrid"
    assert e.s.players[0].heroes_counted == 0  # uncounted


def test_the_next_dwarf_of_a_class_may_be_captured_or_placed_and_then_never(e):
    """001 Giants: "if you recruit a Dwarf of this class, you can choose between capturing the Dwarf
    card or placing it in your Army. If you capture the Dwarf card, the effect of the Giant triggers
    immediately ... If you place the Dwarf card in your Army, turn the Giant card face down"."""
    ogre, = give(e, 0, "ogre", column=None)
    run(e.take_card(0, pull(e, "warrior:3")))                 # another class: no question
    log = run_log(e.take_card(0, pull(e, "miner:2")), "yes")
    assert [d.kind for d in log] == ["use"]
    assert e.s.players[0].gem == 6 or 6 in e.s.players[0].covered_gems  # the capture's effect applied
    assert e.captures(ogre) == 1 and e.ranks(0, "miner") == 0   # captured cards are no ranks
    assert player_score(e, 0)["breakdown"]["heroes"] == 3 * 2 + 100
    run(e.take_card(0, pull(e, "miner:1")))                    # spent: placed, no question
    assert e.ranks(0, "miner") == 1
    other = new_engine(3, seed=3, rules=RULES)
    ogre2, = give(other, 0, "ogre", column=None)
    run(other.take_card(0, pull(other, "miner:2")), "no")
    assert other.mark(ogre2, "face_down") and other.used(ogre2) and other.ranks(0, "miner") == 1
    run(other.take_card(0, pull(other, "miner:1")))            # face down for good
    state = position_of(other)["players"][0]["command_zone"]
    assert {"card": "ogre", "face_down": True} in state
    assert {"card": "ogre", "captured": "miner:2"} in position_of(e)["players"][0]["command_zone"]


def test_a_captured_card_and_a_face_down_card_read_back_from_a_position():
    """DESIGN §8: `{card: surt, captured: warrior:9}`, `{card: skymir, face_down: true}`."""
    for state, score in (({"captured": "miner:2"}, 106), ({"face_down": True}, 0), ({}, 0)):
        data = {"players": [{"name": "Ana", "coins": [0, 2, 3, 4, 5], "command_zone": [{"card": "ogre", **state}]},
                            {"name": "Bo", "coins": [0, 2, 3, 4, 5]}]}
        e = engine_from_position(RULES, data)
        assert player_score(e, 0)["breakdown"]["heroes"] == score
        assert position_of(e)["players"][0]["command_zone"] == [{"card": "ogre", **state} if state else "ogre"]


def test_an_effect_reads_the_kind_of_the_event_card(e):
    """001 Frigg: "When you choose a Dwarf card or a Royal Offering" — `subject_kind is KIND`."""
    sifter, = give(e, 0, "sifter", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    run(e.take_card(0, pull(e, "warrior:3")))
    assert e.track_value(sifter) == 0
    run(e.take_card(0, pull(e, "royal-offering:3")), "2@hand")
    assert e.track_value(sifter) == 1


@pytest.mark.parametrize("effect, at, message", [
    ("capture next wizard dwarf", "wizard", "unknown class `wizard`"),
    ("when recruited: look at 5 from nowhere deck, take 1, rest shuffled", "nowhere", "no deck `nowhere`"),
    ("when recruited: transform chosen coin by 2 then recruit hero", "transform",
     "only `recruit` or `return` can come before `then`: nothing else can fail"),
    ("whenever taken if subject_kind is wizard: recruit hero", "wizard", "unknown kind `wizard`"),
    ("when recruited: recruit another elf hero", "elf", "unknown class `elf`"),
    ("when recruited: return chosen druid hero", "druid", "unknown class `druid`"),
    ("when recruited: each other player return chosen neutral hero then recruit hero", "each",
     "only `recruit` or `return` can come before `then`: nothing else can fail"),
])
def test_the_new_constructs_are_checked_and_located(capsys, tmp_path, effect, at, message):
    """DESIGN §6: "Every problem in rules input ... is reported as `path:line:col: error: message`"."""
    from checking import find, run_check, write

    v = write(tmp_path / "v.yaml", f'layer: {{id: v, name: V}}\ncards:\n  - id: grid\n    effects:\n      - "{effect}"\n')
    code, _, err = run_check(capsys, str(v))
    line, col = find(v, at)
    assert code == 1 and f"{v}:{line}:{col}: error: {message}" in err.splitlines(), err
    if "each other player" in effect:  # (`then` follows `each other player A`, not A: the hint says so)
        assert "hint: `each other player` takes only the action right after it" in err, err
