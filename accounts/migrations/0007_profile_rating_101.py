"""The 101 rating (101 and Eşli 101) beside the Okey rating (Düz and Eşli Okey).

Until now every game moved the one rating. The 101 games already played are moved out of it
into the new one, from their stored results (``PlayerResult``: the points each player was given,
the place, the game's places for a win): the profile's columns only ever had each game's points
added, so taking a 101 game's points, game and win out of the Okey columns leaves exactly what
the Okey games gave. Backwards, they are added back."""

from django.db import migrations, models

# the variants that rate into the 101 rating (games.variants: SiteVariant.rating == "101"), as
# they were named when this migration was written
VARIANTS_101 = ("101", "esli101")


def _standings_101(apps) -> dict[int, list[int]]:
    """Per user: [points, games, wins] of their rated 101 games."""
    PlayerResult = apps.get_model("games", "PlayerResult")
    out: dict[int, list[int]] = {}
    results = PlayerResult.objects.filter(game__table__variant__in=VARIANTS_101)
    for r in results.select_related("game").iterator():
        places = (r.game.results or {}).get("places") or []
        won = r.place == 1 and not all(p == 1 for p in places)
        s = out.setdefault(r.user_id, [0, 0, 0])
        s[0] += r.points
        s[1] += 1
        s[2] += 1 if won else 0
    return out


def _move(apps, sign: int) -> None:
    Profile = apps.get_model("accounts", "Profile")
    for user_id, (points, games, wins) in _standings_101(apps).items():
        profile = Profile.objects.filter(user_id=user_id).first()
        if profile is None:
            continue
        profile.rating_points -= sign * points
        profile.games_played = max(0, profile.games_played - sign * games)
        profile.wins = max(0, profile.wins - sign * wins)
        profile.rating101_points += sign * points
        profile.games101_played = max(0, profile.games101_played + sign * games)
        profile.wins101 = max(0, profile.wins101 + sign * wins)
        profile.save(
            update_fields=[
                "rating_points", "games_played", "wins", "rating101_points", "games101_played",
                "wins101",
            ]
        )  # fmt: skip


def forwards(apps, schema_editor):
    _move(apps, 1)


def backwards(apps, schema_editor):
    _move(apps, -1)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_mfa_secrets_encrypted"),
        ("games", "0016_admin_names_translated"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="rating101_points",
            field=models.IntegerField(default=0, verbose_name="101 rating points"),
        ),
        migrations.AddField(
            model_name="profile",
            name="games101_played",
            field=models.PositiveIntegerField(default=0, verbose_name="101 games played"),
        ),
        migrations.AddField(
            model_name="profile",
            name="wins101",
            field=models.PositiveIntegerField(default=0, verbose_name="101 wins"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
