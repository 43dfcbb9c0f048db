from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_profile_name_key")]

    operations = [
        migrations.AlterField(
            model_name="profile",
            name="name_key",
            field=models.CharField(max_length=120, unique=True, editable=False),
        ),
    ]
