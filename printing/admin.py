from django.contrib import admin

from printing.models import PrintJob


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ["round", "kind", "status", "progress", "total", "attempts", "updated_at"]
    list_filter = ["status", "kind"]
    readonly_fields = ["file", "error", "attempts", "created_by", "created_at", "updated_at"]
