"""Helpers for the play tests: players, signing in, dragging, the rack, and a TCP proxy that can
cut every connection (a dropped socket or a server restart, as the browser sees it)."""

import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import expect

from games.table.moves import move_submit

PASSWORD = "yesil-masa-okey-42"


def players_make(django_user_model, n):
    from allauth.account.models import EmailAddress

    users = []
    for i in range(1, n + 1):
        user = django_user_model.objects.create_user(
            username=f"oyuncu{i}", email=f"oyuncu{i}@example.com", password=PASSWORD
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        user.profile.display_name = f"Oyuncu {i}"
        user.profile.save()
        users.append(user)
    return users


def sign_in(browser, server, user, *, viewport=(1280, 800), **context_options):
    """``user``'s page, signed in, in a browser context of its own; ``context_options`` go to
    ``browser.new_context`` (has_touch, reduced_motion, ...)."""
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, locale="tr-TR", **context_options
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(server.url + "/accounts/login/")
    page.locator("main form.form input[name=login]").fill(user.email)
    page.locator("main form.form input[name=password]").fill(PASSWORD)
    page.locator("main form.form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def wait_db(condition, timeout=40.0):
    """Poll ``condition`` (its docstring says what is awaited) until it gives a true value."""
    end = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < end, condition.__doc__
        time.sleep(0.1)
    return value


def drag(page, source, target, steps=12):
    """Drag with the mouse as a person would (SortableJS runs in pointer fallback mode), once
    the tiles that slide (a draw, a discard) have landed."""
    _landed(page)
    a, b = box_of(source), box_of(target)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, steps + 1):
        page.mouse.move(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
        time.sleep(0.015)
    page.mouse.up()


def touch_drag(page, source, target, steps=12):
    """Drag with a finger (touch events through the DevTools protocol; the page's context needs
    has_touch), once the tiles that slide have landed."""
    _landed(page)
    a, b = box_of(source), box_of(target)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
        )
        for k in range(1, steps + 1):
            point = {"x": x0 + (x1 - x0) * k / steps, "y": y0 + (y1 - y0) * k / steps}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
            time.sleep(0.015)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def _landed(page):
    # a function, not an expression: Playwright evaluates an expression with eval, which the
    # site's Content-Security-Policy refuses
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.constructor !== Animation || "
        "a.playState !== 'running')"
    )


def box_of(locator, tries=20):
    # None while a frame swap has the element detached: take the box of the one swapped in
    for _ in range(tries):
        box = locator.bounding_box()
        if box is not None:
            return box
        time.sleep(0.05)
    raise AssertionError(f"{locator} has no box on the page")


def in_a_thread(service, *args, **kwargs):
    """Call a service from another thread. Playwright's sync API keeps an event loop running in
    the test's thread, where the broadcast after commit (async_to_sync) cannot run: the pages
    would not hear of the change until their heartbeat."""
    from django.db import connections

    def call():
        try:
            return service(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def plan_play(users, table, seed, start=0, stop=None):
    """Moves ``start`` to ``stop`` of the current hand's plan (tests/games/plans.py, from the
    hand's ``seed``) through the services, ``users[i]`` at seat ``i``; the engine's state after
    the whole plan."""
    from tests.games.helpers import current_hand
    from tests.games.helpers import version_of as table_version
    from tests.games.plans import plan_hand

    moves, final = plan_hand(seed, first_seat=current_hand(table).first_seat)
    for move in moves[start:stop]:
        move_submit(
            table_id=table.pk,
            user=users[move["seat"]],
            move={k: v for k, v in move.items() if k != "seat"},
            expected_version=table_version(table),
        )
    return final


def version_of(page) -> int:
    return int(page.locator("#table-version").get_attribute("data-version"))


def wait_version(page, version, timeout=10_000):
    page.wait_for_function(
        "v => Number(document.getElementById('table-version').dataset.version) >= v",
        arg=version,
        timeout=timeout,
    )


def table_ready(page, tiles, timeout=10_000):
    # the socket's first frame swaps the board; acting before it would race that swap
    expect(page.locator("#table-page.is-live")).to_have_count(1, timeout=timeout)
    expect(page.locator("#rack .slot .tile")).to_have_count(tiles, timeout=timeout)


def layout_of(page) -> list:
    return json.loads(
        page.evaluate(
            "JSON.stringify([...document.querySelectorAll('#rack .slot')].map("
            "s => s.firstElementChild ? s.firstElementChild.dataset.tile : null))"
        )
    )


def layout_changed(page, old, timeout=10_000):
    """Wait until the rack shows another layout than ``old`` (Seri diz and Çift diz arrive by
    fetch). Both sides are stringified in the page: Python's json.dumps spaces its items."""
    page.wait_for_function(
        "old => JSON.stringify([...document.querySelectorAll('#rack .slot')].map("
        "s => s.firstElementChild ? s.firstElementChild.dataset.tile : null)) !== "
        "JSON.stringify(old)",
        arg=old,
        timeout=timeout,
    )


class TcpProxy:
    """127.0.0.1:<port> -> 127.0.0.1:<target>. drop() cuts every open connection at once."""

    def __init__(self, target_port):
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.conns = []
        self.lock = threading.Lock()
        self.refuse_until = 0.0
        self.running = True

    def __enter__(self):
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.listener.close()
        self._cut()

    def _accept(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if time.monotonic() < self.refuse_until:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src, dst):
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.close()
                except OSError:
                    pass

    def _cut(self):
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def drop(self, hold=0.0):
        self.refuse_until = time.monotonic() + hold
        self._cut()
