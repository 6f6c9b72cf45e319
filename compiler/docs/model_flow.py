"""The reference's turn and end of age: the flow steps, how long each age lasts, where a cleared
zone's cards go, where a bidder may take a card."""
from __future__ import annotations

from typing import Any

from nidavellir.interface.mechanisms import step_spec
from nidavellir.interface.rules import Order
from nidavellir.interface.rules import Step as FlowStep

from .model_base import ModelBase, _capital
from .views import AgeSteps, AgeTurns, Elsewhere, PickSourceView, Step, StepFacts


class FlowModel(ModelBase):
    """The turn, tavern and end-of-age steps."""

    def steps(self, part: str, marks_by_step: dict[str, list[str]]) -> list[Step]:
        """The steps of a part of the flow the reference lists (a window no card acts at is left out)."""
        built: tuple[FlowStep, ...] = getattr(self.rs, part)
        return [self.step_view(step, marks_by_step.get(step.id, [])) for step in built if self.shown_step(step)]

    def step_view(self, step: FlowStep, changed: list[str]) -> Step:
        """A flow step with the names its catalog text may use: zones, count, kind, player order."""
        window = step.window
        spec = step_spec(step.do)
        ages = list(step.ages or ())
        return {
            "id": step.id,
            "do": step.do,
            "message": spec.message if spec else "ref.step.window",
            "window": window,
            "window_name": _capital(self.cat.t(f"ref.window.{window}", default=window)) if window else "",
            "ages": ages,
            "ages_text": self.cx.join([str(a) for a in ages]),
            "reacting": self.reacting(window) if window else [],
            "changed": changed,
            "zone": self.zone_ref(step.zone),
            "deck": self.zone_ref(step.deck),
            "into": self.zone_ref(step.into),
            "count": step.count,
            "kind": self.kind_name(step.kind) if step.kind is not None else "",
            "order": self.order_text(step.order, step.do),
            "draws": self.draws() if spec and spec.draws else [],
            "age_turns": self.age_turns() if spec and spec.draws else [],
            "elsewhere": self.elsewhere(step),
        }

    def order_text(self, order: Order, do: str | None) -> str:
        """A step's player order: most cards of a kind first (its leader may go last), or by gem."""
        if order.by == "most":
            text = self.t("ref.order.most", kind=self.kind_name(order.kind or ""))
            return self.t("ref.order.leader", order=text) if order.leader_chooses else text
        if order.by == "bid":
            return self.t("ref.order.bid")
        spec = step_spec(do)
        return self.t("ref.order.gem") if spec and spec.ordered else ""

    def age_turns(self) -> list[AgeTurns]:
        """How many turns each age with tavern draws lasts, per player count: an age ends with the turn
        in which its deck runs out, and a tavern filled from another zone takes nothing from it."""
        out: list[AgeTurns] = []
        taverns = self.rs.taverns
        for age in self.rs.ages:
            draws = [(i, d) for i, t in enumerate(taverns) for d in t.draws if not d.ages or age in d.ages]
            if not draws:
                continue
            counts: dict[int, Any] = {}
            for n in self.players:
                per, left, turn = self.rs.cards_per_tavern.get(n, 0), self.deck_size(age, n), 0
                while left > 0 and per > 0:
                    turn += 1
                    others = {i for i, d in draws if turn in d.turns}
                    left -= per * (len(taverns) - len(others))
                counts[n] = turn
            out.append({"age": age, "turns": self.per_players_text(counts)})
        return out

    def elsewhere(self, step: FlowStep) -> list[Elsewhere]:
        """For a step that clears a zone into the discard pile: the kinds of its cards whose discards
        go to another zone (`discards_to`), by zone."""
        if step.do != "clear" or step.into != "discard" or not step.zone:
            return []
        by_zone: dict[str, list[str]] = {}
        for kind in self.kinds_dealt_to(step.zone):
            to = self.rs.discards_to.get(kind)
            if to and to != "discard":
                by_zone.setdefault(to, []).append(self.kind_name(kind))
        return [{"kinds": self.cx.join(kinds), "zone": self.zone_ref(z)} for z, kinds in by_zone.items()]

    def kinds_dealt_to(self, zid: str) -> list[str]:
        """The kinds of the cards a zone can hold while play goes on: a tavern's come from the age
        decks and the zones taverns draw from; another zone's from its decks and those refilling it."""
        cards: set[str] = set()
        if zid == "tavern":
            cards |= {e.card for age in self.rs.ages for e in self.decks(age)}
            sources = {d.zone for t in self.rs.taverns for d in t.draws}
        else:
            sources = {zid} | {s.deck for s, _ in self.step_links() if s.zone == zid and s.deck is not None}
        cards |= {e.card for z, _, entries in self.zone_decks() if z in sources for e in entries}
        return [k for k in self.rs.kinds if any(self.cards[c].kind == k for c in cards)]

    def pick_sources(self) -> list[PickSourceView]:
        """Where a bidder may take their card while a tavern resolves, and who may."""
        out: list[PickSourceView] = []
        for src in self.rs.pick_sources:
            out.append({"id": src.id, "zone": self.zone_ref(src.zone), "who": src.who,
                        "also": self.cards_modifying({src.also}) if src.also else [], "discard": src.discard,
                        "discard_players": self.cx.join([str(n) for n in src.discard_players])})
        return out

    def step_facts(self) -> StepFacts:
        """Numbers the flow steps' catalog texts may name."""
        return {
            "per_tavern": self.per_players_text({n: self.rs.cards_per_tavern.get(n, 0) for n in self.players}),
            "taverns": self.taverns(),
        }

    def ages(self, steps: list[Step]) -> list[AgeSteps]:
        ages = self.rs.ages
        return [{"age": age, "last": age == ages[-1],
                 "steps": [s for s in steps if not s["ages"] or age in s["ages"]]} for age in ages]
