from django.contrib import admin

from signup.models import SignUp, SignUpEmail


class EmailInline(admin.TabularInline):
    model = SignUpEmail
    extra = 0
    readonly_fields = ("kind", "created_at", "sent_at", "attempts", "error")
    can_delete = False


@admin.register(SignUp)
class SignUpAdmin(admin.ModelAdmin):
    list_display = ("display_name", "tournament", "status", "created_at")
    list_filter = ("status", "tournament")
    search_fields = ("player_1", "player_2", "pair_name", "club")
    # Changes go through the organiser's sign-up page (services, emails, waitlist).
    readonly_fields = [f.name for f in SignUp._meta.fields]
    inlines = [EmailInline]
