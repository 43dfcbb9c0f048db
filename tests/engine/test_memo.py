"""The engine's bounded memo (memo.py): two generations, entries in use kept."""

from games.engine.memo import Memo


def test_a_full_memo_starts_a_new_generation_and_an_entry_in_use_moves_back():
    memo: Memo[int, str] = Memo(3)
    for k in range(3):
        memo.put(k, str(k))
    memo.put(3, "3")  # full: 0..2 become the older generation
    assert memo.old == {0: "0", 1: "1", 2: "2"} and memo.new == {3: "3"}
    assert memo.get(1) == "1"  # found in the older one, moved back
    assert memo.new == {3: "3", 1: "1"}
    memo.put(4, "4")
    memo.put(5, "5")  # full again: the older generation (0 and 2) is dropped
    assert memo.old == {3: "3", 1: "1", 4: "4"} and memo.new == {5: "5"}
    assert memo.get(0) is None and memo.get(2) is None and memo.get(3) == "3"
    assert len(memo) <= 2 * 3


def test_revive_looks_only_in_the_older_generation():
    memo: Memo[int, int] = Memo(1)
    memo.put(1, 10)
    memo.put(2, 20)
    assert memo.revive(2) is None and memo.revive(1) == 10
    assert memo.new == {1: 10} and memo.old == {2: 20}
