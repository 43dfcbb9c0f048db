"""The game a table plays gets its own column (issue 44): until now only Düz Okey's rule option
``mode`` said whether a table played Düz or Eşli, and 101 has no such option."""

from django.db import migrations, models


def variant_from_mode(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Table.objects.filter(options__mode="esli").update(variant="esli")


class Migration(migrations.Migration):
    dependencies = [("games", "0009_hand_review_version")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="variant",
            field=models.CharField(
                choices=[
                    ("duz", "Düz Okey"),
                    ("esli", "Eşli Okey"),
                    ("101", "Okey 101"),
                    ("esli101", "Eşli 101"),
                ],
                default="duz",
                max_length=8,
                verbose_name="game",
            ),
        ),
        migrations.RunPython(variant_from_mode, migrations.RunPython.noop),
    ]
