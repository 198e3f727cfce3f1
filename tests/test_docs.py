"""The docs name every option the engine has, so a table can find each one."""

from pathlib import Path

from goat.games.kozel.rules import CHOICES, OPTION_NAMES, PRESETS

ROOT = Path(__file__).resolve().parent.parent


def test_every_kozel_option_is_documented():
    text = (ROOT / "docs" / "kozel.md").read_text(encoding="utf-8")
    missing = [name for name in OPTION_NAMES if f"`{name}`" not in text]
    assert not missing, f"options missing from docs/kozel.md: {missing}"


def test_every_option_value_is_documented():
    text = (ROOT / "docs" / "kozel.md").read_text(encoding="utf-8")
    missing = [f"{name}={value}" for name, values in CHOICES.items() for value in values
               if value not in ("C", "D", "H", "S") and f'"{value}"' not in text]
    assert not missing, f"option values missing from docs/kozel.md: {missing}"


def test_every_preset_is_documented():
    text = (ROOT / "docs" / "kozel.md").read_text(encoding="utf-8")
    assert all(f"`{p}`" in text for p in PRESETS)


def test_readme_starts_with_exactly_the_two_setup_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1: lines.index("```")]
    assert [line.split("#")[0].strip() for line in block] == ["make run", "make test"]


def test_every_spades_option_value_and_preset_is_documented():
    from goat.games.spades.rules import CHOICES as SPADES_CHOICES
    from goat.games.spades.rules import OPTION_NAMES as SPADES_OPTIONS
    from goat.games.spades.rules import PRESETS as SPADES_PRESETS

    text = (ROOT / "docs" / "spades.md").read_text(encoding="utf-8")
    missing = [name for name in SPADES_OPTIONS if f"`{name}`" not in text]
    missing += [f"{name}={value}" for name, values in SPADES_CHOICES.items() for value in values
                if f'"{value}"' not in text]
    missing += [preset for preset in SPADES_PRESETS if f"`{preset}`" not in text]
    assert not missing, f"missing from docs/spades.md: {missing}"


def test_readme_has_a_spades_section_with_its_rules_table():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Spades" in text and "goat play spades" in text and "OpenSpiel" in text
    from goat.games.spades.rules import PRESETS as SPADES_PRESETS
    assert all(f"`{p}`" in text for p in SPADES_PRESETS if p != "spades")
