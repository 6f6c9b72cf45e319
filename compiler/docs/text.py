"""Rule text from the effect IR, in the language of a message catalog.

Every card's text in a reference is produced here from what the engine plays: a construct the
catalog cannot phrase is an error (MissingMessage), never a placeholder.

Numbers agree with the nouns they count: the catalog gives each counted noun's forms per plural
category (`plural.<noun>.<category>`: English `one`/`other`, Belarusian `one`/`few`/`many`, the
CLDR cardinal rules), `Catalog.noun` picks the form for a number, and a count only known during
play is phrased so that no noun follows it (`<key>.computed`: "as many cards as …").
"""
from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nidavellir.interface.mechanisms import ACTION_SPECS, COIN, FROM_ZONE, GEM, HERO_CLASS
from nidavellir.interface.rules import CardDef, RuleSet

from .. import ir
from ..messages import catalog_messages as _messages
from ..names import FUNCTIONS, VARIABLES
from ..util import assert_never

LANGS = ("en", "be")


class MissingMessage(KeyError):
    """A message key no catalog holds (a gap in compiler/docs/messages/en)."""


def _plural_en(n: int) -> str:
    return "one" if n == 1 else "other"


def _plural_be(n: int) -> str:
    """CLDR (Belarusian, integers): one: n%10=1 and n%100≠11; few: n%10=2..4 and n%100∉12..14;
    many: every other integer (0, 5–20, 25, 111, …)."""
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


# The plural category of a whole number, per language (CLDR cardinal rules for integers).
PLURAL_RULES: dict[str, Callable[[int], str]] = {"en": _plural_en, "be": _plural_be}
# The categories each language's catalog gives a counted noun (`plural.<noun>.<category>`).
PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {"en": ("one", "other"), "be": ("one", "few", "many")}
# How a noun after a list of numbers ("7 and 0 points") agrees: English counts the list (plural),
# Belarusian agrees with the nearest number, the last.
_LIST_CATEGORY: dict[str, str] = {"en": "other"}
# A number large enough to take the form of "many of them" in every language ("the number of cards").
_MANY = 5


def plural_category(lang: str, numbers: int | Sequence[int]) -> str:
    """The plural category a noun takes after `numbers` (one number, or a list of them)."""
    values = [numbers] if isinstance(numbers, int) else list(numbers)
    if not values:
        raise ValueError("no number to agree with")
    if len(values) > 1 and lang in _LIST_CATEGORY:
        return _LIST_CATEGORY[lang]
    return PLURAL_RULES[lang](abs(values[-1]))


_FORMATTER = string.Formatter()
_EN_AN_EXCEPTIONS = ("one", "once", "uni", "use", "usu", "uti", "eu", "ewe")  # a vowel letter, a consonant sound
_EN_SILENT_H = ("hour", "honest", "honour", "heir")
_BE_VOWELS = set("аеёіоуыэюяАЕЁІОУЫЭЮЯ")


def _vowel_sound(text: str) -> bool:
    """Whether English text begins with a vowel sound ("an Explorer", "an 8", "a unique")."""
    word = text.lstrip("“\"'(«").lower()
    if not word:
        return False
    if word[0].isdigit():
        return word.startswith("8") or re.match(r"1[18](?!\d)", word) is not None
    first = unicodedata.normalize("NFD", word[0])[0]
    if word.startswith(_EN_SILENT_H):
        return True
    return first in "aeiou" and not word.startswith(_EN_AN_EXCEPTIONS)


def _join_en(left: str, right: str) -> tuple[str, str]:
    """English: the article before a value is "an" where the value begins with a vowel sound."""
    m = re.search(r"(?:^|(?<=\s))([Aa])n? $", left)
    if m and re.match(r"[“\"'(«]*\w", right):  # a word or number, not markup
        article = m.group(1) + ("n" if _vowel_sound(right) else "")
        left = left[:m.start()] + article + " "
    return left, right


def _join_be(left: str, right: str) -> tuple[str, str]:
    """Belarusian: у is ў after a vowel ("трапляе ў", "карта гнома ўвойдзе") where a value meets
    the message's words."""
    if len(left) >= 2 and left[-1] == " " and left[-2] in _BE_VOWELS and right[:1] == "у":
        right = "ў" + right[1:]
    elif left[-1:] in _BE_VOWELS and right[:2] == " у":
        right = " ў" + right[2:]
    return left, right


# Sound rules applied where a formatted value meets the words around it, per language.
_JOINS: dict[str, Callable[[str, str], tuple[str, str]]] = {"en": _join_en, "be": _join_be}


@dataclass
class Catalog:
    """Messages of one language, falling back to English; `missing` lists the keys that fell back."""
    lang: str
    messages: dict[str, str]
    fallback: dict[str, str]
    missing: set[str] = field(default_factory=set)

    @classmethod
    def load(cls, lang: str) -> Catalog:
        if lang not in LANGS:
            raise ValueError(f"unknown language `{lang}` (choose from: {', '.join(LANGS)})")
        english = _messages("en")
        return cls(lang, dict(_messages(lang)), dict(english))

    def has(self, key: str) -> bool:
        return key in self.messages or key in self.fallback

    def t(self, key: str, default: str | None = None, **kw: Any) -> str:
        """The text of `key`; without one in this language, the English text or else `default`
        (the rules data's own English wording), and outside English the key is listed in `missing`."""
        text = self.messages.get(key)
        if text is None:
            text = self.fallback.get(key, default)
            if text is None:
                raise MissingMessage(key)
            if self.lang != "en":
                self.missing.add(key)
        return self.format(text, **kw) if kw else text

    def format(self, message: str, /, **kw: Any) -> str:
        """`message` with its {placeholders} filled, and the language's sound rules applied where a
        value meets the message's words (English a/an, Belarusian у/ў)."""
        join = _JOINS.get(self.lang)
        pieces: list[str] = []
        for literal, name, spec, conversion in _FORMATTER.parse(message):
            pieces.append(literal)
            if name is None:
                continue
            value = _FORMATTER.get_field(name, (), kw)[0]
            pieces.append(_FORMATTER.format_field(_FORMATTER.convert_field(value, conversion), spec or ""))
        if join:
            for i in range(1, len(pieces)):
                if pieces[i - 1] and pieces[i]:
                    pieces[i - 1], pieces[i] = join(pieces[i - 1], pieces[i])
        return "".join(pieces)

    def plural(self, numbers: int | Sequence[int]) -> str:
        """The plural category of `numbers` in this language ("one", "few", "many", "other")."""
        return plural_category(self.lang, numbers)

    def noun(self, name: str, numbers: int | Sequence[int] | None = None) -> str:
        """The form of counted noun `name` (`plural.<name>.<category>`) after `numbers`; without
        numbers, the form for many of them ("the number of cards", "as many cards as …")."""
        counted = _MANY if numbers is None else numbers
        key = f"plural.{name}.{self.plural(counted)}"
        text = self.messages.get(key)
        if text is None:
            text = self.fallback.get(f"plural.{name}.{plural_category('en', counted)}")
            if text is None:
                raise MissingMessage(key)
            if self.lang != "en":
                self.missing.add(key)
        return text


@dataclass
class Context:
    """What phrasing needs beyond the IR: names of classes and cards, param defaults."""
    cat: Catalog
    classes: dict[str, str]          # class id -> rules-data name
    cards: dict[str, str]            # card id -> rules-data name
    params: dict[str, int]
    coins: dict[str, str] = field(default_factory=dict)  # special coin id -> rules-data name
    renamed: dict[str, str] = field(default_factory=dict)  # card id -> the variant layer that renamed it
    zones: dict[str, str] = field(default_factory=dict)    # zone id -> rules-data name
    access: dict[str, str] = field(default_factory=dict)   # param -> zone of the pick source it opens (`also`)
    changers: dict[str, list[tuple[str, ir.Modifier]]] = field(default_factory=dict)  # param -> (card, modifier)

    def changed(self, param: str) -> list[tuple[str, int | None]]:
        """(card id, the value the setting takes with that card alone or None if not a number) for
        each card that modifies a setting."""
        base = self.params.get(param, 0)
        out: list[tuple[str, int | None]] = []
        for cid, m in self.changers.get(param, []):
            value: int | None = None
            if isinstance(m.amount, ir.Num):
                n = m.amount.value
                value = base + n if m.op == "+" else base - n if m.op == "-" else n if m.op == "=" else None
            out.append((cid, value))
        return out

    def zone(self, zid: str) -> str:
        return self.zones.get(zid, zid)

    def zone_from(self, zid: str) -> str:
        """A zone as a place cards are taken from (`zone.<id>`, the rules-data name by default)."""
        return self.cat.t(f"zone.{zid}", default=self.zone(zid))

    def cls(self, cid: str | None) -> str:
        if cid is None:
            return self.cat.t("class.none")
        return self.cat.t(f"class.{cid}", default=self.classes.get(cid, cid))

    def card(self, cid: str) -> str:
        """A card's name; one a variant renamed is that layer's to translate."""
        layer = self.renamed.get(cid)
        key = f"layer.{layer}.card.{cid}" if layer else f"card.{cid}"
        return self.cat.t(key, default=self.cards.get(cid, cid))

    def join(self, items: list[str], key: str = "list.and") -> str:
        if len(items) < 2:
            return "".join(items)
        return self.cat.t(key, head=", ".join(items[:-1]), last=items[-1])


def context_of(rules: RuleSet, cat: Catalog) -> Context:
    """A Context from a compiled rule set."""
    return Context(cat, {c.id: c.name for c in rules.classes}, {cid: c.name for cid, c in rules.cards.items()},
                   dict(rules.params), {c.id: c.name for c in rules.special_coins},
                   zones={z.id: z.name for z in rules.zones},
                   access={s.also: s.zone for s in rules.pick_sources if s.also})


# -- expressions -------------------------------------------------------------------------------

_CMP = {">=": "cmp.ge", "<=": "cmp.le", ">": "cmp.gt", "<": "cmp.lt", "==": "cmp.eq", "!=": "cmp.ne"}
_ARITH = {"+": "op.add", "-": "op.sub", "*": "op.mul", "/": "op.div"}


def expr_text(node: ir.Expr, cx: Context) -> str:
    t = cx.cat.t
    match node:
        case ir.Num():
            return str(node.value)
        case ir.Var():
            spec = VARIABLES.get(node.name)
            return t(spec.message) if spec else cx.cls(node.name)  # else a class name
        case ir.Call():
            return _call_text(node, cx)
        case ir.BinOp():
            chained = isinstance(node.left, ir.BinOp) and node.op in _LEFT_CHAIN and \
                _LEFT_CHAIN.get(node.left.op) == _LEFT_CHAIN[node.op]
            left = expr_text(node.left, cx) if chained else _operand(node.left, cx)  # `a + b - c`, flat
            return t(_ARITH[node.op], left=left, right=_operand(node.right, cx))
        case ir.Compare():
            positive = _var_key(node.left, "positive", cx) if node.op == ">" and node.right == ir.Num(0) else None
            if positive:  # `captures > 0`: "this card has captured a card"
                return t(positive)
            return t(_CMP[node.op], left=expr_text(node.left, cx), right=expr_text(node.right, cx))
        case ir.Is():
            special = _var_key(node.subject, "none", cx) if node.name == "none" else None
            if special:
                return t(special)
            if isinstance(node.subject, ir.Var) and node.subject.name == "subject_kind":
                return t("is.kind", kind=t(f"kind.{node.name}", default=node.name))
            what = cx.cls(None if node.name == "none" else node.name)
            if isinstance(node.subject, ir.Var) and node.subject.name == "column":
                return t("is.column", cls=what)
            return t("cmp.eq", left=expr_text(node.subject, cx), right=what)
        case ir.Not():
            negated = _var_key(node.operand, "not", cx)
            return t(negated) if negated else t("bool.not", cond=expr_text(node.operand, cx))
        case ir.BoolOp():
            kinds = _kinds_of(node) if node.op == "or" else None
            if kinds:  # `subject_kind is dwarf or subject_kind is royal-offering`: one clause
                return t("is.kind", kind=cx.join([t(f"kind.{k}", default=k) for k in kinds], "list.or"))
            return t(f"bool.{node.op}", left=expr_text(node.left, cx), right=expr_text(node.right, cx))
        case ir.IfElse():
            return t("ifelse", then=expr_text(node.then, cx), cond=expr_text(node.cond, cx),
                     otherwise=expr_text(node.otherwise, cx))
        case ir.CountSet():
            return _set_text("count.set", node.cards, cx)
        case _:
            assert_never(node)


def _kinds_of(node: ir.Expr) -> list[str] | None:
    """The kinds of `subject_kind is A or subject_kind is B or …`, else None."""
    if isinstance(node, ir.Is) and isinstance(node.subject, ir.Var) and node.subject.name == "subject_kind":
        return [node.name]
    if isinstance(node, ir.BoolOp) and node.op == "or":
        left, right = _kinds_of(node.left), _kinds_of(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _var_key(node: ir.Expr, suffix: str, cx: Context) -> str | None:
    """`<variable's key>.<suffix>` where the catalog phrases that case of a variable (its negation
    `.not`, `is none` as `.none`, `> 0` as `.positive`), else None. A function of a variable
    (`subject_ranks(chosen_class)`) has the key `<function's key>.<variable>`."""
    if isinstance(node, ir.Var) and node.name in VARIABLES:
        base = VARIABLES[node.name].message
    elif isinstance(node, ir.Call) and node.args and isinstance(node.args[0], ir.Var) and node.args[0].name in VARIABLES:
        base = f"{FUNCTIONS[node.name].message}.{node.args[0].name}"
    else:
        return None
    key = f"{base}.{suffix}"
    return key if cx.cat.has(key) else None


_LEFT_CHAIN = {"+": "+", "-": "+", "*": "*"}  # operators read left to right without brackets


def _operand(node: ir.Expr, cx: Context) -> str:
    text = expr_text(node, cx)
    return f"({text})" if isinstance(node, (ir.BinOp, ir.IfElse)) else text


def _call_text(node: ir.Call, cx: Context) -> str:
    """A function call, by the registry's message key (`param(x)` reads as its value)."""
    t = cx.cat.t
    args = node.args
    message = FUNCTIONS[node.name].message
    if node.name == "param" and isinstance(args[0], ir.Var):
        name = args[0].name
        value = str(cx.params.get(name, name))
        changes = _changes_text(name, cx)
        # a setting no card changes reads as its value; else "2 (1 with Durathor)", or from 0
        # "(1 with Ratatosk, else 0)"
        if not changes:
            return value
        return t("call.param.changed_zero", changes=changes) if value == "0" else \
            t("call.param.changed", value=value, changes=changes)
    if node.name == "lookup":
        pairs = [t("lookup.pair", n=i, value=expr_text(v, cx)) for i, v in enumerate(args[1:])
                 if not (i == 0 and isinstance(v, ir.Num) and v.value == 0)]
        return t(message, index=expr_text(args[0], cx), pairs=", ".join(pairs))
    if node.name in ("max", "min"):
        return t(message, items=cx.join([expr_text(a, cx) for a in args]))
    if node.name == "cards" and isinstance(args[0], ir.Var):
        return t(message, kind=t(f"kind.{args[0].name}", default=args[0].name))
    if isinstance(args[0], ir.Var) and args[0].name in VARIABLES and cx.cat.has(f"{message}.{args[0].name}"):
        return t(f"{message}.{args[0].name}")  # a class given by a variable (`ranks(chosen_class)`)
    arg = expr_text(args[0], cx)
    return t(message, cls=arg, n=arg)


def _changes_text(param: str, cx: Context) -> str:
    """How cards change a setting ("1 with Durathor"; "" where none does)."""
    t = cx.cat.t
    return "; ".join(t("call.param.change", value=v, card=cx.card(c)) if v is not None
                     else t("call.param.change_any", card=cx.card(c)) for c, v in cx.changed(param))


@dataclass(frozen=True)
class Count:
    """A count as rule text shows it: its number where the docs know it (a literal, or a setting,
    at its value without the cards that change it), how it reads, and how cards change it."""
    value: int | None  # None: only known during play ("the number of your Warrior ranks")
    text: str
    changes: str = ""  # "6 with Garm"


def count_of(node: ir.Expr, cx: Context) -> Count:
    if isinstance(node, ir.Num):
        return Count(node.value, str(node.value))
    if isinstance(node, ir.Call) and node.name == "param" and isinstance(node.args[0], ir.Var) \
            and node.args[0].name in cx.params:
        name = node.args[0].name
        return Count(cx.params[name], str(cx.params[name]), _changes_text(name, cx))
    return Count(None, expr_text(node, cx))


def _counted(key: str, count: Count, noun: str, cx: Context, partitive: bool = False) -> tuple[str, dict[str, str]]:
    """The message for `count` of `noun` and its `n` and `noun`: `<key>.computed` for a count only
    known during play (worded with no noun after the number), `<key>.single` for exactly one where
    the catalog words it apart ("a card"), else `<key>` with the noun in the form its number takes
    (`partitive`: the form for many, "2 of your columns"). The cards that change a count are named
    after its noun ("3 cards (6 with Garm)"), so that the noun agrees with the number before it."""
    cat = cx.cat
    if count.value is None:
        return f"{key}.computed", {"n": count.text, "noun": cat.noun(noun)}
    if count.value == 1 and not count.changes and cat.has(f"{key}.single"):
        key = f"{key}.single"
    form = cat.noun(noun) if partitive else cat.noun(noun, count.value)
    if count.changes:
        form = cat.t("call.param.changed", value=form, changes=count.changes)
    return key, {"n": count.text, "noun": form}


def _set_text(prefix: str, s: ir.CardSet, cx: Context, count: Count | None = None) -> str:
    """Cards of a set: `{kind}` one such card (set.kind.*), `{noun}` the cards counted (plural.set.*)
    or, for the last card of each of several columns, the columns."""
    mode = "only" if s.only else "other" if s.other else "any"
    if s.mode == "all":
        mode = "all." + mode
    noun = f"set.{s.kind}" if s.mode == "all" else "column"
    key = f"{prefix}.{mode}"
    kw = {"kind": cx.cat.t(f"set.kind.{s.kind}"), "cls": cx.cls(s.only) if s.only else "", "noun": cx.cat.noun(noun)}
    if count is not None and mode != "only":  # (one column has one last card)
        key, counted = _counted(key, count, noun, cx, partitive=s.mode == "last")
        kw.update(counted)
    return cx.cat.t(key, **kw)


# -- actions and effects ---------------------------------------------------------------------

def _coin_text(sel: ir.CoinSel, cx: Context) -> str:
    return cx.cat.t(f"coin.{'pouch.' if sel.pouch else ''}{sel.mode}")


def _place_text(place: ir.Place, cx: Context) -> str:
    if place.mode == "column":
        return cx.cat.t("place.column", cls=cx.cls(place.column))
    if place.mode == "among":
        return cx.cat.t("place.among", classes=cx.join([cx.cls(c) for c in place.among]))
    return cx.cat.t(f"place.{place.mode}")


def _card_ref(ref: ir.CardRef, cx: Context) -> str:
    if ref.subject:
        return cx.cat.t("ref.subject")
    return cx.cat.t("ref.self") if ref.card is None else cx.card(ref.card)


def _deck_text(deck: ir.Deck, cx: Context) -> str:
    if deck.zone is not None:  # `zone.deck.<id>`: the zone's pile as a deck is named (be: genitive)
        if cx.cat.has(f"zone.deck.{deck.zone}"):
            return cx.cat.t(f"zone.deck.{deck.zone}")
        return cx.cat.t("deck.zone", zone=cx.cat.t(f"zone.name.{deck.zone}", default=cx.zone(deck.zone)))
    return cx.cat.t("deck.current") if deck.age is None else cx.cat.t("deck.age", age=deck.age)


def action_text(a: ir.Action, cx: Context) -> str:
    t = cx.cat.t
    match a:
        case ir.Then():
            return t("act.then", first=action_text(a.first, cx), rest=action_text(a.rest, cx))
        case ir.Act():
            return _act_text(a, cx)
        case ir.EachOther():
            return t("act.each_other", action=action_text(a.action, cx))
        case _:
            assert_never(a)


def _act_text(a: ir.Act, cx: Context) -> str:
    """An action spec's text: its message (picked by its words), with its counted amount worded
    by `_counted` and each other operand as the reference words what it is."""
    spec = ACTION_SPECS[a.name]
    words: dict[str, str] = {}
    kw: dict[str, Any] = {}
    for operand, arg in a.operands():
        if operand.token is not None:  # (an operand the phrase may leave out adds its part to the key when written)
            words[operand.name] = "" if isinstance(arg, ir.Omitted) else operand.key
        match arg:
            case ir.Word() if operand.kind == HERO_CLASS:
                kw[operand.name] = cx.cat.t("class.neutral") if arg.value == "neutral" else cx.cls(arg.value)
            case ir.Omitted():
                pass  # (a flag not written, a class left out: in the key)
            case ir.Word() if operand.token is not None:
                pass  # (a flag: in the key)
            case ir.Word() if operand.kind == FROM_ZONE:
                kw[operand.name] = cx.zone_from(arg.value)
            case ir.Word() if operand.kind == COIN:
                kw[operand.name] = cx.cat.t(f"coin.name.{arg.value}", default=cx.coins.get(arg.value, arg.value))
            case ir.CoinSel():
                kw[operand.name] = _coin_text(arg, cx)
            case ir.Word():
                words[operand.name] = arg.value
            case ir.Deck():
                kw[operand.name] = _deck_text(arg, cx)
            case ir.CardRef():
                kw[operand.name] = _card_ref(arg, cx)
            case ir.Place():
                kw[operand.name] = _place_text(arg, cx)
            case ir.CardSet():
                pass  # (it words the whole action, below)
            case ir.Amounts():
                kw[operand.name] = cx.join([expr_text(x, cx) for x in ir.amounts(arg)])
            case ir.Num() if operand.kind == GEM:
                kw[operand.name] = arg.value
            case _ if spec.counted is None or operand.name != spec.counted[0]:
                kw[operand.name] = expr_text(arg, cx)
    key = spec.message.format(**words)
    for arg in a.args:
        if isinstance(arg, ir.CoinSel) and cx.cat.has(form := f"{key}.{'pouch.' if arg.pouch else ''}{arg.mode}"):
            key = form  # (several coins, one after another)
    count = None
    if spec.counted is not None:
        amount = a.arg(spec.counted[0])
        assert ir.is_amount(amount), "a counted operand is an amount"
        count = count_of(amount, cx)
    cards = a.cards()
    if cards is not None:  # (a card set words the whole action: `_set_text` picks its form)
        return _set_text(key, cards, cx, count)
    if spec.counted is not None and count is not None:
        key, counted = _counted(key, count, spec.counted[1], cx)
        kw.update(counted)
    return cx.cat.t(key, **kw)


def _actions(actions: tuple[ir.Action, ...], cx: Context) -> str:
    return cx.cat.t("actions.then", items="; ".join(action_text(a, cx) for a in actions))


def _event(prefix: str, event: str, cx: Context) -> str:
    key = f"{prefix}.{event}"
    return cx.cat.t(key) if cx.cat.has(key) else cx.cat.t(f"{prefix}.other", event=event)


def effect_text(effect: ir.Effect, cx: Context) -> str:
    """One sentence for one effect."""
    t = cx.cat.t
    match effect:
        case ir.Triggered() | ir.Replacement():
            body: str | None = None
            if isinstance(effect, ir.Triggered):
                head = _event("whenever" if effect.owner else "when", effect.event, cx)
                if effect.age is not None:
                    head = t("when.in_age", when=head, age=effect.age)
            else:
                head = _event("instead.any" if effect.owner else "instead", effect.event, cx)
                cancel = _cancel_keys(effect, cx)
                if cancel:  # "instead of being discarded: cancel it" reads as "when …: cancel that discard"
                    head, body = t(cancel[0]), t(cancel[1])
            if effect.cond is not None:
                head = t("when.if", when=head, cond=expr_text(effect.cond, cx))
            if body is None:
                body = _actions(effect.actions, cx)
            if effect.may:
                body = t("usage.may", actions=body)
            sentence = t("effect.triggered", when=head, actions=body)
            return t("usage.once", sentence=sentence) if effect.once else sentence
        case ir.Modifier():
            return _modifier_text(effect, cx)
        case ir.Requirement():
            return t("effect.requires", cond=expr_text(effect.cond, cx))
        case ir.Score():
            return t("effect.score_once" if effect.once else "effect.score", value=expr_text(effect.expr, cx))
        case ir.Enters():
            return t("effect.enters", place=_place_text(effect.place, cx))
        case ir.CaptureNext():
            return t("effect.capture_next", cls=cx.cls(effect.cls))
        case _:
            assert_never(effect)


def _cancel_keys(effect: ir.Replacement, cx: Context) -> tuple[str, str] | None:
    """The catalog's head and action for a replacement that only cancels its event
    (`cancel.any.<event>`, `act.cancel.<event>`), where the catalog phrases them."""
    if effect.actions != (ir.Act("cancel"),):
        return None
    head = f"cancel.{'any.' if effect.owner else ''}{effect.event}"
    action = f"act.cancel.{effect.event}"
    return (head, action) if cx.cat.has(head) and cx.cat.has(action) else None


def _modifier_text(effect: ir.Modifier, cx: Context) -> str:
    """A modifier: the catalog's phrase for this param, op and value (`modifier.recruit_by_lines.=0`),
    for this param and op, the pick source the param opens (`also`), or the generic phrase."""
    t = cx.cat.t
    amount = expr_text(effect.amount, cx)
    keys = [f"modifier.{effect.param}.{effect.op}"]
    if isinstance(effect.amount, ir.Num):
        keys.insert(0, f"{keys[0]}{effect.amount.value}")
    for key in keys:
        if cx.cat.has(key):
            return t(key, amount=amount)
    if effect.param in cx.access and effect.op == "+":
        return t("modifier.access.+", zone=cx.zone_from(cx.access[effect.param]))
    return t(f"modifier.generic.{effect.op}", param=t(f"param.{effect.param}", default=effect.param), amount=amount)


def _ranks_text(ranks: Sequence[int], cls: str, cx: Context) -> str:
    """A card's ranks in a column of class `cls` ("neutral": the class of the column it stands in)."""
    t = cx.cat.t
    noun = cx.cat.noun("rank", len(ranks))
    if cls != "neutral":
        text = t("card.ranks", n=len(ranks), cls=cx.cls(cls), noun=noun)
    else:
        text = t("card.ranks_any", n=len(ranks), noun=noun)
    if any(ranks):  # "worth 7 and 0 Bravery Points": the noun agrees with the list
        text = t("card.ranks_worth", ranks=text, points=cx.join([str(r) for r in ranks]),
                 noun=cx.cat.noun("point", ranks))
    return text


def rank_class(card: CardDef, effects: list[tuple[str, ir.Effect]]) -> str:
    """The class a card's ranks count in: its own, else the one column its `enters` effect names."""
    if card.cls != "neutral":
        return card.cls
    columns = [e.place.column for _, e in effects if isinstance(e, ir.Enters) and e.place.mode == "column"]
    return columns[0] if len(columns) == 1 and columns[0] else "neutral"


def card_text(card: CardDef, effects: list[tuple[str, ir.Effect]], cx: Context) -> list[str]:
    """The sentences of a card: its ranks (by column for a card with two sides) and points, then
    each effect in order."""
    t = cx.cat.t
    out = []
    if card.ranks:
        out.append(t("sentence", text=_ranks_text(card.ranks, rank_class(card, effects), cx)))
    for cls, side in card.column_ranks.items():
        out.append(t("card.side", cls=cx.cls(cls), ranks=_ranks_text(side, cls, cx)))
    if card.points:
        out.append(t("card.points", points=card.points))
    if card.track:
        out.append(t("card.track", notches=" – ".join(str(v) for v in card.track)))
    out.extend(effect_text(effect, cx) for _, effect in effects)
    return out


def formula_text(cls: str, expr: ir.Expr, cx: Context) -> str:
    """A class formula: what a column of class `cls` is worth."""
    return cx.cat.t("formula", cls=cx.cls(cls), value=expr_text(expr, cx))
