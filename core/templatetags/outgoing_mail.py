"""``{% outgoing_mail_notice %}``: where emails point and where they go, on organiser pages."""

from __future__ import annotations

from django import template

from core.mail import OutgoingMail, outgoing_mail

register = template.Library()


@register.inclusion_tag("core/outgoing_mail.html")
def outgoing_mail_notice() -> dict[str, OutgoingMail]:
    return {"mail": outgoing_mail()}
