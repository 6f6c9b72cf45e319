"""Issue 18, "Words a reader can follow": "`check --strict` with a warning does not print `ok:`; the
warning count is printed once; "1 error", "2 errors" (not "error(s)"), in both languages."

`check` has no language option (its messages are English); the Belarusian forms are those of
nidavellir/counts.py, the one helper every printed count goes through, checked on their own."""
from __future__ import annotations

from pathlib import Path

import pytest

from checking import run_check, write
from nidavellir.compiler.docs.text import PLURAL_CATEGORIES
from nidavellir.counts import NOUNS, counted

EN_WORDS = {0: ("0 errors", "0 warnings"), 1: ("1 error", "1 warning"), 2: ("2 errors", "2 warnings"),
            5: ("5 errors", "5 warnings")}


def _variant(tmp_path: Path, errors: int, warnings: int) -> Path:
    """A variant with `warnings` unused params (a warning each) and `errors` effects naming an
    unknown event (an error each)."""
    params = "".join(f"    spare{i}: {i}\n" for i in range(warnings))
    effects = "".join('      - "when recruted: transform chosen coin by 7"\n' for _ in range(errors))
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n"
                 + (f"game:\n  params:\n{params}" if warnings else "")
                 + (f"cards:\n  - id: grid\n    effects:\n{effects}" if errors else ""))


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("errors", [0, 1, 2, 5])
@pytest.mark.parametrize("warnings", [0, 1, 2, 5])
def test_the_count_is_said_once_in_words_and_ok_only_when_the_check_passes(capsys, tmp_path, errors, warnings,
                                                                           strict):
    """Issue 18: "`check --strict` with a warning does not print `ok:`; the warning count is printed
    once; "1 error", "2 errors" (not "error(s)")". README: exit 1 on an error, or with `--strict` on
    a warning too."""
    v = _variant(tmp_path, errors, warnings)
    code, out, err = run_check(capsys, str(v), *(["--strict"] if strict else []))
    fails = bool(errors or (warnings and strict))
    assert code == (1 if fails else 0)
    assert "Traceback" not in err and "(s)" not in out + err
    assert out.startswith(f"ok: {v} (") == (not fails) and ("ok:" in out) == (not fails)
    said_errors, said_warnings = EN_WORDS[errors][0], EN_WORDS[warnings][1]
    if warnings and strict:
        said_warnings += " (an error with --strict)" if warnings == 1 else " (errors with --strict)"
    summary = ", ".join(([said_errors] if errors else []) + ([said_warnings] if warnings else []))
    assert err.count(f"{warnings} warning") == (1 if warnings else 0)  # once: not also on the `ok:` line
    assert err.count(f"{errors} error") == (1 if errors else 0)
    if summary:
        assert err.endswith(f"\n{summary}\n"), err
        assert out.count("warning") == 0
    else:
        assert err == ""


def test_the_ok_line_counts_in_words(capsys, tmp_path):
    """Issue 18: counts are worded so the number agrees with its noun (the `ok:` line's cards and
    interpretations too)."""
    v = _variant(tmp_path, 0, 0)
    code, out, _ = run_check(capsys, str(v))
    assert code == 0
    head = out.splitlines()[0]
    assert head.startswith(f"ok: {v} (") and head.endswith(" interpretations)") and " cards, " in head


@pytest.mark.parametrize("n, en, be", [
    (0, "0 errors", "0 памылак"), (1, "1 error", "1 памылка"), (2, "2 errors", "2 памылкі"),
    (4, "4 errors", "4 памылкі"), (5, "5 errors", "5 памылак"), (11, "11 errors", "11 памылак"),
    (12, "12 errors", "12 памылак"), (21, "21 errors", "21 памылка"), (22, "22 errors", "22 памылкі"),
    (111, "111 errors", "111 памылак"),
])
def test_errors_in_both_languages(n, en, be):
    """Issue 18: "1 error", "2 errors" in both languages; Belarusian (CLDR): 1 памылка, 2–4 памылкі,
    5+ памылак, and 21 as 1, 22 as 2, 11–14 as 5."""
    assert counted(n, "error") == en and counted(n, "error", "be") == be


@pytest.mark.parametrize("n, en, be", [
    (1, "1 warning", "1 папярэджанне"), (3, "3 warnings", "3 папярэджанні"), (5, "5 warnings", "5 папярэджанняў"),
    (14, "14 warnings", "14 папярэджанняў"), (31, "31 warnings", "31 папярэджанне"),
])
def test_warnings_in_both_languages(n, en, be):
    """Issue 18: "1 warning", "3 warnings" in both languages; Belarusian: 1 папярэджанне, 2–4
    папярэджанні, 5+ папярэджанняў."""
    assert counted(n, "warning") == en and counted(n, "warning", "be") == be


def test_every_counted_noun_has_every_form_of_each_language():
    """compiler/docs/text.py: each language's catalog gives a counted noun a form per plural
    category (English one/other, Belarusian one/few/many): so does every noun `counted` says."""
    for noun, langs in NOUNS.items():
        assert set(langs) == set(PLURAL_CATEGORIES), noun
        for lang, forms in langs.items():
            assert set(forms) == set(PLURAL_CATEGORIES[lang]), (noun, lang)
            assert all(forms.values()), (noun, lang)


def test_no_count_is_worded_with_a_parenthesised_plural():
    """Issue 18: not "error(s)"/"warning(s)": no message of the commands words a count so."""
    root = Path(__file__).resolve().parent.parent
    for folder in ("nidavellir", "compiler"):
        for f in (root / folder).rglob("*.py"):
            text = f.read_text(encoding="utf-8")
            for word in ("error(s)", "warning(s)", "key(s)"):
                assert word not in text, (f, word)
