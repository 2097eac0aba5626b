from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db import models

        from core.validation import OneLineName

        # An account's first and last name are shown (a ruling's PDF names its
        # judge) and typed in the admin: they refuse what every other name
        # refuses. Added to the field's validator list, not to its definition,
        # so Django's own migrations are not changed.
        for name in ("first_name", "last_name"):
            field = get_user_model()._meta.get_field(name)
            assert isinstance(field, models.CharField)
            if OneLineName(name) not in field.validators:
                field.validators.append(OneLineName(name))
