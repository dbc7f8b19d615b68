"""The page model: records (frozen dataclasses, :mod:`mcpdesc_docs.records`) that
templates receive instead of the raw description.

They are built once (``model.builder.build_site``) from a validated description: component
references resolved, effective protocol scopes taken over, security inheritance worked out,
schemas turned into rows and form previews, free-form data pretty-printed.

The model holds facts, not sentences: where a page says something in words ("Read-only",
"Inherited from the server."), the model says which case applies and
``templates/partials/words.html`` words it, so a theme can reword it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field

from ..kinds import BY_NAME
from ..records import record
from .forms import FormPreview
from .install import Install
from .risk import RiskMark, risk_marks
from .schema_tree import SchemaTree, ShownElsewhere

# --- small shared pieces ---------------------------------------------------------------


@record
class Scope:
    versions: tuple[str, ...]
    explicit: bool
    """Declared with ``protocolVersions`` (else inherited from the parent)."""

    @property
    def attribute(self) -> str:
        """The value of the ``data-protocol-versions`` hook."""
        return " ".join(self.versions)


@record
class JsonItem:
    """A labelled value shown as data (extensions, ``_meta``, example payloads)."""

    label: str
    json: str


@record
class Icon:
    src: str
    mime_type: str | None
    sizes: tuple[str, ...]
    theme: str | None
    extensions: tuple[JsonItem, ...]


@record
class Link:
    """A URL from the description. It becomes a hyperlink only when ``safe``."""

    url: str
    safe: bool


@record
class TagRef:
    name: str
    anchor: str
    declared: bool


@record
class Hint:
    """A tool's behaviour hint that the description sets (``readOnlyHint: true``)."""

    key: str
    value: bool

    @property
    def raw(self) -> str:
        """The hint as written in the description."""
        return f"{self.key}: {'true' if self.value else 'false'}"


@record
class ResourceAnnotation:
    """A resource annotation with a defined meaning."""

    key: str
    """``audience``, ``priority`` or ``lastModified``."""
    values: tuple[str, ...]
    """The audience's roles (possibly none); the one priority (as a number) or date."""


# --- security --------------------------------------------------------------------------


@record
class RequirementTerm:
    scheme: str
    scopes: tuple[str, ...]
    anchor: str


@record
class Alternative:
    terms: tuple[RequirementTerm, ...]
    """All must hold; empty means anonymous access is an accepted alternative."""


@record
class Requirement:
    alternatives: tuple[Alternative, ...]
    """Any one suffices. Empty: authentication explicitly not required (``security: []``)."""


@record
class TransportSecurity:
    transport_type: str | None
    """The transport's ``type``; None on the entry for every other transport (origin ``root``)."""
    requirement: Requirement | None
    origin: str
    """transport (its own) | inherited (the server's) | none | root (the server's default,
    listed beside the transports that replace it)."""


@record
class SecurityView:
    origin: str
    """own | cleared | inherited | none."""
    subject: str
    """What the view is of: ``server``, ``transport`` or a primitive kind (``tool`` ...)."""
    server_default: bool
    """Whether the server declares a default requirement (root ``security``)."""
    requirement: Requirement | None
    by_transport: tuple[TransportSecurity, ...] = ()
    """When inherited and a transport declares its own requirement: what applies per
    transport. On the server's view: the transports that declare their own."""
    listed_at: str | None = None
    """An inherited requirement too long to repeat on every page that inherits it: where
    it is shown in full (then ``requirement`` is None and ``by_transport`` empty)."""
    via_transports: bool = False
    """With ``listed_at``: whether some transports replace the server's requirement."""


@record
class OAuthFlow:
    kind: str
    """``authorizationCode``, ``clientCredentials``, ``implicit`` or ``password``."""
    authorization_url: str | None
    token_url: str | None
    refresh_url: str | None
    scopes: tuple[tuple[str, str], ...]
    extensions: tuple[JsonItem, ...]


@record
class SecurityScheme:
    name: str
    anchor: str
    type: str
    description: str | None
    details: tuple[tuple[str, str], ...]
    """(member, value) of the scheme's string members (``scheme``, ``bearerFormat`` ...)."""
    flows: tuple[OAuthFlow, ...]
    extensions: tuple[JsonItem, ...]


# --- server-level pieces ---------------------------------------------------------------


@record
class Transport:
    """One way to connect. The values a reader copies (url, command, args, command_line,
    env) have their invisible and direction-changing characters written as visible escapes
    (``\\u202e``), so what a page shows is what Copy gives."""

    index: int
    anchor: str
    type: str
    url: str | None
    command: str | None
    args: tuple[str, ...]
    command_line: str | None
    env: tuple[tuple[str, str], ...]
    hidden_characters: bool
    """Whether any of those values had such characters (the page says so)."""
    scope: Scope
    security: SecurityView | None
    legacy: bool
    extensions: tuple[JsonItem, ...]
    client_config: str
    """The ``mcpServers`` entry MCP clients read to connect this way (JSON), secrets as
    placeholders (the install panel's "Other" tab)."""
    install: Install | None
    """The install panel's tabs; None after the first ``install.PANELS`` transports."""


@record
class CapabilityFlag:
    name: str
    """A flag with a defined meaning: ``listChanged`` or ``subscribe``."""
    value: bool


@record
class CapabilityEntry:
    name: str
    flags: tuple[CapabilityFlag, ...]
    json: str | None
    """The value as data when it carries more than the flags."""


@record
class CapabilitySet:
    anchor: str
    scope: Scope
    entries: tuple[CapabilityEntry, ...]
    extensions: tuple[JsonItem, ...]


@record
class Tag:
    name: str
    anchor: str
    description: str | None
    extensions: tuple[JsonItem, ...]
    path: str = ""
    """The tag's page, e.g. ``tags/reporting.html``."""


@record
class Contact:
    name: str | None
    url: Link | None
    email: str | None
    extensions: tuple[JsonItem, ...]


@record
class License:
    name: str
    url: Link | None
    extensions: tuple[JsonItem, ...]


@record
class Server:
    name: str
    title: str
    version: str
    description: str | None
    id: str | None
    icons: tuple[Icon, ...]
    website: Link | None
    contact: Contact | None
    license: License | None
    extensions: tuple[JsonItem, ...]


@record
class Component:
    namespace: str
    name: str
    anchor: str
    json: str
    used_by: tuple[str, ...]
    """Pointers of the use sites that reference it."""


# --- primitives ------------------------------------------------------------------------


@record
class Elicitation:
    name: str
    anchor: str
    mode: str
    message: str
    when: str | None
    on_decline: str | None
    on_cancel: str | None
    url: str | None
    """URL mode only. Shown as text, never as a link or in a loading attribute."""
    scope: Scope
    form: FormPreview | None
    schema_json: str | None
    schema_component: str | None
    extensions: tuple[JsonItem, ...]
    schema_elsewhere: ShownElsewhere | None = None
    """Set (with no form or JSON) when the schema's component is shown on another page."""


@record
class CodeSample:
    """The request written for one client: ``key`` is ``jsonrpc``, ``python`` (the Python
    SDK), ``typescript`` (the TypeScript SDK) or ``curl`` (an HTTP transport)."""

    key: str
    code: str
    language: str
    """What ``highlight`` is asked for (``json``; others are shown plain)."""


@record
class RequestSample:
    """The JSON-RPC request a client sends to use a primitive."""

    method: str
    """``tools/call``, ``resources/read`` or ``prompts/get``."""
    json: str
    example: str | None
    """The example whose arguments (or URI) it carries; None: values from the schema."""
    samples: tuple[CodeSample, ...] = ()
    """The same request as each client writes it, the JSON-RPC message first."""


@record
class ExamplePart:
    key: str
    """The example member shown: ``uri``, ``input``, ``arguments`` or ``result``; or
    ``embedded``: a JSON text inside the result, formatted."""
    json: str
    """The value as data (a ``uri`` as it is)."""
    source: str | None = None
    """``embedded`` parts: the JSON Pointer of the text in the example."""
    media_type: str | None = None
    """``embedded`` parts: the text's ``mimeType``."""


@record
class ResultBlock:
    """One piece of an example's result as a reader reads it (``results.py``)."""

    kind: str
    """``text``, ``markdown``, ``json`` (formatted), ``media`` (``text``: its size in
    bytes, when known), ``link`` (``text``: its description), ``fields`` (``rows``:
    structuredContent's members) or ``data`` (a block of a type without a reading)."""
    text: str = ""
    rows: tuple[tuple[str, str], ...] = ()
    role: str | None = None
    """A prompt message's role (user, assistant)."""
    uri: str | None = None
    media_type: str | None = None
    name: str | None = None


@record
class Example:
    name: str
    anchor: str
    component: str | None
    parts: tuple[ExamplePart, ...]
    is_error: bool
    extensions: tuple[JsonItem, ...]
    shown_elsewhere: ShownElsewhere | None = None
    readable: tuple[ResultBlock, ...] = ()
    """The result as a reader reads it; the JSON parts hold it as data."""
    """Set (with no parts) when the example's component is shown on another page."""


@record
class Step:
    number: int
    type: str
    """``elicitation``, ``sampling``, ``roots`` (or what the description says)."""
    declaration: str | None
    declaration_anchor: str | None
    mode: str | None
    """Elicitation steps: the request's mode (``form`` when it names none)."""
    action: str | None
    """Elicitation steps: the user's answer (``accept``, ``decline``, ``cancel``)."""
    model: str | None
    """Sampling steps: the model the client answers with."""
    roots: int | None
    """Roots steps: how many roots the client lists."""
    request: str
    response: str
    extensions: tuple[JsonItem, ...]


@record
class InteractionExample:
    name: str
    anchor: str
    input: str
    steps: tuple[Step, ...]
    result: str
    is_error: bool
    extensions: tuple[JsonItem, ...]


@record
class CompletionExample:
    name: str
    anchor: str
    argument: str
    value: str
    context: tuple[tuple[str, str], ...]
    values: tuple[str, ...]
    total: str | None
    has_more: bool | None
    result_extra: str | None
    """Result members beyond the completion values (``_meta``, ``resultType``), as data."""
    extensions: tuple[JsonItem, ...]


@record
class PromptArgument:
    name: str
    title: str | None
    description: str | None
    required: bool
    extensions: tuple[JsonItem, ...]


@record
class Variant:
    """One declaration. Several share a page when they declare the same identity for
    disjoint protocol scopes."""

    kind: str
    pointer: str
    anchor: str
    """The section id on the page (``declaration`` for a single variant)."""
    name: str
    title: str | None
    description: str | None
    scope: Scope
    deprecated: bool
    tags: tuple[TagRef, ...]
    icons: tuple[Icon, ...]
    hints: tuple[Hint, ...]
    resource_annotations: tuple[ResourceAnnotation, ...]
    annotation_extras: tuple[JsonItem, ...]
    """Annotation members without a defined meaning: kept as data."""
    annotation_title: str | None
    """A tool's ``annotations.title`` when its own ``title`` differs (and so is shown instead)."""
    request: RequestSample
    """The request a client sends to use it, for readers to copy."""
    security: SecurityView
    client_requirements: JsonItem | None
    client_requirement_names: tuple[str, ...]
    elicitations: tuple[Elicitation, ...]
    examples: tuple[Example, ...]
    interaction_examples: tuple[InteractionExample, ...]
    completion_examples: tuple[CompletionExample, ...]
    input_schema: SchemaTree | None = None
    output_schema: SchemaTree | None = None
    execution: str | None = None
    uri: str | None = None
    uri_template: str | None = None
    mime_type: str | None = None
    size: str | None = None
    arguments: tuple[PromptArgument, ...] = ()
    meta: str | None = None
    extensions: tuple[JsonItem, ...] = ()

    @property
    def display_title(self) -> str:
        # An empty name is allowed (with a warning) for all but tools: the page still needs
        # a heading, and the address is what a reader would look it up by.
        address = self.uri or self.uri_template
        return self.title or self.name or address or f"Unnamed {BY_NAME[self.kind].singular.lower()}"


def newest(variant: Variant) -> str:
    """The newest protocol version a variant is for (dated versions sort as text)."""
    return max(variant.scope.versions, default="")


@record
class Change:
    """One facet a variant changes from the variant before it."""

    facet: str
    """title, description, hints, uri, icons, security, deprecated, parameters, output,
    arguments, elicitations or examples."""
    added: tuple[str, ...] = ()
    """Names (parameters, arguments, cards, examples) this variant has and the other not."""
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    how: str = ""
    """For a facet without names (title, description ...): ``added`` (the other variant
    has none), ``removed`` (this one has none) or ``changed``."""


@record
class VariantChanges:
    against: tuple[str, ...]
    """The protocol versions of the variant compared with (the one before)."""
    changes: tuple[Change, ...]
    """Empty: the same declaration for other protocol versions."""

    since: str = ""
    """The first protocol version of the variant these changes lead to ("changed in ...")."""

    def unchanged(self, facet: str) -> bool:
        """Whether this variant's ``facet`` is the one before's."""
        return all(change.facet != facet for change in self.changes)


@record
class Page:
    kind: str
    name: str
    """The ``data-name`` hook: the primitive's name."""
    slug: str
    path: str
    """Relative to the site root, POSIX separators."""
    variants: tuple[Variant, ...]
    scope: Scope
    """The union of the variants' scopes."""
    changes: tuple[VariantChanges | None, ...] = ()
    """Per variant, what differs from the variant for the protocol versions just before
    its own (None for the oldest)."""

    # Worked out once, from the variants (every list a page appears in asks for them:
    # the sidebar of each neighbour, the catalogue, its tags, llms.txt, the search index).
    title: str = field(init=False, compare=False)
    label: str = field(init=False, compare=False)
    """What lists call it: the name, or the title when the name is empty."""
    summary: str | None = field(init=False, compare=False)
    """The first sentence of the first variant's description that has one."""
    deprecated: bool = field(init=False, compare=False)
    """Every variant is deprecated."""
    tag_names: tuple[str, ...] = field(init=False, compare=False)
    """The variants' tags, each once, in the order they first appear."""
    elicitation_count: int = field(init=False, compare=False)
    risk: tuple[RiskMark, ...] = field(init=False, compare=False)
    """A tool's behaviour marks (its newest variant's hints, declared or implied); empty
    for other kinds."""
    newest_first: tuple[int, ...] = field(init=False, compare=False)
    """Indexes of ``variants``, the variant for the newest protocol versions first: the
    order a page shows them in (the first is the tab a reader sees first)."""

    def __post_init__(self) -> None:
        newest_first = tuple(sorted(range(len(self.variants)), key=lambda i: newest(self.variants[i]), reverse=True))
        title = self.variants[newest_first[0]].display_title
        described = next((v.description for v in self.variants if v.description), None)
        tags: dict[str, None] = {}
        for variant in self.variants:
            for tag in variant.tags:
                tags.setdefault(tag.name, None)
        derived = {
            "title": title,
            "label": self.name or title,
            "summary": first_sentence(described) if described else None,
            "deprecated": all(v.deprecated for v in self.variants),
            "tag_names": tuple(tags),
            "elicitation_count": sum(len(v.elicitations) for v in self.variants),
            "risk": risk_marks((h.key, h.value) for h in self.variants[newest_first[0]].hints)
            if self.kind == "tool"
            else (),
            "newest_first": newest_first,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)


CHANGES_PATH = "changes.html"


@record
class ChangeEntry:
    level: str
    """``breaking``, ``non-breaking`` or ``documentation``."""
    message: str
    member: str
    versions: tuple[str, ...]
    old_pointer: str | None
    new_pointer: str | None
    old_value: str | None
    """Compact JSON, clipped; None where the member does not exist."""
    new_value: str | None


@record
class ChangeGroup:
    """The changes of one primitive (or of the server itself), in the order of seriousness."""

    label: str
    """``tool create_ticket``, or "" for the server."""
    anchor: str
    page: Page | None
    """The primitive's page in this site (None: it was removed, or the server)."""
    level: str
    """The most serious level among its changes."""
    entries: tuple[ChangeEntry, ...]


@record
class ChangeLog:
    since: str
    """What the page says the changes are since: the previous ``info.version``, else the
    previous description's name."""
    previous: str
    verdict: str
    counts: tuple[tuple[str, int], ...]
    groups: tuple[ChangeGroup, ...]
    path: str = CHANGES_PATH
    by_page: Mapping[str, ChangeGroup] = field(default_factory=dict, compare=False)
    """Page path -> its group (each changed primitive's page links to it)."""

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)


@record
class Site:
    server: Server
    specification: str
    """The rules the description was validated against, e.g. ``0.9.0-rc.3``."""
    mcpdesc: str
    schema_uri: str | None
    protocol_versions: tuple[str, ...]
    instructions: str | None
    transports: tuple[Transport, ...]
    security_schemes: tuple[SecurityScheme, ...]
    security: SecurityView
    capabilities: tuple[CapabilitySet, ...]
    tags: tuple[Tag, ...]
    pages: tuple[Page, ...]
    components: tuple[Component, ...]
    extensions: tuple[JsonItem, ...]
    legacy_format: str | None = None
    """The older format version a description was written in (0.7.0), shown in the header."""
    changelog: ChangeLog | None = None
    """What changed since the previous description the config names (``changes.html``)."""
    _index: _SiteIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Templates ask these once per tag, tag reference and kind: looked up in an index
        # made once, not by scanning every page (or tag) each time, which is quadratic.
        object.__setattr__(self, "_index", _SiteIndex(self.pages, self.tags))

    def pages_of(self, kind: str) -> tuple[Page, ...]:
        """Document order, deprecated pages last."""
        return self._index.by_kind.get(kind, ())

    def pages_tagged(self, tag: str, kind: str | None = None) -> tuple[Page, ...]:
        """Pages with the tag (of one ``kind``, if given): ordered as ``pages_of``."""
        if kind is None:
            return self._index.by_tag.get(tag, ())
        return self._index.by_tag_and_kind.get((tag, kind), ())

    def tag_path(self, name: str) -> str | None:
        return self._index.tag_paths.get(name)


class _SiteIndex:
    """The site's pages by kind and by tag, and its tags' paths by name."""

    __slots__ = ("by_kind", "by_tag", "by_tag_and_kind", "tag_paths")

    def __init__(self, pages: tuple[Page, ...], tags: tuple[Tag, ...]) -> None:
        by_kind: dict[str, list[Page]] = {}
        by_tag: dict[str, list[Page]] = {}
        for page in pages:
            by_kind.setdefault(page.kind, []).append(page)
            for name in page.tag_names:
                by_tag.setdefault(name, []).append(page)

        def ordered(group: list[Page]) -> tuple[Page, ...]:
            return tuple(sorted(group, key=lambda p: p.deprecated))  # stable: document order

        self.by_kind = {kind: ordered(group) for kind, group in by_kind.items()}
        self.by_tag = {name: ordered(group) for name, group in by_tag.items()}
        by_tag_and_kind: dict[tuple[str, str], list[Page]] = {}
        for name, group in self.by_tag.items():
            for page in group:
                by_tag_and_kind.setdefault((name, page.kind), []).append(page)
        self.by_tag_and_kind = {key: tuple(group) for key, group in by_tag_and_kind.items()}
        self.tag_paths: dict[str, str] = {}
        for tag in tags:
            self.tag_paths.setdefault(tag.name, tag.path)


# --- summaries ----------------------------------------------------------------------------

MAX_LABEL = 160
"""Characters of a name or title where it is repeated on other pages (sidebars, the header,
tag lists, previous/next links, search results): in full on its own page, clipped there, so
one long string is not copied onto every page."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_LEADING_SPACE = re.compile(r"\s*")


def label(text: str) -> str:
    """``text`` clipped to ``MAX_LABEL`` characters, for places that repeat it."""
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1].rstrip() + "…"


def first_sentence(text: str, limit: int = 160) -> str:
    """The first sentence of the first paragraph, for catalogue summaries."""
    # Only the start can show, so only a window of it is read: a summary is asked for on
    # every list a page appears in (catalogue, each of its tags, llms.txt) and must not
    # cost the whole text each time. The window changes the result only for a first
    # paragraph with a run of 3 * limit blanks, where the text after them is left out.
    start = _LEADING_SPACE.match(text).end()  # type: ignore[union-attr]  # \s* always matches
    window = text[start : start + 4 * limit]
    paragraph = window.strip().split("\n\n", 1)[0].replace("\n", " ").strip()
    sentence = _SENTENCE_END.split(paragraph, 1)[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


__all__ = ["Page", "Site", "Variant", "first_sentence", "label"]
