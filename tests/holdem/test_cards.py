"""Cards, hands and boards: the encoding, round trips and the errors that name the bad token."""

import numpy as np
import pytest

from cfrlib.errors import CardError
from cfrlib.holdem.cards import (
    HANDS,
    NUM_HANDS,
    blocked_by,
    card,
    card_str,
    format_cards,
    hand_index,
    hand_str,
    parse_board,
    parse_cards,
    parse_hand,
)


def test_encoding():
    assert card("2c") == 0 and card("As") == 51 and card("Td") == 33 and card("th") == 34
    assert parse_cards("Td9d6h") == (33, 29, 18) == parse_cards(" td, 9D 6h ")
    assert [card_str(c) for c in range(52)] == [r + s for r in "23456789TJQKA" for s in "cdhs"]
    assert format_cards(parse_cards("Td9d6hQc")) == "Td9d6hQc"


def test_hands_and_their_index():
    assert HANDS.shape == (NUM_HANDS, 2) == (1326, 2)
    assert (HANDS[:, 0] < HANDS[:, 1]).all()
    keys = HANDS[:, 0] * 52 + HANDS[:, 1]
    assert (np.diff(keys) > 0).all()  # increasing (c1, c2): each pair once
    assert [hand_index(int(a), int(b)) for a, b in HANDS] == list(range(1326))
    assert hand_index(51, 50) == hand_index(50, 51) == 1325
    assert hand_str(parse_hand("AsKs")) == "AsKs" and hand_str(parse_hand("2d2c")) == "2d2c"


def test_blocked_by_the_board():
    blocked = blocked_by(parse_board("Td9d6hQc"))
    assert blocked.sum() == 1326 - 48 * 47 // 2  # hands that hold a board card
    assert blocked[parse_hand("QcQd")] and not blocked[parse_hand("AsKs")]


@pytest.mark.parametrize("text, token", [
    ("Td9d6x", "'x'"), ("Td9d1h", "'1'"), ("Td9dT", "'T'"), ("Td9dTd", "'Td' is given twice"),
    ("Td9d", "2 cards, expected 3 or 4 or 5"), ("AsKsQsJsTs9s", "6 cards"),
])
def test_bad_boards_name_the_token(text, token):
    with pytest.raises(CardError, match=token):
        parse_board(text)


def test_board_as_ints():
    assert parse_board([33, 29, 18, 40]) == (33, 29, 18, 40)
    with pytest.raises(CardError, match="'Td' is given twice"):
        parse_board([33, 29, 33])
    with pytest.raises(CardError, match="card 52"):
        parse_board([33, 29, 52])
    with pytest.raises(CardError, match="expected 5"):
        parse_board("Td9d6h", lengths=(5,))
