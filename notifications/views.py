from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from notifications import services
from notifications.forms import NotificationSettingsForm


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    form = NotificationSettingsForm(request.POST or None, instance=services.settings_for(request.user))
    if request.method == "POST" and form.is_valid():
        services.do_update_settings(request.user, **{name: form.cleaned_data[name] for name in form.Meta.fields})
        messages.success(request, gettext("Notification settings saved."))
        return redirect("notification-settings")
    return render(request, "notifications/settings.html", {"form": form}, status=400 if form.errors else 200)
