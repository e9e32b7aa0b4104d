"""The independent Hex reference agrees with the published facts (TRUTHS.md)."""
from tests.reference_hex import connects, first_player_wins, perft


def test_hex_3x3_perft_matches_truths():
    assert [perft(3, d) for d in range(1, 5)] == [9, 72, 504, 3024]


def test_first_player_wins_3x3():
    assert first_player_wins(3)


def test_connection_needs_a_chain_of_hex_neighbours():
    # (1,0)-(0,1)-(0,2) is a chain via the (-1,1) direction; (0,0),(1,1) are not neighbours
    assert connects(3, {(1, 0), (0, 1), (0, 2)}, 0)
    assert not connects(3, {(0, 0), (1, 1), (2, 2)}, 0)
    assert connects(3, {(0, 0), (1, 0), (2, 0)}, 1)
