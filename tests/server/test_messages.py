"""The client message schema, the rate limit and the view filter's scrubbing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goat.server.messages import (
    ActionMessage,
    ErrorCode,
    Hello,
    Ping,
    ProtocolError,
    Sync,
    TokenBucket,
    parse_client_message,
)
from goat.server.viewfilter import cards_in, redact


def code_of(text: str | bytes, limit: int = 4096) -> tuple[ErrorCode, str]:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(text, limit)
    assert "\n" not in str(info.value)
    return info.value.code, str(info.value)


def test_each_message_shape_parses() -> None:
    assert parse_client_message('{"type":"hello","token":"abc"}', 4096) == Hello(type="hello", token="abc")
    assert parse_client_message('{"type":"hello"}', 4096).token is None
    action = parse_client_message('{"type":"action","action":"0 play 9H","version":3,"id":"x1"}', 4096)
    assert isinstance(action, ActionMessage) and (action.action, action.version, action.id) == ("0 play 9H", 3, "x1")
    assert isinstance(parse_client_message('{"type":"sync"}', 4096), Sync)
    assert isinstance(parse_client_message(b'{"type":"ping"}', 4096), Ping)


@pytest.mark.parametrize("text, needle", [
    ("not json", "not JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"type": "dance"}', 'unknown message type "dance"'),
    ('{"action": "0 play 9H"}', "unknown message type null"),
    ('{"type":"action","action":"0 play 9H","id":"x"}', "version"),
    ('{"type":"action","action":"0 play 9H","version":-1,"id":"x"}', "version"),
    ('{"type":"action","action":"0 play 9H","version":"3","id":"x"}', "version"),
    ('{"type":"action","action":"","version":1,"id":"x"}', "action"),
    ('{"type":"action","action":"0 play 9H","version":1,"id":"x","extra":1}', "extra"),
    ('{"type":"hello","token":5}', "token"),
    (b"\xff\xfe", "not JSON"),
])
def test_malformed_messages_get_one_line_reasons(text: str, needle: str) -> None:
    code, message = code_of(text)
    assert code == ErrorCode.MALFORMED
    assert needle in message


def test_deeply_nested_json_under_the_size_limit_is_malformed_not_a_server_fault() -> None:
    """2,000 brackets fit in 4 KiB and ran json's decoder out of stack: the server
    answered ``internal`` and logged a traceback for a client's mistake."""
    for text in ("[" * 2000 + "]" * 2000, '{"type":"hello","token":' + "[" * 1500 + "]" * 1500 + "}"):
        code, message = code_of(text)
        assert code == ErrorCode.MALFORMED and "nested too deeply" in message


def test_oversized_is_checked_before_parsing() -> None:
    big = json.dumps({"type": "hello", "token": "x" * 100})
    assert code_of(big, limit=50)[0] == ErrorCode.OVERSIZED
    assert "over the limit of 50" in code_of(big, limit=50)[1]
    assert code_of("é" * 30, limit=50)[0] == ErrorCode.OVERSIZED  # bytes, not characters


def test_token_bucket_allows_bursts_then_the_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5  # one token back
    assert [bucket.allow(), bucket.allow()] == [True, False]
    now[0] += 100  # never more than the burst
    assert sum(bucket.allow() for _ in range(10)) == 3


def test_cards_in_finds_card_words_only() -> None:
    assert cards_in('seat 2 must follow hearts (holds 9H), "1 play KH+10S"') == {"9H", "KH", "TS"}
    assert cards_in("table ab9hcd, token x9H_y, 9HX, A9H") == set()
    assert cards_in("QC. 7C? (JD)") == {"QC", "7C", "JD"}
    assert cards_in("holds BJ, led LJ; BJX, LJ2, aBJ") == {"BJ", "LJ"}   # Spades' jokers


def test_redact_hides_exactly_the_unknown_cards() -> None:
    text = "seat 2 must follow hearts (holds 9H), not KH+AS"
    assert redact(text, {"9H", "AS"}) == "seat 2 must follow hearts (holds 9H), not ?+AS"
    assert redact(text, set()) == "seat 2 must follow hearts (holds ?), not ?+?"


#: Free text with cards in it: card words (``10S`` is ``TS``) between arbitrary text
#: and separators, glued to letters at times (``AS9H`` names no card). Arbitrary text
#: alone almost never holds a card word, so a ``redact`` that hid nothing passed.
TEXT_WITH_CARDS = st.lists(st.one_of(st.sampled_from(["9H", "KH", "AS", "TS", "10S", "QC", "BJ"]),
                                     st.sampled_from([" ", "+", "(", ", "]), st.text(max_size=6)),
                           max_size=16).map("".join)


@settings(deadline=None)   # microseconds a call; a loaded machine's pause is no failure of redact
@given(TEXT_WITH_CARDS, st.sets(st.sampled_from(["9H", "KH", "AS", "TS", "QC", "BJ"])))
def test_redacted_text_names_exactly_the_known_cards_it_named(text: str, known: set[str]) -> None:
    """No unknown card is left, and no known one is taken out."""
    assert cards_in(redact(text, known)) == cards_in(text) & known


def test_an_action_id_with_a_control_character_is_malformed_on_every_database() -> None:
    """The id is stored with the move: with NUL, which PostgreSQL's text cannot hold,
    the move was "not applied: database error" on PostgreSQL and played on SQLite."""
    for bad in ("c\\u0000", "c\\n1"):
        code, message = code_of('{"type":"action","action":"0 play 9H","version":1,"id":"%s"}' % bad)
        assert code == ErrorCode.MALFORMED and "id" in message and "printable" in message and "\n" not in message
    assert parse_client_message('{"type":"action","action":"0 play 9H","version":1,"id":"c-81 ü"}', 4096).id == "c-81 ü"
