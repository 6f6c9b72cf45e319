"""Primitive actions on coins and gems: transform, trade, exchange, discard; the treasure's rule."""
from __future__ import annotations

from collections.abc import Iterator

from nidavellir.interface.decisions import CoinChoice, Option
from nidavellir.interface.engine import Gen

from .card_actions import CardActions
from .coins import treasure_value
from .journal import (
    CoinDiscarded,
    CoinExchanged,
    CoinTraded,
    CoinTransformed,
    GemGained,
)
from .state import TREASURE


class CoinActions(CardActions):
    """Reading, choosing, transforming, trading and discarding coins; gems. (It builds on the card
    actions only to keep the engine's classes a single line, which mypyc needs: see setup.py.)"""

    # -- reading ----------------------------------------------------------------------------
    def coin_values(self, p: int) -> list[int]:
        coins = self.s.coins
        return [coins[c].value for c in self.s.players[p].coin_ids()]

    def highest_coin(self, p: int) -> int:
        return max(self.coin_values(p), default=0)

    def lowest_coin(self, p: int) -> int:
        return min(self.coin_values(p), default=0)

    def coins_total(self, p: int) -> int:
        return sum(self.coin_values(p))

    def coins_at_least(self, p: int, value: int) -> int:
        return sum(1 for v in self.coin_values(p) if v >= value)

    def coin_place(self, p: int, coin: int) -> str:
        pl = self.s.players[p]
        if coin in pl.slots:
            return self.rules.tavern_ids[pl.slots.index(coin)]
        return "pouch" if coin in pl.pouch else "hand"

    def _seen_place(self, p: int, coin: int) -> tuple[str, frozenset[int] | None]:
        """Where a coin lies (as `coin_place`) and who may know it (None: everyone): a coin on a
        tavern whose bids are not revealed yet, or in a pouch no trade has shown, lies where only its
        owner knows (runtime/observation.py)."""
        pl = self.s.players[p]
        hidden = (coin in pl.slots and pl.slots.index(coin) >= self.s.bids_revealed
                  or coin in pl.pouch and p not in self.s.pouch_shown)
        return self.coin_place(p, coin), frozenset((p,)) if hidden else None

    def coin_choice(self, p: int, coin: int) -> CoinChoice:
        return CoinChoice(self.s.coins[coin].value, self.coin_place(p, coin))

    def transformable_coins(self, p: int, where: str | None = None, exclude: tuple[int, ...] = ()) -> list[int]:
        """Transformable coins in board order (taverns, then pouch, then hand); `where`: only there."""
        pl = self.s.players[p]
        coins = self.s.coins
        if where == "pouch":
            order = list(pl.pouch)
        else:
            order = [c for c in pl.slots if c is not None] + pl.pouch + pl.hand
        return [c for c in order if coins[c].transformable and c not in exclude]

    def each_coin(self, p: int, where: str | None = None) -> Iterator[int]:
        """Each transformable coin (`where`: of the pouch), in board order, as they are now; a coin that
        an effect of an earlier one replaced or took away is skipped."""
        coins = self.transformable_coins(p, where)
        left = self.s.coins_left
        start = {c: left.get(c, 0) for c in coins}  # (a coin that left and came back is another coin)
        return self.each_member(coins, lambda c: left.get(c, 0) == start[c] and c in self.transformable_coins(p, where))

    def lowest_transformable(self, p: int, where: str | None = None) -> int | None:
        coins = self.transformable_coins(p, where)
        return min(coins, key=lambda c: self.s.coins[c].value) if coins else None

    def highest_transformable(self, p: int, where: str | None = None) -> int | None:
        coins = self.transformable_coins(p, where)
        return max(coins, key=lambda c: self.s.coins[c].value) if coins else None

    def trading_coin(self, p: int, where: str | None = None) -> int | None:
        pl = self.s.players[p]
        ids = pl.pouch if where == "pouch" else pl.coin_ids()
        return next((c for c in ids if self.s.coins[c].trading), None)

    def trading_in_pouch(self, p: int) -> bool:
        return self.trading_coin(p, "pouch") is not None

    # -- choosing --------------------------------------------------------------------------
    def choose_coin(self, p: int, coins: list[int], purpose: str) -> Gen[int | None]:
        if not coins:
            return None
        choices: dict[Option, int] = {}
        for c in coins:
            choices.setdefault(self.coin_choice(p, c), c)
        answer = yield from self.ask(p, "coin", list(choices), f"choose a coin to {purpose}")
        return choices[answer]

    # -- moving ----------------------------------------------------------------------------
    def _replace_coin(self, p: int, old: int, new: int) -> None:
        pl = self.s.players[p]
        for zone in (pl.hand, pl.pouch):
            if old in zone:
                zone[zone.index(old)] = new
                return
        pl.slots[pl.slots.index(old)] = new

    def _return_coin(self, coin: int) -> None:
        """003 "Discarding Coins": a treasure coin goes back to the treasure, any other to the box."""
        self.s.coins_left[coin] = self.s.coins_left.get(coin, 0) + 1
        c = self.s.coins[coin]
        if c.origin == TREASURE:
            self.s.treasure.setdefault(c.value, []).append(coin)
        else:
            self.s.coin_box.append(coin)

    def take_from_treasure(self, wanted: int) -> int | None:
        t = self.s.treasure
        value = treasure_value([v for v, cs in t.items() if cs], wanted)
        return None if value is None else t[value].pop()

    def discard_coin(self, p: int, coin: int | None) -> None:
        """A coin leaves the player; on a tavern not yet resolved it leaves that bid empty."""
        if coin is None:
            return
        if CoinDiscarded in self.keeps:
            at, seen = self._seen_place(p, coin)
            self.note(CoinDiscarded(self.s.age, self.s.turn, player=p, cause=self.cause(), seen_by=seen,
                                    value=self.s.coins[coin].value, at=at))
        pl = self.s.players[p]
        if coin in pl.slots:
            pl.slots[pl.slots.index(coin)] = None
        else:
            (pl.hand if coin in pl.hand else pl.pouch).remove(coin)
        self._return_coin(coin)

    def transform_spread(self, p: int, where: str | None, amounts: tuple[int, ...]) -> Gen[None]:
        """Add each amount to a different coin (`where`: of the pouch only): the player chooses the
        coin to transform next, then which amount it gets, until the amounts or coins run out."""
        left = [a for a in amounts if a > 0]  # (an amount of 0 or less transforms nothing)
        done: list[int] = []
        while left:
            coin = yield from self.choose_coin(p, self.transformable_coins(p, where, tuple(done)), "transform next")
            if coin is None:
                return
            amount = left[0]
            if len(set(left)) > 1:
                answer = yield from self.ask(p, "amount", sorted(set(left)), "choose what to add to it")
                assert isinstance(answer, int)
                amount = answer
            left.remove(amount)
            done.append((yield from self.transform(p, coin, amount)))

    def transform(self, p: int, coin: int, amount: int) -> Gen[int]:
        """003 "Transforming a Coin": add X, take the treasure's answer, discard the old coin. X is
        at least 1: by 0 or less nothing happens (README, the effect DSL: amounts), and so when the
        `transform_bonus` brings X to 0 or less.

        Returns the coin the player now holds in its place."""
        old = self.s.coins[coin]
        if not old.transformable or amount <= 0:
            return coin
        amount += self.param(p, "transform_bonus")
        if amount <= 0:
            return coin
        new = self.take_from_treasure(old.value + amount)
        if new is None:
            return coin
        if CoinTransformed in self.keeps:
            at, seen = self._seen_place(p, coin)
            self.note(CoinTransformed(self.s.age, self.s.turn, player=p, cause=self.cause(), seen_by=seen, old=old.value,
                                      amount=amount, new=self.s.coins[new].value, at=at))
        self._replace_coin(p, coin, new)
        self._return_coin(coin)
        yield from self._bettered(p, self.s.coins[new].value - old.value)
        return new

    def _bettered(self, p: int, amount: int) -> Gen[None]:
        if amount > 0 and self.reacts("coin-bettered", p=p):
            yield from self.emit(p, "coin-bettered", amount=amount)

    def special_coin_left(self, special_id: str) -> bool:
        """Whether the special coin is still there for an exchange to hand out."""
        return special_id in self.s.special_coins

    def exchange_coin(self, p: int, coin: int, special_id: str) -> int:
        """The special coin takes `coin`'s place (none left: nothing happens). Returns the coin the
        player now holds in its place."""
        new = self.s.special_coins.pop(special_id, None)
        if new is None:
            return coin
        if CoinExchanged in self.keeps:
            self.note(CoinExchanged(self.s.age, self.s.turn, player=p, cause=self.cause(), old=self.s.coins[coin].value,
                                    new=self.s.coins[new].value, special=special_id))
        self._replace_coin(p, coin, new)
        self.s.coins_left[coin] = self.s.coins_left.get(coin, 0) + 1
        self.s.coin_box.append(coin)
        return new

    def coin_trade(self, p: int, trading: int) -> Gen[None]:
        """003 "Trading Coins": add the two pouch coins, discard the higher, take the sum."""
        pl = self.s.players[p]
        coins = self.s.coins
        # Bidding from hand, the two coins come from the hand; coins already on the board (the
        # turn the power is gained) stay there until the end of the turn: the pouch trades. With
        # more than two coins to trade from (rules with more coins than taverns + 2), the player
        # chooses the two.
        source = pl.hand if self.param(p, "bid_from_hand") > 0 and len(pl.hand) >= 2 else pl.pouch
        pair: list[int] = []
        if len(source) > 2 or source is pl.hand:
            for i in range(2):
                options = [c for c in source if c not in pair]
                pick = yield from self.choose_coin(p, options, f"add up in the coin trade ({i + 1} of 2)")
                assert pick is not None
                pair.append(pick)
        else:
            pair = list(source)
        if len(pair) < 2:
            return
        if source is pl.pouch:
            self.s.pouch_shown.add(p)  # the two coins are shown to make the trade
        a, b = sorted(pair, key=lambda c: coins[c].value)
        wanted = coins[a].value + coins[b].value + self.param(p, "transform_bonus")
        new = self.take_from_treasure(wanted)
        if new is None:
            return
        gone = a if self.param(p, "trade_lower") > 0 else b
        if CoinTraded in self.keeps:
            self.note(CoinTraded(self.s.age, self.s.turn, player=p, cause=self.cause(), coins=(coins[a].value, coins[b].value),
                                 wanted=wanted, new=coins[new].value, gone=coins[gone].value))
        source.remove(gone)
        self._return_coin(gone)
        pl.pouch.append(new)
        yield from self._bettered(p, coins[new].value - coins[gone].value)
        if self.reacts("coin-traded", p=p):
            yield from self.emit(p, "coin-traded")

    def special_gem_left(self, value: int) -> bool:
        """Whether a special gem of `value` is still there for `gain gem` to hand out."""
        return value in self.s.special_gems

    def gain_gem(self, p: int, value: int) -> None:
        if self.special_gem_left(value):
            self.s.special_gems.remove(value)
            pl = self.s.players[p]
            if GemGained in self.keeps:
                self.note(GemGained(self.s.age, self.s.turn, player=p, cause=self.cause(), old=pl.gem, new=value))
            pl.covered_gems.append(pl.gem)
            pl.gem = value
