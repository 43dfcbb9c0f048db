from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        # The edges plug into the services here, once every app's models are loaded (the
        # imports wait for that, as Django's ready() hooks do): services never import
        # games.tasks, whose tasks call them.
        from games.services.deadline_tasks import deadline_sender_set
        from games.services.reviews import review_sender_set
        from games.tasks import deadline_task_send, hand_review_send

        deadline_sender_set(deadline_task_send)
        review_sender_set(hand_review_send)
