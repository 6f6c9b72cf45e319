"""Compile merged rules layers into the source of one Python module: the handlers and the typed
rule set (`nidavellir.interface.rules.RuleSet`) a runtime loads."""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from nidavellir.errors import suggest
from nidavellir.interface.events import EVENTS, RUNTIME_PARAMS, EventSpec, window_spec
from nidavellir.interface.numbers import key_int
from nidavellir.interface.rules import (
    BasicCoin,
    CardDef,
    CardText,
    ClassDef,
    DeckEntry,
    Interpretation,
    LoopWarning,
    RuleSet,
    SpecialCoin,
    SpecialGem,
    Tavern,
)
from nidavellir.interface.rules import Layer as LayerDef

from . import card_facts, ir
from .box_cards import card_hint
from .check import Names, Problem, check_effect, check_formula
from .cycles import Site, check_cycles
from .diagnostics import Diagnostic, Diagnostics, Location
from .dsl import DslSyntaxError, parse_effect, parse_expr
from .emit import CardEmitter, Ref, class_formula, escaped, literal, module, slug
from .flow_order import check_flow_order, scoring_windows
from .flowdata import FLOW_PARTS, FlowData
from .layers import Layer, Merged, Origin, load_layer, merge
from .names import CLASS_RESERVED, reserved_words, what_it_is
from .reads import formula_reads, score_reads
from .places import CardFacts, Places
from .sources import COMPILER_VERSION, grammar_text
from .structure import check_structure, players
from .texts import check_texts, english_keys
from .util import from_data
from .value_checks import Item, check_values
from .values import Values

ENTERS = {"own column": ("own", None), "command zone": ("command", None),
          "chosen column": ("chosen", None), "discard": ("discard", None)}

# A rule set with more cards than this is refused: the three boxes hold about 130; compiling and
# setting up a game cost time in proportion (10,000 cards take some 15 s to check).
MAX_CARDS = 1000

GAME_KEYS = ("players", "cards_per_tavern", "taverns", "ages", "classes", "coins", "gems", "flow", "kinds")


@dataclass
class Compiled:
    source: str               # the module's Python source
    content_hash: str         # hash of the compiler, grammar and every rules source
    effects: dict[str, list[tuple[str, ir.Effect]]]  # card id -> (text, IR) for the docs
    merged: Merged
    ruleset: RuleSet          # the typed rule set the module builds (handlers as `Ref`s to its functions)
    write: Callable[[RuleSet], str]  # the module's source for a rule set of these cards
    warnings: list[Diagnostic] = field(default_factory=list)
    card_order: tuple[str, ...] = ()  # the card ids in the order the rules data lists them (the docs')

    def cards(self) -> dict[str, CardDef]:
        """The rule set's cards in the order the rules data lists them."""
        return {cid: self.ruleset.cards[cid] for cid in self.card_order}

    def with_texts(self, texts: Mapping[str, CardText]) -> Compiled:
        """The same rules with each card's English text (`CardDef.text`) in its table and module."""
        cards = {cid: replace(card, text=texts.get(cid)) for cid, card in self.ruleset.cards.items()}
        ruleset = replace(self.ruleset, cards=cards)
        return replace(self, ruleset=ruleset, source=self.write(ruleset))


def content_hash(layers: list[Layer]) -> str:
    """A hash of the compiler, the grammar and the loaded data of every layer file."""
    h = hashlib.sha256(f"nidavellir-compiler {COMPILER_VERSION}\n".encode())
    h.update(grammar_text().encode())
    for layer in layers:
        for f in layer.files:
            h.update(f"\0{layer.id}\0{f.path}\0{f.data!r}".encode())
    return h.hexdigest()


def load_layers(specs: list[tuple[Path, str, bool]], diags: Diagnostics) -> list[Layer]:
    layers = []
    for path, shown, is_variant in specs:
        layer = load_layer(path, shown, diags, is_variant)
        if layer is not None:
            layers.append(layer)
    return layers


def compile_layers(layers: list[Layer], diags: Diagnostics | None = None, chash: str | None = None) -> Compiled:
    """Merge, check and compile; raise RulesError with every problem found (and those in `diags`).

    `chash` names the sources (sources.source_hash); without it, a hash of the loaded data."""
    diags = diags if diags is not None else Diagnostics()
    merged = merge(layers, diags)
    return _Compiler(merged, diags).run(chash or content_hash(layers))


def _int_keys(table: dict[str, Any]) -> dict[int, Any]:
    return {key_int(k): v for k, v in sorted(table.items(), key=lambda kv: key_int(kv[0]))}


class _Compiler:
    def __init__(self, merged: Merged, diags: Diagnostics):
        self.m = merged
        self.diags = diags
        self.effects: dict[str, list[tuple[str, ir.Effect]]] = {}  # card id -> (text, IR)
        self.blocks: dict[str, list[str]] = {}        # card id -> its handlers
        self.cards: dict[str, CardDef] = {}           # card id -> its table (with its handlers once emitted)
        self.class_blocks: list[list[str]] = []
        self.class_tables: list[ClassDef] = []
        self.used_events: set[str] = set()
        self.used_params: set[str] = set(RUNTIME_PARAMS)
        self.facts: dict[str, CardFacts] = {}                 # card id -> what the cycle checker reads
        self.loops: list[LoopWarning] = []                    # the loops of events `check` warns can repeat
        # card id -> the effects to emit (once the rule set is known)
        self.to_emit: dict[str, list[tuple[int, ir.Effect, str, str, Callable[[int], str]]]] = {}
        self.formulas: list[tuple[dict[str, Any], str, ir.Expr, str, str, Callable[[int], str]]] = []
        self.formula_origins: list[tuple[str, ir.Expr, Origin]] = []  # (its class)
        self.effect_origins: dict[tuple[str, int], Origin] = {}  # (card id, effect index) -> its DSL string

    def err(self, origin: Origin | None, message: str, hint: str | None = None) -> None:
        self.diags.error(origin.loc if origin else self._nowhere(), message, hint)

    def err_key(self, origin: Origin | None, message: str, hint: str | None = None) -> None:
        """An error about a mapping key itself (a name defined as a key), located at the key."""
        where = origin.loaded.locate_key(origin.path) if origin else self._nowhere()
        self.diags.error(where, message, hint)

    def _nowhere(self) -> Location:
        return Location(self.m.sources[0].path if self.m.sources else "<rules>", 1, 1)

    def run(self, chash: str) -> Compiled:
        m = self.m
        game = m.game
        missing = [key for key in GAME_KEYS if key not in game]
        for key in missing:
            self.err(m.game_origin.get(("game",)) or self._first_origin(), f"the rules define no `game.{key}`")
        if missing:  # the checks below need the whole game
            self.diags.raise_if_any()
        check_structure(m, self.diags)
        if len(m.cards) > MAX_CARDS:
            first = list(m.cards)[MAX_CARDS]
            self.err(m.card_origin[first].get("@"), f"too many cards: the rules define {len(m.cards)}, more than "
                     f"the {MAX_CARDS} a rule set may have (the first beyond is `{first}`)",
                     "a variant changes the cards it names; it need not list the others")
            self.diags.raise_if_any()
        self.flow = FlowData(m, self.diags, self.err)
        names = self.names()
        self.cards = {cid: self.card(cid, card, names) for cid, card in m.cards.items()}
        self.classes(names)
        decks = self.decks()
        self.flow_check(names)
        params = self.params()
        self.flow.check(set(params))
        check_flow_order(m, self.diags, self.modified_params())
        self.unused(params)
        places = Places(self.facts, game, m.decks, m.zone_decks)
        values = Values(self.facts, places, params, game)
        check_values(values, self.value_items(), self.diags)
        self.loops = check_cycles(self.facts, places, values, self.diags, self.locate_site, self.effect_location)
        check_texts(m, self.diags, english_keys)
        self.diags.raise_if_any()
        self.emit(values)
        warnings = list(self.diags.warnings)
        ruleset = self.ruleset(chash, params, decks, warnings)
        return Compiled(self.source(ruleset), chash, self.effects, m, ruleset, self.source, warnings,
                        tuple(self.cards))

    def _first_origin(self) -> Origin | None:
        return Origin(self.m.sources[0], ()) if self.m.sources else None

    # -- names ----------------------------------------------------------------------------
    def names(self) -> Names:
        g = self.m.game
        go = self.m.game_origin
        reserved = reserved_words()
        events: dict[str, EventSpec] = {}
        for name in g.get("events", {}):
            if name in EVENTS:
                events[name] = EVENTS[name]
            else:
                self.err_key(go.get(("events", name)), f"`{name}` is not an event the runtime fires",
                         suggest(name, EVENTS) or "events the runtime fires: " + ", ".join(EVENTS))
        for part in FLOW_PARTS:
            for step in g.get("flow", {}).get(part, []):
                window = step.get("window")
                if window is None:
                    continue
                where = go.get(("flow", part, step["id"], "window"))
                if window in EVENTS:
                    self.err(where, f"a flow window cannot be named `{window}`: that is an event the runtime fires",
                             "a name means one thing; give the window another name")
                else:
                    events[window] = window_spec(window)
        params = set(g.get("params", {})) | set(RUNTIME_PARAMS)
        for card in self.m.cards.values():
            params |= set(card.get("params", {}))
        classes = {c["id"] for c in g["classes"]}
        # A name means one thing: no id of the rules data is a word of the DSL.
        self._refuse_reserved("class", classes, lambda c: go.get(("classes", c, "id")), reserved | CLASS_RESERVED)
        self._refuse_reserved("card", set(self.m.cards), lambda c: self.m.card_origin[c].get("id"), reserved)
        self._refuse_reserved("event", set(g.get("events", {})), lambda e: go.get(("events", e)), reserved)
        self._refuse_reserved("zone", {z["id"] for z in g.get("zones", [])}, lambda z: go.get(("zones", z, "id")),
                              reserved)
        self._refuse_reserved("param", set(g.get("params", {})), lambda q: go.get(("params", q)), reserved, True)
        for cid, card in self.m.cards.items():
            self._refuse_reserved("param", set(card.get("params", {})), _at_in(self.m.card_origin[cid].get("params")),
                                  reserved, True)
        return Names(
            classes=classes,
            events=events,
            params=params,
            coins={c["id"] for c in g["coins"].get("special", [])},
            gems={s["value"] for s in g["gems"].get("special", [])},
            cards=set(self.m.cards),
            ages=set(g["ages"]),
            kinds=set(g["kinds"]),
            undeclared=set(EVENTS) - set(events),
            zones={z["id"]: z.get("explored", True) for z in g.get("zones", []) if not z.get("per_age")},
            decks={z for z in self.m.zone_decks if z in self.flow.zones and not self.flow.zones[z].get("per_age")},
        )

    def _refuse_reserved(self, what: str, ids: set[str], origin: Callable[[str], Origin | None],
                         reserved: frozenset[str], key: bool = False) -> None:
        for ident in sorted(ids & reserved):
            report = self.err_key if key else self.err
            report(origin(ident), f"a {what} cannot be called `{ident}`: in the effect DSL `{ident}` is "
                                  f"{what_it_is(ident)}", "a name means one thing; choose another id")

    # -- cards ------------------------------------------------------------------------
    def card(self, cid: str, card: dict[str, Any], names: Names) -> CardDef:
        """The card's table without its handlers (they are emitted once the rule set is known)."""
        origin = self.m.card_origin[cid]

        def at(key: str) -> Origin:
            return origin.get(key) or origin["@"]

        kinds = self.m.game["kinds"]
        kind = card.get("kind")
        if kind is None:
            self.err(origin["@"], f"card `{cid}` has no `kind`", "kinds: " + ", ".join(kinds))
        elif kind not in kinds:
            self.err(at("kind"), f"unknown card kind `{kind}`", suggest(kind, kinds))
        cls = card.get("class", "neutral")
        if cls != "neutral" and cls not in names.classes:
            self.err(at("class"), f"unknown class `{cls}`", suggest(cls, names.classes | {"neutral"}))
        raw_ranks = card.get("ranks", [])
        column_ranks: dict[str, tuple[int, ...]] = {}
        if isinstance(raw_ranks, dict):  # ranks by column: a card that may stand in those columns only
            for column, col_ranks in raw_ranks.items():
                if column not in names.classes:
                    self.err(at("ranks").at(column), f"unknown column `{column}`", suggest(column, names.classes))
                column_ranks[column] = tuple(col_ranks)
            raw_ranks = []
        ranks = [0] * raw_ranks if isinstance(raw_ranks, int) else list(raw_ranks)
        enters: tuple[str, str | None] = ENTERS.get(kinds.get(kind, {}).get("enters", "own column"), ("own", None))
        among: tuple[str, ...] = ()
        to_emit: list[tuple[int, ir.Effect, str, str, Callable[[int], str]]] = []
        compiled_effects = []
        base = from_data(CardDef, card, ("points", "copies", "track", "params"), id=cid,
                         name=card.get("name") or _default_name(cid), kind=kind or "", cls=cls, ranks=tuple(ranks),
                         column_ranks=column_ranks, source=str(origin["@"].loc),
                         layers=tuple(self.m.card_layers.get(cid, [])))
        facts = CardFacts(cid, base.kind, cls, base.copies, "")
        for i, text in enumerate(card.get("effects", [])):
            eff_origin = at("effects").at(i) if "effects" in origin else origin["@"]
            effect = self.parse(text, eff_origin)
            if effect is None:
                self.note_words(text)
                continue
            problems = check_effect(effect, names)
            self.report(problems, eff_origin)
            if any(not prob.warning for prob in problems):
                self.note_uses(effect)  # (what it would have read is not unread: no knock-on warning)
                continue
            compiled_effects.append((text, effect))
            facts.effects.append((i, effect))
            self.effect_origins[(cid, i)] = eff_origin
            self.note_uses(effect)
            if isinstance(effect, ir.Enters):
                place = effect.place
                mode = "chosen" if place.mode == "among" else place.mode
                enters, among = (mode, place.column), place.among
            to_emit.append((i, effect, str(eff_origin.loc), text, _locator(eff_origin)))
        self.effects[cid] = compiled_effects
        facts.enters, facts.enters_column, facts.among = enters[0], enters[1], among
        facts.column_ranks = tuple(column_ranks)
        facts.ranks, facts.by_column, facts.points = base.ranks, column_ranks, base.points
        facts.track = base.track
        self.facts[cid] = facts
        effects = [effect for _, effect in compiled_effects]
        self.to_emit[cid] = to_emit
        scores = [effect.expr for effect in effects if isinstance(effect, ir.Score)]  # (the last one counts)
        return replace(base, enters=enters[0], enters_column=enters[1], enters_among=among,
                       score_reads=score_reads(scores[-1], names.classes) if scores else None,
                       placings=card_facts.placings(effects), captures=card_facts.captures(effects),
                       marks=card_facts.marks(effects), spends=card_facts.spends(effects))

    def emit(self, values: Values) -> None:
        """Write each card's handlers and table, and each class formula, once the whole rule set is
        known: an operation whose value can pass MAX_VALUE is guarded (compiler/values.py)."""
        for cid, effects in self.to_emit.items():
            emitter = CardEmitter(cid, values.guarded)
            for index, effect, loc, text, locate in effects:
                emitter.effect(index, effect, loc, text, locate)
            self.cards[cid] = replace(self.cards[cid], **emitter.table())
            self.blocks[cid] = emitter.w.lines
        for cls, name, expr, loc, text, locate in self.formulas:
            _, lines = class_formula(cls["id"], expr, loc, text, locate, _column_guard(values, cls["id"]))
            self.class_blocks.append(lines)
            reads = formula_reads(cls["id"], expr, [c["id"] for c in self.m.game["classes"]])
            self.class_tables.append(ClassDef(cls["id"], cls.get("name", cls["id"]), text, Ref(name), loc, reads))

    def value_items(self) -> list[Item]:
        """Every effect and class formula that compiled, for the checks of values."""
        items = []
        for cid, facts in self.facts.items():
            for index, effect in facts.effects:
                items.append(Item(cid, effect, self._in_string(self.effect_origins[(cid, index)])))
        items.extend(Item(None, expr, self._in_string(origin), cls)
                     for cls, expr, origin in self.formula_origins)
        return items

    @staticmethod
    def _in_string(origin: Origin) -> Callable[[int], Location]:
        return lambda pos: origin.loaded.locate_in_string(origin.path, pos)

    def note_uses(self, tree: ir.Node) -> None:
        """Remember which events and params an effect or formula reads (for the unused-name warnings)."""
        for node in ir.walk(tree):
            if isinstance(node, ir.CaptureNext):
                self.used_events.add("taken")
            if isinstance(node, (ir.Triggered, ir.Replacement)):
                self.used_events.add(node.event)
            elif isinstance(node, ir.Modifier):
                self.used_params.add(node.param)
            elif isinstance(node, ir.Call) and node.name == "param" and node.args \
                    and isinstance(node.args[0], ir.Var):
                self.used_params.add(node.args[0].name)

    def note_words(self, text: str) -> None:
        """An effect or formula that does not parse: every name its text holds counts as read, so that
        its error brings no false "no effect reads …" warning."""
        words = set(re.findall(r"[a-z_][a-z0-9_]*", text))
        self.used_events |= words
        self.used_params |= words

    def effect_location(self, cid: str, index: int) -> str:
        """Where a card's effect is written (`file:line:col`, as its handlers' markers say)."""
        return str(self.effect_origins[(cid, index)].loc)

    def locate_site(self, site: Site) -> Location:
        """Where an offset of a card's effect is written."""
        origin = self.effect_origins[(site.card, site.index)]
        return origin.loaded.locate_in_string(origin.path, site.pos)

    def report(self, problems: list[Problem], origin: Origin) -> None:
        for prob in problems:
            say = self.diags.warning if prob.warning else self.diags.error
            say(origin.loaded.locate_in_string(origin.path, prob.pos), prob.message, prob.hint)

    def parse(self, text: str, origin: Origin) -> ir.Effect | None:
        try:
            return parse_effect(text)
        except DslSyntaxError as err:
            self.diags.error(origin.loaded.locate_in_string(origin.path, err.offset), err.message, err.hint)
            return None

    def classes(self, names: Names) -> None:
        """Parse and check each class's formula; those without errors are emitted (`self.formulas`)."""
        for c in self.m.game["classes"]:
            origin = self.m.game_origin.get(("classes", c["id"], "score")) or self.m.game_origin.get(("classes",))
            text = c.get("score")
            if not text:
                self.err(origin, f"class `{c['id']}` has no `score` formula")
                continue
            assert origin is not None
            try:
                expr = parse_expr(text)
            except DslSyntaxError as err:
                self.diags.error(origin.loaded.locate_in_string(origin.path, err.offset), err.message, err.hint)
                self.note_words(text)
                continue
            problems = check_formula(expr, names)
            self.report(problems, origin)
            self.note_uses(expr)
            if all(prob.warning for prob in problems):
                self.formulas.append((c, f"_class_{slug(c['id'])}", expr, str(origin.loc), text, _locator(origin)))
                self.formula_origins.append((c["id"], expr, origin))

    def decks(self) -> dict[int, tuple[DeckEntry, ...]]:
        decks = {}
        for age in sorted(set(self.m.decks) - set(self.m.game["ages"])):
            origin, ages = self.m.deck_origin[(age, None)], self.m.game_origin.get(("ages",))
            hint = "ages: " + ", ".join(map(str, self.m.game["ages"]))
            if ages is not None and self._order(origin) < self._order(ages):  # a later layer dropped the age
                hint += f"; the layer that drops Age {age} removes its deck too: `decks: [{{age: {age}, remove: true}}]`"
            self.err(origin, f"there is no age {age}", hint)
        for age in self.m.game["ages"]:
            if age not in self.m.decks:
                self.err(self.m.game_origin.get(("ages",)), f"no deck for age {age}")
                continue
            entries = []
            for e in self.m.decks[age]:
                key = (e["card"], e.get("min_players", 0))
                if e["card"] not in self.m.cards:
                    self.err(self.m.deck_origin[(age, key)].at("card"),
                             f"unknown card `{e['card']}` in the age {age} deck", card_hint(e["card"], self.m.cards))
                entries.append(from_data(DeckEntry, e, ("card", "count", "min_players")))
            decks[age] = tuple(entries)
        return decks

    def _order(self, origin: Origin) -> int:
        """Where the file of `origin` comes in the layers (later layers later)."""
        return next((i for i, f in enumerate(self.m.sources) if f is origin.loaded), -1)

    def flow_check(self, names: Names) -> None:
        flow = self.m.game["flow"]
        go = self.m.game_origin
        windows = set()
        for part in FLOW_PARTS:
            for step in flow.get(part, []):
                if "window" in step:
                    windows.add(step["window"])
                for age in step.get("ages", []):
                    if age not in names.ages:
                        self.err(go.get(("flow", part, step["id"], "ages")), f"there is no age {age}",
                                 "ages: " + ", ".join(map(str, sorted(names.ages))))
        for i, window in enumerate(flow.get("before_scoring", [])):
            if window not in windows:
                self.err(go.get(("flow", "before_scoring")), f"`before_scoring` names `{window}`, "
                                                               "which is no window of the flow", suggest(window, windows))

    def modified_params(self) -> set[str]:
        """The params some card's effect modifies."""
        return {node.param for effects in self.effects.values() for _, effect in effects
                for node in ir.walk(effect) if isinstance(node, ir.Modifier)}

    def params(self) -> dict[str, int]:
        """Every param with its value: the runtime's defaults, the game's, then the cards'."""
        params = {name: default for name, (default, _) in RUNTIME_PARAMS.items()}
        params.update(self.m.game.get("params", {}))
        owner: dict[str, str] = {}
        for cid, card in self.cards.items():
            for name, value in card.params.items():
                if name in owner and params[name] != value:
                    origin = self.m.card_origin[cid].get("params")
                    self.err(origin.at(name) if origin else None,
                             f"param `{name}` is {value} here but {params[name]} on card `{owner[name]}`",
                             "a param has one value; modifiers change it in play")
                owner.setdefault(name, cid)
                params[name] = value
        return params

    def unused(self, params: dict[str, int]) -> None:
        """Warn of listed events and params no effect reads. A card a later layer removed still
        counts as a reader (a variant without Thrud does not make `covered` a mistake)."""
        for card in self.m.removed.values():
            for text in card.get("effects", []):
                try:
                    self.note_uses(parse_effect(text))
                except DslSyntaxError:
                    self.note_words(text)
        go = self.m.game_origin
        for name in self.m.game.get("events", {}):
            if name in EVENTS and name not in self.used_events:
                listed = go[("events", name)]
                self.diags.warning(listed.loaded.locate_key(listed.path), f"no effect reacts to the event `{name}`",
                                   "remove it from `game.events`, or give a card an effect on it")
        for name in sorted(set(params) - self.used_params):
            where = go.get(("params", name))
            if where is None:
                cid = next(c for c, card in self.m.cards.items() if name in card.get("params", {}))
                origin = self.m.card_origin[cid].get("params")
                where = origin.at(name) if origin else self.m.card_origin[cid]["@"]
            self.diags.warning(where.loaded.locate_key(where.path), f"no effect reads the param `{name}`",
                               "read it with `param(...)`, change it with `modify`, or remove it")

    # -- the rule set and its module -------------------------------------------------------------
    def ruleset(self, chash: str, params: dict[str, int], decks: dict[int, tuple[DeckEntry, ...]],
                warnings: list[Diagnostic]) -> RuleSet:
        """The typed rule set the module builds (its handlers as `Ref`s to the module's functions)."""
        m, g = self.m, self.m.game
        coins = g["coins"]
        flow_origin = m.game_origin.get(("flow", "turn"))
        kinds = list(g["kinds"].items())  # in the rules data's order (the reference lists them so)
        return RuleSet(
            content_hash=chash,
            layers=tuple(LayerDef(lay.id, lay.name, lay.description, lay.source, lay.is_variant) for lay in m.layers),
            players=players(m),
            cards_per_tavern=_int_keys(g["cards_per_tavern"]),
            taverns=tuple(Tavern(t["id"], t.get("name", t["id"]), self.flow.tavern_draws(t)) for t in g["taverns"]),
            ages=tuple(g["ages"]),
            classes=tuple(self.class_tables),
            basic_coins=tuple(from_data(BasicCoin, c, ("value", "trading")) for c in coins.get("basic", [])),
            special_coins=tuple(from_data(SpecialCoin, c, ("id", "value", "trading"), name=c.get("name", c["id"]))
                                for c in coins.get("special", [])),
            treasure=_int_keys(coins.get("treasure", {})),
            treasure_removed={n: _int_keys(r) for n, r in _int_keys(coins.get("treasure_removed", {})).items()},
            gems={n: tuple(v) for n, v in _int_keys(g["gems"].get("by_players", {})).items()},
            special_gems=tuple(from_data(SpecialGem, s, ("value", "points", "tradable"))
                               for s in g["gems"].get("special", [])),
            params=dict(sorted(params.items())),
            events=dict(g.get("events", {})),
            turn=self.flow.steps("turn"),
            age_end=self.flow.steps("age_end"),
            before_scoring=scoring_windows(m),
            cards={cid: self.cards[cid] for cid in sorted(self.cards)},
            decks=dict(sorted(decks.items())),
            interpretations=tuple(from_data(Interpretation, i, ("id", "text", "source", "layer"))
                                  for i in m.interpretations.values()),
            warnings=tuple(d.format() for d in warnings),
            flow_source=str(flow_origin.loc) if flow_origin else "",
            kinds={k: v.get("enters", "own column") for k, v in kinds},
            dwarf_kinds=tuple(sorted(k for k, v in kinds if v.get("dwarf_card", k == "dwarf"))),
            score_parts={k: v["breakdown"] for k, v in kinds if "breakdown" in v},
            discards_to={k: v["discards_to"] for k, v in kinds if "discards_to" in v},
            zones=self.flow.zone_tables(),
            zone_decks=self.flow.zone_decks(),
            tavern=self.flow.steps("tavern"),
            pick_sources=self.flow.sources(),
            loops=tuple(self.loops),
        )

    def source(self, rules: RuleSet) -> str:
        """The module: each class formula's and card's functions, each card's table, then RULES."""
        header = [
            "Compiled rules: generated by `nidavellir build` from the rules data. Do not edit.",
            "",
            "Layers: " + ", ".join(escaped(lay.id) for lay in rules.layers),
            "Sources:",
            *[f"  {escaped(f.path)}" for f in self.m.sources],
        ]
        names = {id(rules.content_hash): "CONTENT_HASH"}
        blocks = list(self.class_blocks)
        for cid, lines in self.blocks.items():
            table = f"_CARD_{slug(cid)}"
            title = f"# -- card {cid} "  # an id: lowercase letters, digits, `-` and `:`
            blocks.append([title + "-" * max(4, 100 - len(title)), "", *lines,
                           f"{table} = {literal(rules.cards[cid], names=names, multiline=True)}", ""])
            names[id(rules.cards[cid])] = table
        return module(header, rules.content_hash, blocks, literal(rules, names=names, multiline=True))


def _column_guard(values: Values, column: str) -> Callable[[ir.Expr, str | None], bool]:
    """The operations of a class formula play must bound: its `ranks`, `points` and `zero_ranks` are
    its column's."""
    return lambda e, _card: values.guarded(e, None, column)


def _at_in(origin: Origin | None) -> Callable[[str], Origin | None]:
    """Where a key of the mapping at `origin` is written."""
    def at(key: str) -> Origin | None:
        return origin.at(key) if origin else None
    return at


def _locator(origin: Origin) -> Callable[[int], str]:
    """`file:line:col` of an offset inside the DSL string at `origin`."""
    def locate(offset: int) -> str:
        return str(origin.loaded.locate_in_string(origin.path, offset))
    return locate


def _default_name(cid: str) -> str:
    base, _, points = cid.partition(":")
    words = base.replace("-", " ").capitalize()
    return f"{words} {points}" if points else words
