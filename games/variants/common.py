"""What the views of every variant share: times as the pages read them."""


def epoch_ms(dt) -> int | None:
    return None if dt is None else int(dt.timestamp() * 1000)
