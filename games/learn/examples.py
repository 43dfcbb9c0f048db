"""The tiles the rules page shows: each example is a real hand of docs/rules.md, checked by
tests/games/learn/test_rules_page.py against the engine, so a picture never teaches a wrong rule."""

INDICATOR = "Y4"
OKEY = "Y5"  # the okey of INDICATOR

EXAMPLES = {
    "colours": ["R7", "Y7", "B7", "K7"],
    "fake": ["F"],
    "indicator": [INDICATOR],
    "okey": [OKEY],
    "indicator_wrap": ["K13"],
    "okey_wrap": ["K1"],
    "run": ["R3", "R4", "R5", "R6"],
    "run_wrap": ["B12", "B13", "B1"],
    "not_run": ["B13", "B1", "B2"],
    "set": ["Y9", "B9", "K9"],
    "run_okey": ["K10", OKEY, "K12"],
    "set_okey": ["R11", OKEY, "K11"],
    # 14 tiles in melds (with indicator Y4): R3-R6, B9 Y9 K9, K10 okey K12, B12 B13 B1 ... and
    # the 15th goes on the indicator
    "finished": [
        "R3",
        "R4",
        "R5",
        "R6",
        "Y9",
        "B9",
        "K9",
        "K10",
        OKEY,
        "K12",
        "B11",
        "B12",
        "B13",
        "B1",
    ],
    "last": ["K7"],
    "pairs": ["R2", "R2", "Y8", "Y8", "B5", "B5", "K13", "K13", "R10", "R10", "B3", OKEY, "F", "F"],
}
