"""The independent draughts generator reproduces the published perft (TRUTHS.md)."""
from tests.draughts_reference import initial, perft


def test_reference_draughts_perft_matches_published_counts():
    board, mover = initial()
    assert [perft(board, mover, d) for d in range(1, 7)] == [7, 49, 302, 1469, 7361, 36768]
