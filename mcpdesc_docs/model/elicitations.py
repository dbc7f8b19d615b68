"""Elicitation declarations: what a primitive may ask the user, as cards with form previews."""

from __future__ import annotations

from ..validation.document import Elicitation as DeclaredElicitation
from ..validation.document import as_object
from .components import requested_schema_site, resolve
from .context import BuildContext
from .forms import FormPreview, build_form_preview
from .schema_tree import ROW_WEIGHT, ShownElsewhere, dump_json
from .site import Elicitation, Scope
from .urls import PageAnchors, PageRef
from .values import extensions, string


def build_elicitation(
    context: BuildContext, declared: DeclaredElicitation, position: int, anchors: PageAnchors, page: PageRef
) -> Elicitation:
    data = declared.data
    # Validation requires a name; the placeholder only keeps ids and hooks well formed.
    name = string(data, "name") or f"elicitation-{position + 1}"
    anchor = anchors.elicitation(name)
    form: FormPreview | None = None
    schema_json: str | None = None
    component: str | None = None
    elsewhere: ShownElsewhere | None = None
    site = requested_schema_site(declared)
    if site is not None:
        schema, component = resolve(context.document, site)
        elsewhere = context.repeats.elsewhere(component)
        if elsewhere is None:
            form = build_form_preview(as_object(schema))
            schema_json = dump_json(schema)
            weight = len(schema_json) + ROW_WEIGHT * len(form.fields)
            context.repeats.shown(component, weight, page.at(anchor), page.name)
    return Elicitation(
        name=name,
        anchor=anchor,
        mode=string(data, "mode") or "form",
        message=string(data, "message") or "",
        when=string(data, "when"),
        on_decline=string(data, "onDecline"),
        on_cancel=string(data, "onCancel"),
        url=string(data, "url"),
        scope=Scope(declared.scope, declared.scope_is_explicit),
        form=form,
        schema_json=schema_json,
        schema_component=component,
        extensions=extensions(data),
        schema_elsewhere=elsewhere,
    )
