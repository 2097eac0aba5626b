from django.contrib import admin

from season.models import Series, SeriesAudit, SeriesEvent, SeriesRole


class RoleInline(admin.TabularInline):
    model = SeriesRole
    extra = 0


class EventInline(admin.TabularInline):
    model = SeriesEvent
    extra = 0


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "method", "published", "created_at")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [RoleInline, EventInline]


admin.site.register(SeriesAudit, list_display=("created_at", "series", "actor", "action", "target"))
