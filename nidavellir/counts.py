"""A count said in words: "1 error", "2 errors", "5 warnings" (English), "1 памылка", "2 памылкі",
"5 памылак" (Belarusian). Every summary a command prints of what it found (errors and warnings of
`check`, the texts `docs --check` lacks) goes through `counted`, so a number always agrees with its
noun; the plural categories are the CLDR rules the reference's texts use (compiler/docs/text.py)."""
from __future__ import annotations

from nidavellir.compiler.docs.text import plural_category

# noun -> language -> plural category -> form (every category of compiler/docs/text.py's PLURAL_CATEGORIES)
NOUNS: dict[str, dict[str, dict[str, str]]] = {
    "error": {"en": {"one": "error", "other": "errors"},
              "be": {"one": "памылка", "few": "памылкі", "many": "памылак"}},
    "warning": {"en": {"one": "warning", "other": "warnings"},
                "be": {"one": "папярэджанне", "few": "папярэджанні", "many": "папярэджанняў"}},
    "card": {"en": {"one": "card", "other": "cards"},
             "be": {"one": "карта", "few": "карты", "many": "картаў"}},
    "interpretation": {"en": {"one": "interpretation", "other": "interpretations"},
                       "be": {"one": "тлумачэнне", "few": "тлумачэнні", "many": "тлумачэнняў"}},
    "entry": {"en": {"one": "entry", "other": "entries"},
              "be": {"one": "запіс", "few": "запісы", "many": "запісаў"}},
    "message key": {"en": {"one": "message key", "other": "message keys"},
                    "be": {"one": "ключ паведамлення", "few": "ключы паведамленняў", "many": "ключоў паведамленняў"}},
}


def counted(n: int, noun: str, lang: str = "en") -> str:
    """`n` and the form of `noun` that agrees with it in `lang` ("1 warning", "3 warnings")."""
    return f"{n} {NOUNS[noun][lang][plural_category(lang, n)]}"

