from django.contrib import admin

from games.models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("round", "table_number", "pair_yb", "pair_rg", "status", "winner")
    list_filter = ("round__tournament", "status")
    exclude = ("token_nonce", "token_hash", "carried_token_hash")
