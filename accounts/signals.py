from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import Profile, display_name_free


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def profile_create(sender, instance, created, raw=False, **kwargs):
    # Every user has a profile, however the user was made: code may rely on `user.profile`.
    if created and not raw:
        base = instance.get_username() or ""
        if "@" in base or not base:
            base = (instance.email or base).split("@")[0]
        Profile.objects.get_or_create(
            user=instance, defaults={"display_name": display_name_free(base)}
        )
