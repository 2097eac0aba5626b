from django.contrib import admin

from people.models import Person, PersonAudit, PersonMatch


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "publish_consent", "merged_into", "anonymised_at")
    search_fields = ("name", "club")
    list_filter = ("publish_consent",)
    readonly_fields = ("name_key", "club_key", "merged_into", "anonymised_at", "created_at")


admin.site.register(
    PersonAudit, list_display=("created_at", "action", "person", "other", "actor", "context")
)
admin.site.register(
    PersonMatch, list_display=("created_at", "status", "new", "known", "context", "decided_by")
)
