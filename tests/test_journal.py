"""The public event journal (runtime/journal.py).

Issue 10: the observation holds "what happened since the player's last decision (bids revealed,
who took what, trades, transformations, gem exchanges, distinctions, heroes) — and nothing hidden
(others' unrevealed bids, deck order, the mythology cards set aside)". The engine keeps a typed
record of it only when asked; each record says who may know it (`seen_by`).
"""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from nidavellir.rulesets import load_rules
from nidavellir.runtime import journal as j
from nidavellir.runtime.game import Game
from nidavellir.runtime.position import position_of

BASE = load_rules()
BOTH = load_rules(("thingvellir", "idavoll"))
BASIC_COINS = [0, 2, 3, 4, 5]


def played(rules, players, seed, journal=True) -> Game:
    """A whole game of seeded random answers."""
    game = Game(rules, players, seed, journal=journal)
    rng = random.Random(seed)
    while game.pending is not None:
        game.answer(game.pending.options[rng.randrange(len(game.pending.options))])
    return game


@pytest.fixture(scope="module")
def base_game() -> Game:
    return played(BASE, 3, 11)


def records(game, kind):
    return [h for h in game.engine.journal if isinstance(h, kind)]


def test_bids_revealed_match_the_bids_placed_and_the_log(base_game):
    """003 "Bids": each player secretly puts one coin on each tavern; 003 "Taverns Resolution":
    the bids of a tavern are revealed when it is resolved. Each reveal gives, for each player,
    the coin that player bid there (as the decision log says, or as a transformation changed it
    since: 003 "a coin transformed on a tavern not yet resolved"), and marks the trading coin."""
    game = base_game
    taverns = BASE.tavern_ids
    bids_in_log = {(e["age"], e["turn"], e["player"]): e["answer"] for e in game.log if e["kind"] == "bid"}
    expected: dict[int, list[int | None]] = {}
    trading: dict[int, tuple[int, ...]] = {}
    checked = reveals = 0
    for h in game.engine.journal:
        if isinstance(h, j.BidsPlaced):
            expected[h.player], trading[h.player] = list(h.bids), h.trading
            if (h.age, h.turn, h.player) in bids_in_log:
                assert list(h.bids) == bids_in_log[(h.age, h.turn, h.player)]
        elif isinstance(h, j.CoinTransformed) and h.at in taverns and h.player in expected:
            assert expected[h.player][taverns.index(h.at)] == h.old
            expected[h.player][taverns.index(h.at)] = h.new
        elif isinstance(h, j.BidsRevealed):
            reveals += 1
            t = taverns.index(h.tavern)
            for p, value in enumerate(h.bids):
                if p not in expected:  # bidding from hand: the coin comes after the reveal
                    assert value is None
                    continue
                assert value == expected[p][t]
                assert (p in h.trading) == (t in trading[p])
                checked += 1
        elif isinstance(h, j.TurnStarted):
            expected.clear()
    assert reveals == len(records(game, j.TurnStarted)) * len(taverns)
    assert checked > 50
    assert any(h.trading for h in records(game, j.BidsRevealed))


def test_every_card_taken_is_recorded_once_with_where_it_went(base_game):
    """003: each player takes one card in each tavern, in bid order; the journal says who took which
    card from where, and where it went: rebuilt from the records alone, every player's army columns
    and command zone are the final ones."""
    game = base_game
    took = [h for h in records(game, j.Took) if h.at in BASE.tavern_ids]
    turns = {(h.age, h.turn) for h in records(game, j.TurnStarted)}
    assert len(took) == len(turns) * 3 * len(BASE.tavern_ids)  # one card per player per tavern
    per_turn = Counter((h.age, h.turn, h.player, h.at) for h in took)
    assert set(per_turn.values()) == {1}
    assert {h.at for h in records(game, j.Took)} - set(BASE.tavern_ids) <= {"age:2"}  # (the explorer draw)
    boards: list[dict[str, list[str]]] = [{} for _ in range(3)]
    for h in game.engine.journal:
        if isinstance(h, j.Placed):
            if h.origin is not None:
                boards[h.player][h.origin].remove(h.card)
            boards[h.player].setdefault(h.column, []).append(h.card)
        elif isinstance(h, j.Discarded) and h.player >= 0 and h.at not in BASE.tavern_ids:
            # from an army column (003 Dagda: "discard the last Dwarf card … from two other columns":
            # the top copy of that card) or the command zone
            pile = boards[h.player][h.at]
            del pile[len(pile) - 1 - pile[::-1].index(h.card)]
        elif isinstance(h, j.HeroReturned):
            column = next(c for c, cards in boards[h.player].items() if h.card in cards)
            boards[h.player][column].remove(h.card)
    final = position_of(game.engine)["players"]
    for p, pl in enumerate(final):
        want = {cls: [c if isinstance(c, str) else c["card"] for c in cards] for cls, cards in pl["army"].items()}
        got = {cls: cards for cls, cards in boards[p].items() if cls != "command" and cards}
        assert got == {cls: cards for cls, cards in want.items() if cards}
        command = [c if isinstance(c, str) else c["card"] for c in pl["command_zone"]]
        assert sorted(boards[p].get("command", [])) == sorted(command)
    # a card taken goes where its record says, at once (a royal offering to the discard pile)
    journal = game.engine.journal
    for i, h in enumerate(journal):
        if isinstance(h, j.Took):
            kind = BASE.cards[h.card].kind
            nxt = journal[i + 1]
            if kind == "royal-offering":
                assert isinstance(nxt, j.CoinTransformed) and nxt.cause == h.card
            else:
                assert isinstance(nxt, j.Placed) and nxt.card == h.card and nxt.origin is None


def test_trades_and_transformations_match_the_coins(base_game):
    """003 "Trading Coins": the two pouch coins are added up, a coin of that value is taken from the
    treasure and the higher of the two is discarded; 003 "Transforming a Coin": old → new. Replayed
    on each player's coins, the records give the coins of every bid and the final coins."""
    game = base_game
    coins = [Counter(BASIC_COINS) for _ in range(3)]
    trades = transforms = 0
    for h in game.engine.journal:
        if isinstance(h, j.BidsPlaced):
            assert Counter([v for v in h.bids if v is not None] + list(h.pouch)) == coins[h.player]
        elif isinstance(h, j.CoinTraded):
            a, b = h.coins
            assert a <= b and h.gone == b and h.wanted == a + b  # (no bonus in the base game)
            assert coins[h.player][a] and coins[h.player][b]
            coins[h.player][h.gone] -= 1
            coins[h.player][h.new] += 1
            trades += 1
        elif isinstance(h, j.CoinTransformed):
            assert coins[h.player][h.old]
            coins[h.player][h.old] -= 1
            coins[h.player][h.new] += 1
            assert h.amount > 0 and h.cause is not None
            transforms += 1
        elif isinstance(h, j.CoinExchanged):
            coins[h.player][h.old] -= 1
            coins[h.player][h.new] += 1
    assert trades > 5 and transforms > 0
    final = position_of(game.engine)["players"]
    for p, pl in enumerate(final):
        assert +coins[p] == Counter(pl["coins"])


def test_gem_exchanges_and_distinctions(base_game):
    """003 "Trading Gems": tied players trade gems; 003 "Troop Evaluation": the strict majority of
    each class wins its distinction. Replayed, the gem records give the final gems; each distinction
    won is in its winner's command zone, and one that no one won is in no one's."""
    game = base_game
    start = records(game, j.GameStarted)
    assert len(start) == 1
    gems = list(start[0].gems)
    for h in game.engine.journal:
        if isinstance(h, j.GemsTraded):
            assert len(h.swaps) >= 2
            for p, old, new in h.swaps:
                assert gems[p] == old
                gems[p] = new
        elif isinstance(h, j.GemGained):
            assert gems[h.player] == h.old
            gems[h.player] = h.new
    assert gems == [pl.gem for pl in game.state.players]
    won = records(game, j.DistinctionWon)
    unclaimed = records(game, j.DistinctionUnclaimed)
    assert len(won) + len(unclaimed) == 5
    for h in won:
        assert h.card in [game.state.cards[c] for c in game.state.players[h.player].command]
        assert h.age == 1 and h.ranks > 0 and BASE.cards[h.card].cls == h.cls
    for h in unclaimed:
        assert all(h.card not in [game.state.cards[c] for c in pl.command] for pl in game.state.players)


def test_records_hold_ids_and_values_not_objects():
    """Issue: "readable labels, no Python reprs or raw ids" — the records hold ids (card ids, coin
    values, tavern and zone ids), so they have a plain JSON form."""
    game = played(BOTH, 3, 4)
    kinds = Counter(h.kind for h in game.engine.journal)
    for h in game.engine.journal:
        data = h.to_json()
        json.dumps(data)
        for key in ("card", "subject", "first", "second"):
            if key in data:
                assert data[key] in BOTH.cards
        for key in ("cards",):
            if key in data:
                assert all(c in BOTH.cards for c in data[key])
    assert {"took", "placed", "bids-revealed", "coin-traded", "final-scores"} <= set(kinds)
    assert set(j.KINDS) >= set(kinds)


def test_seen_by_hides_a_players_unrevealed_bid():
    """Issue: nothing hidden reaches a player — "others' unrevealed bids". A player's own bids are
    theirs alone until each tavern's reveal."""
    game = Game(BASE, 3, 5, journal=True)
    for _ in range(3):  # the three bids
        game.answer(game.pending.options[7])
    bids = [h for h in game.engine.journal if isinstance(h, j.BidsPlaced)]
    assert [h.seen_by for h in bids] == [frozenset({0}), frozenset({1}), frozenset({2})]
    for p in range(3):
        seen = j.journal_since(game, 0, p)
        assert [h.player for h in seen if isinstance(h, j.BidsPlaced)] == [p]
    reveals = [h for h in j.journal_since(game, 0, 1) if isinstance(h, j.BidsRevealed)]
    assert len(reveals) == 1  # the first tavern's, as it resolves; the others' bids stay hidden
    assert len(j.journal_since(game, 0, None)) == len(game.engine.journal)


def test_where_a_transformed_coin_lies_is_known_as_the_bids_are(base_game):
    """Every coin a player owns is public (transformed in the open), but not where it lies before its
    tavern's reveal: a coin transformed on a tavern not yet revealed, or in the pouch, is recorded
    with its place for its owner only; the others read the values without the place."""
    game = base_game
    revealed: set[str] = set()
    shown: set[int] = set()  # players whose pouch a trade showed this turn (003 "Trading Coins")
    from_hand = {h.player for h in records(game, j.LateBid)}
    secret = 0
    for i, h in enumerate(game.engine.journal):
        if isinstance(h, j.TurnStarted):
            revealed, shown = set(), set()
        elif isinstance(h, j.BidsRevealed):
            revealed.add(h.tavern)
        elif isinstance(h, j.CoinTraded) and h.player not in from_hand:
            shown.add(h.player)
        elif isinstance(h, j.CoinTransformed):
            hidden = h.at == "pouch" and h.player not in shown or h.at in BASE.tavern_ids and h.at not in revealed
            assert (h.seen_by == frozenset({h.player})) == hidden, h
            other = (h.player + 1) % 3
            seen = j.journal_since(game, i, other)[0]
            assert isinstance(seen, j.CoinTransformed) and (seen.old, seen.new) == (h.old, h.new)
            assert seen.at == ("" if hidden else h.at)
            secret += hidden
    assert secret >= 1


def test_a_private_draw_is_seen_by_the_drawer_only():
    """003 "Pioneer of the Kingdom" (the explorer distinction): its winner draws 3 cards of the Age 2
    deck, keeps 1 and shuffles the rest back: which cards, only they see; the others learn how many
    (and, once it is taken, which card was kept)."""
    for seed in range(1, 40):
        game = played(BASE, 3, seed)
        drew = [h for h in game.engine.journal if isinstance(h, j.Drew)]
        if drew:
            break
    else:
        pytest.fail("no game drew a card")
    h = drew[0]
    assert h.seen_by == frozenset({h.player}) and len(h.cards) == 3 and h.count == 3
    index = game.engine.journal.index(h)
    other = (h.player + 1) % 3
    mine, theirs = j.journal_since(game, index, h.player)[0], j.journal_since(game, index, other)[0]
    assert mine == h
    assert isinstance(theirs, j.Drew) and theirs.cards == () and theirs.count == 3 and theirs.seen_by is None
    back = game.engine.journal[index + 1]
    assert isinstance(back, j.PutUnder) and back.seen_by == frozenset({h.player}) and back.count == 2
    kept = game.engine.journal[index + 2]
    assert isinstance(kept, j.Took) and kept.seen_by is None and kept.card in h.cards and kept.at == "age:2"


def test_with_the_journal_off_nothing_is_recorded():
    """Issue (this brief): the journal is kept only when asked; `None` costs nothing."""
    game = played(BASE, 3, 11, journal=False)
    assert game.engine.journal is None
    assert game.engine.causes == []
    with pytest.raises(j.JournalOff):
        j.journal_since(game, 0, 0)
    # the same game with the journal: the same answers, the same end
    assert played(BASE, 3, 11).scores() == game.scores()


def test_game_copy_keeps_a_copy_of_the_journal():
    """DESIGN §7: `copy()` gives an independent game at the same decision; with the journal on, the
    copy starts with a copy of it, and both go on recording apart (`copy(journal=False)`: none)."""
    game = Game(BOTH, 3, 8, journal=True)
    rng = random.Random(8)
    for _ in range(40):
        game.answer(game.pending.options[rng.randrange(len(game.pending.options))])
    twin = game.copy()
    assert twin.engine.journal == game.engine.journal and twin.engine.journal is not game.engine.journal
    for _ in range(30):
        answer = game.pending.options[rng.randrange(len(game.pending.options))]
        game.answer(answer)
        twin.answer(answer)
    assert twin.engine.journal == game.engine.journal
    again = twin.copy()  # (a copy of a copy: from its saved turn start)
    assert again.engine.journal == twin.engine.journal
    assert game.copy(journal=False).engine.journal is None
    assert Game(BASE, 2, 1).copy().engine.journal is None


@pytest.mark.parametrize("kind", sorted(j.KINDS.values(), key=lambda k: k.kind), ids=lambda k: k.kind)
def test_every_record_kind_is_built_as_its_fields_say_and_stays_frozen(kind):
    """The journal's contract: "each record is a small frozen dataclass with the age and turn it
    happened in, the player who did it, the card whose effect did it" — made by a quicker `__init__`
    than the dataclass's (interface/quick.py `quick_init`), it takes age and turn by position and the
    rest by name, keeps each value given, fills the declared defaults, refuses a missing field, and is
    frozen."""
    fields = dataclasses.fields(kind)
    required = {f.name: f"v-{f.name}" for f in fields if f.kw_only and f.default is dataclasses.MISSING}
    record = kind(3, 5, cause="grid", **required)
    for f in fields:
        expected = {"age": 3, "turn": 5, "cause": "grid", **required}.get(f.name, f.default)
        assert getattr(record, f.name) == expected, f.name
    assert record == kind(3, 5, cause="grid", **required) and hash(record) == hash(kind(3, 5, cause="grid", **required))
    assert dataclasses.replace(record, turn=6).turn == 6
    with pytest.raises(AttributeError):  # (dataclasses.FrozenInstanceError is one)
        record.age = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        kind(3, 5, 7, **required)  # (the player is given by name)
    if required:
        with pytest.raises(TypeError):
            kind(3, 5)
