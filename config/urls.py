"""Root URLs. Each app owns its own ``urls.py`` (pages) and ``api_urls.py`` (REST)."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.login import AccountAdminLoginForm, AccountLoginView
from config.health import health
from core.push.views import push_unavailable
from core.views import language_switch

# Both login forms count failures (core/ratelimit.py, docs/security.md) and
# refuse the demo's published passwords where that is on (accounts/demo.py).
admin.site.login_form = AccountAdminLoginForm

api_patterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:schema", template_name="api/docs.html"),
        name="docs",
    ),
    path("", include("competition.api_urls")),
    path("", include("games.api_urls")),
    path("", include("judging.api_urls")),
    path("", include("signup.api_urls")),
    path("", include("season.api_urls")),
    path("", include("ratings.api_urls")),
    path("", include("stats.api_urls")),
]

urlpatterns = [
    path("health/", health, name="health"),
    # Served by the ASGI processes (config/asgi.py); reaching Django means push is off here.
    path("push/<str:kind>/<str:key>/", push_unavailable, name="push"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("lang/<str:code>/", language_switch, name="language_switch"),
    path("login/", AccountLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", include((api_patterns, "api"), namespace="api")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("judging.urls")),
    path("", include("printing.urls")),
    path("", include("signup.urls")),
    path("", include("season.urls")),
    path("", include("ratings.urls")),
    path("", include("stats.urls")),
    path("", include("competition.urls")),
]

if settings.DEBUG:
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
