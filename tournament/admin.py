from django.contrib import admin

from tournament.models import AuditEntry, Bye, Pair, Player, Round, Tournament, TournamentRole


class RoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "venue", "ruleset", "swiss_rounds", "knockout_size")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [RoleInline]


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ("start_number", "display_name", "club", "seed", "status", "tournament")
    list_filter = ("tournament", "status")
    search_fields = ("name", "player_1__name", "player_2__name", "club")


admin.site.register(Player, search_fields=("name", "club"), list_filter=("tournament",))
admin.site.register(Round, list_display=("tournament", "number", "kind", "status"))
admin.site.register(Bye)
admin.site.register(
    AuditEntry, list_display=("created_at", "tournament", "actor", "action", "target")
)
