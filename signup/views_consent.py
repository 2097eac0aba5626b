"""Consent pages: the emailed confirmation link, the private page's consent buttons,
and the organiser's record of a person's consent.

Thin: parse the form, call one service, show its refusal as a message in the
active language. Services are atomic, so a refused call changed nothing.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from core.errors import ApplicationError, PermissionDenied
from people.models import Person
from signup import forms as signup_forms
from signup.selectors_consent import (
    consent_coverage,
    consent_events_organised,
    consent_history,
    may_record_consent,
)
from signup.services import consent as service
from signup.services.consent_links import signup_from_consent_token
from signup.services.links import signup_token


@never_cache
def signup_consent(request: HttpRequest, consent_token: str) -> HttpResponse:
    """The confirmation link: what is published, for whom, and yes or no (once)."""
    try:
        signup = signup_from_consent_token(token=consent_token)
    except ApplicationError as error:
        return render(request, "signup/link_invalid.html", {"error": error}, status=404)
    if request.method == "POST":
        answer = signup_forms.ConsentAnswerForm(request.POST).chosen_answer()
        if not answer:
            messages.error(request, _("Choose whether your names may be published."))
            return redirect("signup:consent", consent_token=consent_token)
        try:
            signup = service.signup_consent_answer(token=consent_token, confirm=answer == "yes")
        except ApplicationError as error:
            messages.error(request, error.message)
            return redirect("signup:consent", consent_token=consent_token)
        if answer == "yes":
            messages.success(request, _("Thank you: your consent to publish is recorded."))
        else:
            messages.success(request, _("Understood: your names are not published."))
        # The link is used up; the private page shows where things stand.
        return redirect("signup:own", signup_token=signup_token(signup=signup))
    return render(
        request,
        "signup/consent.html",
        {
            "signup": signup,
            "tournament": signup.tournament,
            "coverage": consent_coverage(signup=signup),
        },
    )


def signup_own_consent(request: HttpRequest, token: str, action: str) -> HttpResponse:
    """A consent button of the private page (POST ``action``)."""
    try:
        if action == "consent_withdraw":
            service.signup_consent_withdraw_by_link(token=token)
            messages.success(request, _("Your consent is withdrawn: your names are not published."))
        else:
            service.signup_consent_request(token=token)
            messages.success(request, _("A new confirmation link is on its way to your email."))
    except ApplicationError as error:
        messages.error(request, error.message)
    return redirect("signup:own", signup_token=token)


class ConsentRecordForm(forms.Form):
    given = forms.TypedChoiceField(
        label=gettext_lazy("Consent"),
        choices=[
            ("yes", gettext_lazy("Given: the person agrees to be published")),
            ("no", gettext_lazy("Withdrawn: the person is not published")),
        ],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        label=gettext_lazy("How (the reason)"),
        max_length=300,
        help_text=gettext_lazy('For example "signed paper form 12 March" or "asked by phone".'),
    )


@never_cache
def organiser_person_consent(request: HttpRequest, person_id: int) -> HttpResponse:
    """A person's consent and its history; an organiser of their events records it."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    person = get_object_or_404(Person, pk=person_id)
    if not may_record_consent(actor=request.user, person=person):
        error = PermissionDenied(service.NOT_YOURS)
        return render(request, "tournament/forbidden.html", {"error": error}, status=403)
    form = ConsentRecordForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                service.person_consent_record(
                    person=person, actor=request.user, **form.cleaned_data
                )
            except ApplicationError as error:
                messages.error(request, error.message)
                status = error.status_code
            else:
                messages.success(request, _("Recorded."))
                return redirect("signup:organiser_person_consent", person_id=person.pk)
        else:
            status = 400
    return render(
        request,
        "signup/organiser/person_consent.html",
        {
            "person": person,
            "events": consent_events_organised(actor=request.user, person=person),
            "history": consent_history(person=person),
            "form": form,
        },
        status=status,
    )
