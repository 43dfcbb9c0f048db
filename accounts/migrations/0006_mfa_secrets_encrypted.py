"""The second factor's secrets stored before accounts.mfa encrypted them are encrypted now; back
to clear text when migrated backwards (the code before it reads only clear text)."""

from django.db import migrations

from accounts.mfa import PREFIX, authenticator_data_rekey, secret_decrypt, secret_encrypt


def _convert(apps, convert):
    Authenticator = apps.get_model("mfa", "Authenticator")
    for authenticator in Authenticator.objects.all():
        data = authenticator_data_rekey(authenticator.type, authenticator.data, convert)
        if data != authenticator.data:
            authenticator.data = data
            authenticator.save(update_fields=["data"])


def encrypt(apps, schema_editor):
    _convert(apps, lambda stored: stored if stored.startswith(PREFIX) else secret_encrypt(stored))


def decrypt(apps, schema_editor):
    _convert(apps, secret_decrypt)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_guest"),
        ("mfa", "0003_authenticator_type_uniq"),
    ]

    operations = [migrations.RunPython(encrypt, decrypt)]
