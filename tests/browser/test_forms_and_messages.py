"""Small things a player notices on the site's pages: the table form's checkboxes all the same
size, and a success message that goes by itself while an error stays until closed."""

import pytest
from playwright.sync_api import expect

from .play_support import players_make, sign_in

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_table_forms_checkboxes_are_one_size(
    asgi_live_server, browser, django_user_model, size
):
    (user,) = players_make(django_user_model, 1)
    page = sign_in(browser, asgi_live_server, user, viewport=size)
    try:
        page.goto(asgi_live_server.url + "/")
        boxes = page.locator(".create-form input[type=checkbox]")
        assert boxes.count() >= 4
        sizes = {
            (round(b["width"]), round(b["height"]))
            for b in (boxes.nth(i).bounding_box() for i in range(boxes.count()))
        }
        assert len(sizes) == 1, sizes
    finally:
        page.context.close()


def test_a_welcome_goes_by_itself_and_an_error_stays(asgi_live_server, browser, django_user_model):
    from games.invites.services import invite_create, token_hash
    from games.models import Invite
    from games.table.create import table_create

    manager_user, guest_user = players_make(django_user_model, 2)
    table = table_create(manager=manager_user, options={"mode": "esli"})
    invite_create(table_id=table.pk, inviter=manager_user, email=guest_user.email, seat_index=2)
    token = "t" * 43  # the link's token, set here: the e-mail is not read in this test
    Invite.objects.update(token_hash=token_hash(token))
    manager = sign_in(browser, asgi_live_server, manager_user)
    guest = sign_in(browser, asgi_live_server, guest_user)
    try:
        manager.goto(f"{asgi_live_server.url}/table/{table.pk}/")
        panel = manager.locator("#invites")
        panel.get_by_label("E-posta adresi").fill(manager_user.email)  # themselves: refused
        panel.get_by_role("button", name="Daveti gönder").click()
        error = manager.locator(".message--error")
        expect(error).to_be_visible()

        guest.goto(f"{asgi_live_server.url}/invite/{token}/")
        guest.locator("[data-take-seat]").click()
        guest.wait_for_url(f"{asgi_live_server.url}/table/{table.pk}/")
        welcome = guest.locator(".message--success")
        expect(welcome).to_contain_text("Hoş geldiniz")
        expect(welcome).to_have_count(0, timeout=12_000)  # gone, without a reload
        expect(error).to_be_visible()  # longer than the welcome stayed: read, then closed
        error.locator("[data-dismiss]").click()
        expect(error).to_have_count(0)
    finally:
        guest.context.close()
        manager.context.close()
