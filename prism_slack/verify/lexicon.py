"""Word lists the verifier reads. Data only: every rule that uses them lives elsewhere.

- ``STOP_WORDS``: words that carry no content (function words, auxiliaries, reporting
  verbs, hedges). They never count toward a fact's content words (check 7).
- ``COMMON_WORDS``: ordinary English words that may open a sentence. A capitalised first
  word of a sentence is *not* taken for a name when its lower-case form is here (or is
  written in lower case anywhere in the report) — ``Revenue``, ``Ask``, ``Only``.
- ``NOT_NAMES``: capitalised tokens that are never names: pronouns, months and weekdays,
  generic business and tech acronyms (``CRM``, ``ARR``, ``SaaS``), honorifics.
- ``ROLE_WORDS``: job-title words. A capitalised run made only of these (``Chief Financial
  Officer``) is a role, not a name; roles are checked as attribute words instead.
- ``MEASURES``: measure concepts and their surface forms (check 7's strict tier).
- ``SYNONYMS``: looser groups used only when counting a fact's content words.
"""

from __future__ import annotations

from importlib import resources
from typing import cast

import yaml

from prism_slack import language
from prism_slack.verdict import Relation


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOP_WORDS = language.STOP_WORDS


DIRECTION_UP = _words(
    """
    accelerate accelerated accelerates accelerating climb climbed climbing climbs expand
    expanded expanding expands gain gained gaining gains grew grow growing grown grows
    improve improved improves improving increase increased increases increasing jump
    jumped jumping jumps rebound rebounded rebounding rebounds rise risen rises rising rose
    soar soared soaring soars surge surged surges surging up
    """
)
DIRECTION_DOWN = _words(
    """
    backward backwards contracted decline declined declines declining decrease decreased
    decreases decreasing dip dipped dipping dips down drop dropped dropping drops dwindle
    dwindled dwindles
    dwindling fall fallen falling falls fell negative plunge plunged plunges plunging sank
    shrank shrink shrinking shrinks shrunk shrunken sink sinking sinks slid slide slides
    sliding slip slipped slipping slips slump slumped slumping slumps sunk tumble tumbled
    tumbles tumbling
    """
)
"""Direction words: every form of each verb (not ``contract``: a noun first). Written out,
so importing the verifier does not load lemminflect."""
NEGATORS = _words("negative minus")
TREND_PATH_WORDS = _words("growth change yoy trend")
"""Path words of a field that holds a measure's change (``revenue_growth_pct``): a
direction word about that measure anywhere in a claim must agree with its sign."""
EXCLUSIVE_MEASURES = (frozenset({"nrr", "grr"}), frozenset({"mobile", "desktop"}))
"""Measures of one thing that exclude each other: a claim naming one cannot be about a
field that holds the other."""
RETENTION_CONCEPTS = frozenset({"nrr", "grr", "retention"})
"""Measures of what a base kept of itself a year on: 100% is flat, above it the base grew
(``net revenue retention at 108.5%``), below it the base shrank."""
BASE_CONCEPTS = frozenset({"customers", "revenue"})
BASE_WORDS = _words("base book")
"""Words for the base a retention measures (``their customer base is shrinking``)."""
SELF_WORDS = _words("company business firm group organisation organization")
"""What a claim calls the prospect itself (``the group has fourteen hotels``): no field's
word, though a key says it (``channel_mix.groups``)."""
BOUNDARY_WORDS = _words("from since until till")
BOUNDARY_VERBS = _words("begin start end finish close open commence conclude launch")
"""Words that speak of a period's start or end, not all of it (``the audit period began
in Q1 2025``); without one, a period a claim names must be a cited range whole."""
LEVEL_MARKERS = _words("to from at")
PHRASAL_HEADS = _words(
    "turn turns turned turning shut shuts break breaks broke set sets sign signs signed "
    "pick picks show shows back backs follow follows take takes took make makes made end ends "
    "ended sum sums add adds hook hooks hooked hooking"
)
"""Verbs that make ``down``/``up`` part of a phrase (``turn down 6.4% of tenders``)."""
PARTICLES = _words("off out away through apart")
"""Particles that make a direction verb before them another verb (``drop out``)."""
"""A number right after one of these is a level (``fell to 3%``), not a change."""

CLAUSE_BREAKS = _words(
    """
    and but while whereas although though with versus vs against plus or which whose
    where than
    """
)
"""Words that end a number's context window: what comes after one is another clause."""

NEGATION_WORDS = _words("no not never without")
DENIAL_SKIPS = _words("be is are was were been the a an any from have has had do does did")
"""Words between a negator and what it denies (``do not have a bronze``)."""
ABSENT_VALUES = frozenset({"", "none", "no", "0", "-", "n / a", "n/a", "nil", "nan"})
"""Cell values that say a thing is absent: denying it is no contradiction."""
ABSENT_WORDS = _words("no none")
"""A text value of one of these says the thing its key names is absent."""
BE_VERBS = _words("be is are was were been")
RELATION_LINKS = _words("be is are was were been the a an as of by in at")
"""Words that may stand between a value and the words naming what it is (``a crowd of
11.11``, ``footscray be the home team``): check 7's relation rule looks past them."""

NEGATIVE_SENSE = _words("loss losses decline declines decrease decreases drop drops deficit")
"""Path words that make a positive stored value a decrease (``net_loss_usd``)."""

BOUNDS: dict[str, str] = {
    "more than": "gt",
    "greater than": "gt",
    "over": "gt",
    "above": "gt",
    "just over": "gt",
    "in excess of": "gt",
    "upwards of": "gt",
    "north of": "gt",
    "exceeding": "gt",
    "exceeds": "gt",
    "at least": "ge",
    "fewer than": "lt",
    "less than": "lt",
    "under": "lt",
    "just under": "lt",
    "shy of": "lt",
    "just shy of": "lt",
    "short of": "lt",
    "below": "lt",
    "at most": "le",
    "up to": "le",
    "no more than": "le",
    "as much as": "le",
    "as many as": "le",
    "as high as": "le",
    "as long as": "le",
    "as little as": "ge",
    "as few as": "ge",
    "as low as": "ge",
}
NEAR_BOUND_WORDS = ("just", "slightly", "a little", "a bit")
"""Words before a bound that put the value close to it (``just over 3,100``)."""
BOUNDS |= {
    f"{near} {bound}": BOUNDS[bound]
    for near in NEAR_BOUND_WORDS
    for bound in ("over", "under", "above", "below", "more than", "less than", "fewer than")
}
FREQUENCY_WORDS = _words("every each")
PERIOD_WORDS = _words(
    "hour hours day days night nights morning mornings evening evenings week weeks weekend "
    "weekends month months quarter quarters year years season seasons shift shifts"
)
"""``every``/``each`` before one of these says how often (``every month``), not how many."""
HEDGES = frozenset(
    {
        "about",
        "around",
        "approximately",
        "approx",
        "roughly",
        "nearly",
        "almost",
        "circa",
        "some",
        "close to",
        "something like",
        "in the region of",
        "~",
    }
)

NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
OPTIONAL_NUMBER_WORDS = frozenset({"one"})
"""In a claim, ``one`` is far more often a pronoun (``one of their vendors``) than a count:
it is read (so claim and report split their sentences alike) but need not be warranted."""

MONTHS: dict[str, int] = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
WEEKDAYS = _words(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur "
    "thurs fri sat sun"
)
TEMPORAL_PREPOSITIONS = _words(
    "in on since by until till from of early late mid through before after during last "
    "next this each every"
)
"""A bare ``May`` is a month only right after one of these (``in May``, not ``May I``)."""

QUARTER_WORDS: dict[str, int] = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
}

NOT_NAMES = _words(
    """
    i a an the this that these those their they them its it our we you your he she his
    her my me mr mrs ms dr prof sir st
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    monday tuesday wednesday thursday friday saturday sunday
    ceo cfo cto coo cmo cro cio ciso cdo cpo cmio cso chro vp svp evp avp gm md
    arr mrr acv tcv nrr grr ndr cac ltv clv roi kpi kpis okr okrs nps csat ces aov gmv
    arpu ebitda capex opex cogs sga dso dpo yoy qoq mom wow ytd mtd fy eod eoy
    saas paas iaas b2b b2c d2c dtc smb smbs sme mid enterprise
    crm erp cdp cms esp pim oms wms tms ehr emr lms hris ats pos bi etl elt cdn dns
    api apis sdk sdks sla slas sso saml mfa pii phi it hr pr ux ui qa ai ml llm
    seo sem ppc cpc cpa cpm ctr cta roas
    mql mqls sql sqls sqo sdr sdrs bdr bdrs ae aes csm csms am
    rfp rfps rfi rfq poc pocs pov msa sow nda dpa baa qbr qbrs ebr
    p&l faq faqs url urls pdf csv ok id ids
    against despite versus via per
    usd eur gbp us$
    """
)

ROLE_WORDS = _words(
    """
    chief officer executive president vice senior junior principal lead head director
    manager founder co-founder cofounder owner partner counsel general architect engineer
    analyst specialist coordinator administrator consultant advisor adviser associate
    assistant deputy interim acting global regional group team staff board member
    financial finance technology technical information security operating operations
    marketing revenue sales digital data product products growth procurement legal
    medical people customer customers experience success support commercial strategy
    engineering it hr
    """
)

CONNECTORS = _words("of & de van von der den da di du la le del y")
"""Lower-case words that may sit inside a name (``Head of Growth``, ``Tamarack & Pine``)."""

LEGAL_SUFFIXES = _words(
    "inc incorporated llc ltd limited corp corporation co gmbh ag sa plc llp lp bv nv pty "
    "oy ab sas srl kk"
)

GENERIC_IDENTIFIERS = _words(
    "2fa b2b b2c d2c 3pl 4pl 24x7 p2p 3d 2d 4g 5g 401k k8s p50 p75 p90 p95 p99 p999"
)
"""Letter-and-digit tokens that are vocabulary, not identifiers of anything."""

MEASURES: dict[str, tuple[str, ...]] = {
    "revenue": ("revenue", "revenues", "sales", "top line", "topline", "turnover"),
    "arr": ("arr", "annual recurring revenue"),
    "mrr": ("mrr", "monthly recurring revenue"),
    "nrr": ("nrr", "net revenue retention", "net dollar retention", "ndr"),
    "grr": ("grr", "gross revenue retention"),
    "margin": ("margin", "margins", "profitability", "operating margin"),
    "profit": ("profit", "profits", "earnings", "net income", "income", "operating income",
               "operating profit", "operating loss"),
    "ebitda": ("ebitda",),
    "growth": ("growth",),
    "churn": ("churn", "churned", "churning", "attrition", "cancellation", "cancellations"),
    "retention": ("retention", "retained"),
    "conversion": ("conversion", "conversions", "convert", "converts", "converted",
                   "converting"),
    "trial": ("trial", "trials"),
    "headcount": ("employees", "employee", "headcount", "staff", "workforce", "fte", "ftes",
                  "employs", "employ"),
    "customers": ("customers", "customer", "clients", "client"),
    "sessions": ("sessions", "session", "visits", "visitors", "traffic", "pageviews",
                 "page views"),
    "latency": ("latency", "load time", "load times", "page load", "response time", "lag"),
    "uptime": ("uptime", "availability"),
    "budget": ("budget", "budgets", "spend", "spending"),
    "cost": ("cost", "costs", "expense", "expenses", "capex", "opex", "operating expense",
             "operating expenses", "operating cost", "operating costs"),
    "price": ("price", "prices", "pricing"),
    "cash": ("cash", "runway"),
    "tickets": ("ticket", "tickets"),
    "score": ("score", "scores", "scored", "grade"),  # not "rated": it stems to "rate"
    "nps": ("nps", "net promoter score"),
    "csat": ("csat", "customer satisfaction"),
    "aov": ("aov", "average order value"),
    "acv": ("acv", "average contract value"),
    "cac": ("cac", "customer acquisition cost"),
    "ltv": ("ltv", "lifetime value", "clv"),
    "abandonment": ("abandonment", "abandoned", "abandon", "abandons"),
    "denial": ("denial", "denials", "denied"),
    "no_show": ("no show", "no shows", "noshow", "noshows"),
    "area": ("sq ft", "sqft", "square feet", "square foot", "square footage"),
    "dispute": ("dispute", "disputes", "disputed"),
    "gross": ("gross",),
    "net": ("net",),
    "operating": ("operating margin", "operating income", "operating profit", "operating loss",
                  "operating expense", "operating expenses", "operating cost", "operating costs",
                  "opex"),
    "monthly": ("monthly", "per month", "a month", "each month", "every month"),
    "quarterly": ("quarterly", "per quarter", "a quarter", "each quarter"),
    "weekly": ("weekly", "per week", "a week", "each week"),
    "daily": ("daily", "per day", "a day", "each day"),
    "mobile": ("mobile", "smartphone", "smartphones"),
    "desktop": ("desktop",),
    "average": ("average", "avg"),  # not "mean": "this means …"
    "median": ("median",),
    "peak": ("peak", "peaks", "peaking"),
    "p50": ("p50", "50th percentile"),
    "p75": ("p75", "75th percentile"),
    "p90": ("p90", "90th percentile"),
    "p95": ("p95", "95th percentile"),
    "p99": ("p99", "99th percentile"),
    "ecommerce": ("ecommerce", "e commerce", "storefront", "storefronts"),
    "membership": ("membership", "memberships", "members", "member"),
    "critical": ("critical", "severe"),
    "ceo": ("ceo", "chief executive officer", "chief executive"),
    "cfo": ("cfo", "chief financial officer", "finance chief"),
    "cto": ("cto", "chief technology officer"),
    "coo": ("coo", "chief operating officer"),
    "cmo": ("cmo", "chief marketing officer"),
    "cro": ("cro", "chief revenue officer"),
    "cio": ("cio", "chief information officer"),
    "ciso": ("ciso", "chief information security officer"),
    "cdo": ("cdo", "chief digital officer", "chief data officer"),
    "cmio": ("cmio", "chief medical information officer"),
    "cpo": ("cpo", "chief product officer"),
    "vp": ("vp", "svp", "evp", "vice president", "senior vice president"),
    "director": ("director",),
    "head": ("head",),
    "manager": ("manager",),
    "counsel": ("counsel", "general counsel", "lawyer", "attorney"),
    "architect": ("architect",),
    "engineer": ("engineer",),
    "founder": ("founder", "co-founder", "cofounder"),
    "president": ("president",),
    "auditor": ("auditor",),
    "buyer": ("economic buyer", "buyer", "budget holder"),
    "champion": ("champion",),
    "blocker": ("blocker",),
    "influencer": ("influencer",),
    "evaluator": ("technical evaluator", "evaluator"),
}  # fmt: skip
"""Measure concepts. Every one a claim names must be found in its evidence (check 7)."""

ROLE_CONCEPTS = frozenset(
    {"ceo", "cfo", "cto", "coo", "cmo", "cro", "cio", "ciso", "cdo", "cmio", "cpo", "vp",
     "director", "head", "manager", "counsel", "architect", "engineer", "founder",
     "president", "auditor", "buyer", "champion", "blocker", "influencer", "evaluator",
     "critical"}
)  # fmt: skip
"""Measures of people and findings (titles, buying roles, severity), not of numbers: a
number's own clause is not bound by them (the whole fact still is)."""

REVERSE_QUALIFIERS = frozenset(
    {"gross", "net", "operating", "ebitda", "ecommerce", "membership", "mobile", "desktop",
     "monthly", "quarterly", "weekly", "daily", "average", "median", "p50", "p75", "p90",
     "p95", "p99", "area"}
)  # fmt: skip
"""Qualifiers a cited number's own field carries that a claim stating that number must say
when it names the measure: ``Revenue was $351M`` citing ``net_revenue_usd`` drops ``net``
and fails; ``Sessions are 6.8M`` citing ``monthly_sessions`` drops ``monthly``."""
QUANTITY_QUALIFIERS = frozenset(
    {"monthly", "quarterly", "weekly", "daily", "median", "p50", "p75", "p90", "p95", "p99"}
)  # fmt: skip
"""Qualifiers that change the quantity itself: a claim dropping one always misstates it.
A dropped ``average`` fails only when another field holds the measure otherwise
qualified: a time or an amount said plainly is read as the typical one.
Dropping another (``gross``, ``net``) fails only when another field of the report holds
the measure with other qualifiers (``VerifierIndex.requalified``)."""

IMPLICIT_QUALIFIERS = frozenset({"average"})
"""Qualifiers a claim that names no measure may leave unsaid (``VerifierIndex.requalified``)."""

SYNONYMS: dict[str, tuple[str, ...]] = {
    "vendor": ("vendor", "vendors", "provider", "providers", "platform", "platforms",
               "tool", "tools", "supplier", "suppliers", "software", "stack", "solution",
               "system", "systems"),
    "stakeholder": ("people", "person", "stakeholder", "stakeholders", "contact", "contacts",
                    "decision maker", "decision makers"),
    "finding": ("finding", "findings", "issue", "issues", "problem", "problems", "risk",
                "risks", "gap", "gaps", "weakness", "weaknesses", "concern", "concerns"),
    "company": ("company", "business", "organisation", "organization", "firm"),
    "latency": ("slow", "slowly", "slower", "sluggish", "fast", "faster", "speed"),
    "email": ("email", "emails", "e-mail", "newsletter"),
    "customers": ("shopper", "shoppers", "patient", "patients", "shipper", "shippers",
                  "buyers", "users", "accounts", "logos"),
    "revenue": ("income", "bookings"),
    "headcount": ("people", "team"),
    "monthly": ("month",),
    "website": ("website", "site", "web", "storefront"),
    "hq": ("hq", "headquarters", "headquartered", "based", "head office", "located"),
    "help": ("help", "support", "self-service", "service"),
    "ecommerce": ("online", "web", "website", "digital", "direct to consumer", "dtc"),
    "founded": ("founded", "founding", "established", "incorporated", "formed", "started"),
    "dso": ("dso", "days sales outstanding", "sales outstanding"),  # "47 days sales …"
    "scale": ("max", "maximum", "scale", "top", "perfect", "ceiling"),
    "generated": ("generated", "dated", "issued", "published", "produced"),
    "score": ("score", "scores", "rating", "rated", "rates", "grade", "area"),
    "recency": ("last", "latest", "recent", "most recent", "newest"),
}  # fmt: skip
"""Looser groups, for counting a fact's content words only (never a strict requirement)."""

COMMON_WORDS = STOP_WORDS | _words(
    """
    ask asks open opens start starts lead leads use try push probe position frame anchor steer
    nudge press
    highlight emphasise emphasize focus avoid skip keep bring share quantify tie connect
    compare reference cite build map validate test challenge pivot close offer propose
    suggest send follow book schedule confirm acknowledge surface earn handle handles
    walk tell explain find look check consider remember expect prepare plan lean let
    put set treat raise flag point name invite loop align agree pitch present recap
    summarise summarize mirror reframe clarify dig learn understand get go see note
    only about roughly nearly almost around just over under more less most least
    first second third fourth next last final finally then after before once when while
    if unless because since though although however also additionally instead
    meanwhile today currently recently now yes no not none nothing nobody everyone
    someone anyone every each all both either neither few several many much
    annual annually monthly quarterly weekly daily yearly year years month months week
    weeks day days quarter quarters fiscal total average median overall net gross
    operating revenue revenues sales profit profits margin margins growth churn
    retention conversion conversions trial trials customer customers client clients
    employee employees headcount staff team teams people person stakeholder stakeholders
    contact contacts buyer buyers champion blocker influencer evaluator owner owners
    vendor vendors provider providers platform platforms tool tools software system
    systems stack solution solutions crm email emails search site website web mobile
    desktop app apps page pages product products checkout cart order orders price
    prices pricing cost costs spend spending budget budgets cash debt funding valuation
    score scores rating ratings security compliance performance privacy reliability
    accessibility data analytics reporting support service services help ticket tickets
    finding findings issue issues problem problems risk risks gap gaps weakness concern
    concerns opportunity opportunities recommendation recommendations priority
    priorities severity critical high medium low key main major minor biggest largest
    smallest best worst top bottom new old current previous former existing legacy
    manual automated online offline digital paid free organic direct indirect inbound
    outbound internal external public private shared single multiple various different
    similar same other another important urgent clear strong weak good bad slow fast
    long short large small big little full partial complete incomplete open closed live
    down up out in on at of for to by with from into onto this that these those their
    there here it its they them we our you your he she his her who what which why how
    where when whose whom shoppers patients shippers users user accounts account logos
    membership members member loyalty subscribers subscription subscriptions
    sessions traffic visits visitors latency load speed uptime availability
    invoices invoice payments payment returns return refunds refund denials disputes
    claims claim appointments appointment calls call portal scheduling booking
    bookings onboarding activation adoption engagement funnel pipeline deals deal
    contract contracts renewal renewals expansion upsell migration replatform
    integration integrations implementation rollout launch roadmap timeline deadline
    board leadership executive executives management manager managers director
    directors head heads chief officer officers president founder counsel engineer
    engineers architect analyst lead leads rep reps seller sellers sales marketing
    finance procurement legal operations engineering it hr
    turn write identify respect describe learn estimate size spell draw pull dig probe
    recap quote play replay reflect acknowledge qualify disqualify prioritise prioritize
    sequence reserve schedule request secure document capture listen pause reassure
    people buy buys change changes work works get gets frame frames move moves play
    plays question questions answer answers discovery call calls meeting meetings
    demo demos proposal proposals value values impact outcome outcomes goal goals
    """
)

IMPERATIVES = _words(
    "ask tell email call invite ping thank meet remind loop message brief cc contact text"
)
"""Verbs that open advice addressed to the rep: before a name (``Ask Dana``) they are
not part of it."""

OBJECT_STARTERS = _words(
    """
    the a an their your our his her its my them they it this that these those any each
    every all some no how what when where why who whom whether if to with for on about
    up out back down off me us you him one both either more most less
    """
)
"""Words that start an object: a capitalised sentence opener followed by one is a verb
(``Identify the buyer``, ``Respect their tool``), not a name (``Algolia indexes …``)."""

ORDINARY_SUFFIXES = (
    "ers", "ors", "ians", "ists", "ees", "ants", "ents", "ings", "ing", "ions", "ion",
    "ments", "ment", "ities", "ity", "ness", "ships", "ies", "ly", "ed", "ives", "ics",
)  # fmt: skip
"""Endings of ordinary English words (``Clinicians``, ``Drivers``, ``Scheduling``,
``Historically``): a capitalised sentence opener that ends in one is not taken for a name."""

GENERIC_FIELD_WORDS = _words(
    """
    rate rates rating ratings rated ratio share count total number time value level amount
    average score scores index per pct percent usd days months years max min first last
    new current
    """
)
"""Words that shape many field names without naming one (``…_rate``, ``…_count``)."""

SCALE_PATH_WORDS = _words("max maximum scale out_of outof range ceiling top")
"""A numeric leaf whose last key is one of these states a score's scale (``scores.max``)."""

PERCENT_PATH_WORDS = _words("pct percent percentage")
BASIS_POINT_PATH_WORDS = _words("bps bp")
FRACTION_PATH_WORDS = _words(
    "rate ratio share fraction proportion margin churn conversion retention yield"
)
FISCAL_PATH_WORDS = _words("fy fiscal")
LAST_PATH_WORDS = _words("last latest recent")
"""Path words of a field that holds when something last happened (``last_replatform_year``)."""


def _relations() -> dict[Relation, frozenset[str]]:
    text = resources.files("prism_slack.data").joinpath("relations.yaml").read_text("utf-8")
    raw = cast(dict[str, list[str]], yaml.safe_load(text))
    return {cast(Relation, k): frozenset(v) for k, v in raw.items()}


RELATION_WORDS = _relations()
"""Words that name each relation a derived figure may use (``data/relations.yaml``)."""

PARTIALS = _words("some most mostly many several few only rarely sometimes often majority minority")
"""Quantifiers over part of a group (``only ACH and Zelle``, ``most clinics``)."""
