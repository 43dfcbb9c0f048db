"""Profile.name_key: the display name's normal, case-folded form (look-alike names); filled here,
made unique in 0003 (its own transaction: PostgreSQL will not alter a table with row changes
still pending in the same one)."""

import unicodedata

from django.db import migrations, models


def key_of(name: str) -> str:
    # accounts.models.display_name_key as it was written with this migration
    normal = " ".join(unicodedata.normalize("NFKC", name).split())
    return unicodedata.normalize("NFKC", normal.casefold())


def keys_fill(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    seen = set()
    for profile in Profile.objects.order_by("pk"):
        key = key_of(profile.display_name)
        if key in seen:  # a look-alike made before this check: kept, told apart by its id
            key = f"{key}#{profile.pk}"
        seen.add(key)
        Profile.objects.filter(pk=profile.pk).update(name_key=key)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="name_key",
            field=models.CharField(max_length=120, null=True, editable=False),
        ),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
    ]
