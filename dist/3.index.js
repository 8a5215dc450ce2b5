export const id = 3;
export const ids = [3];
export const modules = {

/***/ 79003:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  errorInputOf: () => (/* reexport */ errorInputOf),
  runInputOf: () => (/* reexport */ runInputOf),
  writeRunPage: () => (/* binding */ writeRunPage)
});

// UNUSED EXPORTS: FleetFindings, writeFleetPage

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/common/files.js
var files = __webpack_require__(21976);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/client/index.js + 39 modules
var client = __webpack_require__(70953);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/render/rollup-markdown.js
var rollup_markdown = __webpack_require__(72979);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/common/findings.js
var common_findings = __webpack_require__(89609);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/gate/dispositions.js
var dispositions = __webpack_require__(25637);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/page-data.js
// The data a report page carries (docs/reports.md): plain JSON that the page's script reads and
// puts on screen as text. A run is a page of one tenant; a fleet, one of many with the roll-up's
// views. Every string of the service or of a record is in `strings` once, cleaned (strings.ts);
// the rest refers to it by index (-1: none), so that 10,000 findings of a few hundred checks stay
// small.
const page_data_PAGE_DATA_VERSION = 1;
/** A finding row's marks (bits). */
const FLAG = {
    /** It fails the gate. */
    gating: 1,
    new: 2,
    unchanged: 4,
    overdue: 8,
    waived: 16,
    /** Its failing streak reaches past the history read: failingSince is a lower bound. */
    beyondWindow: 32,
};

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/common/markdown.js
var markdown = __webpack_require__(17702);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/strings.js
// Service text as a report page holds it: escape sequences, control characters and the marks that
// reorder or hide text (bidi overrides, zero-width characters) stripped, key-shaped secrets and the
// run's own secrets redacted, cut to a bound. Each distinct string is stored once. The page puts
// them on screen as text only (page/dom.js); a help link must be https.


/** Bounds, in characters, of each kind of text. */
const strings_MAX_CHARS = {
    id: 200,
    title: 500,
    category: 120,
    /** Remediation and description: a paragraph or a few. */
    body: 4000,
    url: 2000,
    date: 40,
    line: 1000,
};
/** Cleans text that may span lines (line breaks and tabs kept). */
function cleanBlock(text, max, secrets = []) {
    const out = (0,client/* stripControls */.$Y)(text.replace(/\r\n?/g, '\n'));
    return (0,markdown/* cutChars */.oN)((0,client/* redact */.E$)(out, secrets).trim(), max);
}
/** Cleans text shown on one line (every run of white space one space). */
function cleanLine(text, max, secrets = []) {
    return cleanBlock(text.replace(/\s+/g, ' '), max, secrets);
}
/** The address as an https URL, or undefined: no other scheme becomes a link. */
function httpsAddress(address, secrets = []) {
    let url;
    try {
        url = new URL(cleanLine(address, strings_MAX_CHARS.url * 2, secrets));
    }
    catch {
        return undefined;
    }
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '')
        return undefined;
    return url.href.length <= strings_MAX_CHARS.url ? url.href : undefined;
}
/** The page's table of strings: each cleaned once, stored once, referred to by index. */
class strings_PageStrings {
    secrets;
    list = [];
    index = new Map();
    /** Text as given → its index, per kind and bound: a text repeated is cleaned once. */
    given = new Map();
    constructor(secrets = []) {
        this.secrets = secrets;
    }
    /** One-line text; -1 for none or empty. */
    line(text, max) {
        return text == null ? -1 : this.once(`l${max}`, text, () => cleanLine(text, max, this.secrets));
    }
    /** Text that may span lines; -1 for none or empty. */
    block(text, max) {
        return text == null
            ? -1
            : this.once(`b${max}`, text, () => cleanBlock(text, max, this.secrets));
    }
    once(kind, text, clean) {
        const key = `${kind}\u0000${text}`;
        const known = this.given.get(key);
        if (known !== undefined)
            return known;
        const index = this.add(clean());
        this.given.set(key, index);
        return index;
    }
    /** An https address; -1 for none or any other. */
    url(address) {
        if (address == null)
            return -1;
        return this.add(httpsAddress(address, this.secrets) ?? '');
    }
    /** Text the page shows directly (a headline, a fact): cleaned, not stored. */
    text(text, max = strings_MAX_CHARS.line) {
        return cleanLine(text, max, this.secrets);
    }
    add(clean) {
        if (clean === '')
            return -1;
        const known = this.index.get(clean);
        if (known !== undefined)
            return known;
        this.list.push(clean);
        this.index.set(clean, this.list.length - 1);
        return this.list.length - 1;
    }
}

;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/finding-rows.js
// A failed finding as a page's row (page-data.ts): from the gate's judgement of a run, or from a
// record a roll-up read. Both carry the same facts, so a tenant of a fleet reads like a run.




/** "false positive", "accepted risk" (a waiver that names none); a word this version does not
 *  know, from another version's record, as the record has it. */
function dispositionOf(waiver) {
    if (!waiver)
        return undefined;
    const { disposition } = waiver;
    if (disposition === undefined || (0,dispositions/* isDisposition */.QB)(disposition))
        return (0,dispositions/* dispositionWords */.bb)(disposition);
    return disposition;
}
function flagsOf(facts) {
    let flags = 0;
    if (facts.gating)
        flags |= FLAG.gating;
    if (facts.waiver)
        flags |= FLAG.waived;
    else if (facts.baselineState === 'new')
        flags |= FLAG.new;
    else if (facts.baselineState === 'unchanged')
        flags |= FLAG.unchanged;
    if (facts.overdue && !facts.waiver)
        flags |= FLAG.overdue;
    if (facts.beyondWindow)
        flags |= FLAG.beyondWindow;
    return flags;
}
function row(strings, facts) {
    return [
        strings.line(facts.check, strings_MAX_CHARS.id),
        strings.line(facts.title, strings_MAX_CHARS.title),
        (0,common_findings/* severityRank */.qs)(facts.severity),
        strings.line(facts.category, strings_MAX_CHARS.category),
        strings.block(facts.remediation, strings_MAX_CHARS.body),
        strings.url(facts.reference),
        strings.block(facts.description, strings_MAX_CHARS.body),
        flagsOf(facts),
        strings.line(facts.failingSince, strings_MAX_CHARS.date),
        strings.line(facts.dueAt, strings_MAX_CHARS.date),
        Number.isSafeInteger(facts.daysLeft) ? facts.daysLeft : -1,
        Number.isSafeInteger(facts.failingScans) ? facts.failingScans : -1,
        strings.line(facts.waiver?.reason, strings_MAX_CHARS.line),
        strings.line(facts.waiver?.expires, strings_MAX_CHARS.date),
        strings.line(facts.waiver?.owner, strings_MAX_CHARS.id),
        strings.line(dispositionOf(facts.waiver), strings_MAX_CHARS.id),
    ];
}
/** A run's failed finding as its gate judged it. */
function judgedRow(strings, finding) {
    const { age } = finding;
    return row(strings, {
        ...finding,
        check: finding.identity,
        overdue: age?.overdue,
        beyondWindow: age?.beyondWindow,
        failingSince: age?.failingSince,
        dueAt: age?.dueAt,
        daysLeft: age?.daysLeft,
        failingScans: age?.failingScans,
    });
}
/** Days from `now` to `dueAt` (negative: overdue by), rounded away from the day it falls due as
 *  the gate rounds them (gate/deadlines.ts); undefined when either is unknown. */
function daysLeftOf(dueAt, now) {
    const due = Date.parse(dueAt ?? '');
    const at = Date.parse(now ?? '');
    if (Number.isNaN(due) || Number.isNaN(at))
        return undefined;
    const left = due - at;
    return left >= 0 ? Math.ceil(left / 86_400_000) : -Math.ceil(-left / 86_400_000);
}
/** A failed finding of a record a roll-up read; `scanTime` is the record's scan time. */
function finding_rows_rolledRow(strings, finding, scanTime) {
    const shown = finding.shown ?? {};
    return row(strings, {
        ...shown,
        check: finding.check,
        title: finding.title,
        severity: finding.severity,
        daysLeft: daysLeftOf(shown.dueAt, scanTime),
    });
}

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/gate/coverage.js
var coverage = __webpack_require__(23891);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/gate/judge.js
var judge = __webpack_require__(91106);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/headline.js
var headline = __webpack_require__(27347);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/run-data.js
// The page of one run: the summary's headline, counts and facts, the history's trend, and every
// failed finding with its marks. From the job's result (scan run, the Action), from a judged
// scan (scan results), or from an error that ended the run (no verdict: what was known, no
// findings).








/** The page input of a job's result. */
function runInputOf(result, label) {
    return {
        headline: (0,headline/* headline */.P)(result),
        verdict: result.verdict ?? 'pending',
        tenantName: result.tenantName,
        label,
        scan: result.scan,
        gate: result.gate,
        findings: result.findings,
        total: result.total,
        results: result.results,
    };
}
/** The headline of a run that ended in an error (a fleet's tenant says the same of its record). */
const NO_VERDICT_ERROR = '⚠️ No verdict: the run ended in an error';
/** The page input of a run that ended in an error: its one line (as the log gives it) and what
 *  was known; no findings, for no list of them is whole. */
function errorInputOf(line, known, label) {
    return {
        headline: NO_VERDICT_ERROR,
        verdict: 'error',
        tenantName: known.tenantName,
        label,
        scan: known.scan,
        findings: [],
        error: line,
        ran: { startedAt: known.startedAt, stoppedAt: known.stoppedAt },
    };
}
/** "0 s", "42 s", "30 min 15 s": to the second, as the times beside it. */
function elapsedWords(ms) {
    const seconds = Math.max(0, Math.round(ms / 1000));
    const minutes = Math.floor(seconds / 60);
    return minutes === 0 ? `${seconds} s` : `${minutes} min ${seconds % 60} s`;
}
/** "Run started", "Run stopped", "Ran for", when the page tells them. */
function ranFacts(ran) {
    if (!ran)
        return [];
    const ms = Date.parse(ran.stoppedAt) - Date.parse(ran.startedAt);
    return [
        ['Run started', ran.startedAt],
        ['Run stopped', ran.stoppedAt],
        ['Ran for', Number.isFinite(ms) ? elapsedWords(ms) : undefined],
    ];
}
/** Checks by result, as the job summary's checks table counts them: passed, failed, each kind not
 *  evaluated by name, then the sums. */
function run_data_resultKinds(counts, strings) {
    if (!counts)
        return null;
    const from = counts.source === 'scan counts' ? " (the scan's own counts)" : '';
    return [
        ['Passed', counts.passed],
        ['Failed', counts.failed],
        ...counts.kinds.map(({ kind, count }) => [
            `Not evaluated: ${strings.text(kind, strings_MAX_CHARS.category)}`,
            count,
        ]),
        ['Not evaluated in all', counts.notEvaluated],
        [`Checks in all${from}`, counts.total],
    ];
}
/** Checks evaluated per scan when they align with the trend and any is known; else none. */
function alignedEvaluated(evaluated, length) {
    if (evaluated.length !== length || evaluated.every((count) => count === null))
        return [];
    return [...evaluated];
}
/** The coverage a run's gate compared (null: none compared). */
function coverageOf(gate, strings) {
    const coverage = gate?.coverage;
    if (coverage?.kind !== 'compared')
        return null;
    return {
        evaluated: coverage.evaluatedNow,
        baseline: coverage.baselineEvaluated,
        dropped: coverage.dropped.length,
        fails: coverage.fails,
        maxDrop: coverage.maxDrop,
        source: strings.line(coverage.source, strings_MAX_CHARS.line),
        checks: run_data_droppedChecks(coverage.dropped, strings),
    };
}
/** The first checks not evaluated now, as string indexes (the page counts the rest). */
function run_data_droppedChecks(checks, strings) {
    const shown = [];
    for (const check of checks.slice(0, coverage/* MAX_DROPPED_SHOWN */.sA)) {
        const index = strings.line(check, strings_MAX_CHARS.id);
        if (index >= 0)
            shown.push(index);
    }
    return shown;
}
function factsOf(input, strings) {
    const { scan, gate } = input;
    const facts = [
        ['Tenant', input.tenantName],
        ['Label', input.label],
        ['Scan', scan?.id],
        ['Scan type', scan?.scanType],
        ['Status', scan?.status],
        ['Progress', scan?.progress === undefined || scan.terminal ? undefined : `${scan.progress} %`],
        ['Created', scan?.createdAt],
        ['Started', scan?.startedAt],
        ['Completed', scan?.completedAt],
        ['Checks', input.total === undefined ? undefined : String(input.total)],
        ...ranFacts(input.ran),
    ];
    if (gate && !(0,judge/* isDefaultGate */.Z4)(gate.settings)) {
        facts.push(['Gate', (0,judge/* describeGate */.l7)(gate.settings)]);
        if (gate.baseline.kind === 'found')
            facts.push(['Baseline', gate.baseline.source]);
        else if (gate.baseline.kind === 'missing')
            facts.push(['Baseline', `none: ${gate.baseline.why}`]);
        if (gate.history.kind === 'unreadable')
            facts.push(['History', `not read whole: ${gate.history.why}`]);
    }
    return facts
        .filter((fact) => fact[1] !== undefined && fact[1] !== '')
        .map(([label, value]) => [label, strings.text(value)]);
}
/** Failed per scan, oldest first, with each scan's time when the history says. */
function trendOf(input, strings) {
    const gate = input.gate;
    if (!gate || gate.trend.length === 0)
        return [];
    const times = gate.history.kind === 'read'
        ? [...gate.history.scans.map((scan) => scan.at).reverse(), input.scan?.completedAt]
        : [];
    const aligned = times.length === gate.trend.length;
    return gate.trend.map((count, index) => [
        aligned ? strings.line(times[index], strings_MAX_CHARS.date) : -1,
        count,
    ]);
}
function notesOf(gate, strings) {
    if (!gate)
        return [];
    const checks = (list) => list.map((waiver) => waiver.check).join(', ');
    const notes = [];
    if (gate.expired.length > 0)
        notes.push(`Expired waivers (no longer waive): ${checks(gate.expired)}`);
    if (gate.stale.length > 0)
        notes.push(`Stale waivers (matched nothing): ${checks(gate.stale)}`);
    const cleaned = notes.map((note) => strings.text(note, strings_MAX_CHARS.body));
    if (gate.coverage.kind === 'none' && gate.settings.baseline.kind !== 'none')
        cleaned.push(run_data_notComparedNote(gate.coverage.why, strings));
    return cleaned;
}
/** The note of a baseline whose coverage could not be compared: a run's, a fleet tenant's. */
function run_data_notComparedNote(why, strings) {
    return strings.text(`Coverage not compared: ${why}`, strings_MAX_CHARS.body);
}
function worstOf(findings) {
    let worst = -1;
    for (const finding of findings) {
        const rank = (0,common_findings/* severityRank */.qs)(finding.severity);
        if (worst === -1 || rank < worst)
            worst = rank;
    }
    return worst;
}
/** The run as a page's one tenant. */
function runTenant(input, strings) {
    const { gate } = input;
    const name = input.label ?? input.tenantName ?? 'Tenant';
    const service = input.tenantName && input.tenantName !== name ? input.tenantName : null;
    return {
        name: strings.text(name, strings_MAX_CHARS.id) || 'Tenant',
        serviceName: service === null ? null : strings.text(service, strings_MAX_CHARS.id),
        verdict: input.verdict,
        headline: strings.text(input.headline),
        problem: input.error === undefined ? null : strings.text(input.error),
        headlineSaysProblem: false, // a run's headline is the verdict's words, its error a line apart
        facts: factsOf(input, strings),
        counts: gate && input.verdict !== 'pending'
            ? (0,headline/* countRows */.B)(gate).map((row) => [strings.text(row.label), row.count])
            : [],
        kinds: run_data_resultKinds(input.results, strings),
        coverage: coverageOf(gate, strings),
        figures: {
            failed: gate ? gate.counts.failed : null,
            gating: gate ? gate.counts.gating : null,
            new: gate && gate.baseline.kind !== 'none' ? gate.counts.new : null,
            fixed: gate && gate.baseline.kind === 'found' ? gate.counts.fixed : null,
            overdue: gate && gate.history.kind !== 'none' ? gate.counts.overdue : null,
            worst: worstOf(input.findings),
        },
        trend: trendOf(input, strings),
        evaluatedTrend: gate ? alignedEvaluated(gate.evaluatedTrend, gate.trend.length) : [],
        notes: notesOf(gate, strings),
        fixed: (gate?.fixed ?? []).map((finding) => [
            strings.line(finding.identity, strings_MAX_CHARS.id),
            strings.line(finding.title, strings_MAX_CHARS.title),
        ]),
        findings: input.findings.map((finding) => judgedRow(strings, finding)),
    };
}
/** The page data of one run. */
function runPageData(input, options = {}) {
    const strings = new strings_PageStrings(options.secrets);
    const tenant = runTenant(input, strings);
    return {
        version: page_data_PAGE_DATA_VERSION,
        kind: 'run',
        generatedAt: options.generatedAt ?? new Date().toISOString(),
        tool: `tenant-scan ${client/* CLIENT_VERSION */.fZ}`,
        verdict: tenant.verdict,
        headline: tenant.headline,
        strings: strings.list,
        tenants: [tenant],
        fleet: null,
    };
}

;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/fleet-data.js
// The page of a fleet: the roll-up's headline and counts, its tenants worst first (each with its
// findings, read from its record), and the checks that fail in most tenants. The roll-up keeps
// only figures of each record; FleetFindings keeps, as each record is read, what the page shows of
// its tenant (compact rows over one table of strings), so a thousand records are never held.







const NOTHING_SHOWN = {
    verdictReason: null,
    scanType: null,
    trend: [],
    trendTimes: [],
    evaluatedTrend: [],
    results: null,
    coverage: null,
    coverageNotCompared: null,
};
/** Collects, record by record (rollUpFiles' observer), what a fleet's page shows of each. */
class FleetFindings {
    strings;
    bySource = new Map();
    constructor(secrets = []) {
        this.strings = new PageStrings(secrets);
    }
    /** rollUpFiles' observer. */
    observe = (entry) => {
        if (entry.kind !== 'read' || this.bySource.has(entry.source))
            return;
        this.bySource.set(entry.source, this.keep(entry.record));
    };
    kept(source) {
        return source === null ? undefined : this.bySource.get(source);
    }
    keep(record) {
        const { strings } = this;
        const scanTime = record.completedAt ?? record.createdAt;
        const shown = record.shown ?? NOTHING_SHOWN;
        const facts = [
            ['Tenant', record.tenant],
            ['Scan', record.scanId],
            ['Scan type', shown.scanType],
            ['Completed', record.completedAt],
        ];
        return {
            findings: record.findings.map((finding) => rolledRow(strings, finding, scanTime)),
            kinds: resultKinds(shown.results, strings),
            trend: shown.trend.map((count, index) => [
                strings.line(shown.trendTimes[index], MAX_CHARS.date),
                count,
            ]),
            evaluatedTrend: shown.evaluatedTrend,
            facts: facts
                .filter((fact) => fact[1] !== null && fact[1] !== '')
                .map(([label, value]) => [label, strings.text(value)]),
            verdictReason: shown.verdictReason === null ? null : strings.text(shown.verdictReason),
            coverage: fleet_data_coverageOf(record.coverage, shown.coverage, strings),
            notes: shown.coverageNotCompared === null
                ? []
                : [notComparedNote(shown.coverageNotCompared, strings)],
        };
    }
}
/** A record's coverage: the roll-up's figures (its drop judged again), the words its record gives. */
function fleet_data_coverageOf(rolled, shown, strings) {
    if (!rolled)
        return null;
    return {
        evaluated: rolled.evaluatedNow,
        baseline: rolled.baselineEvaluated,
        dropped: rolled.dropped,
        fails: rolled.fails,
        maxDrop: shown?.maxDrop ?? null,
        source: strings.line(shown?.source, MAX_CHARS.line),
        checks: droppedChecks(shown?.dropped ?? [], strings),
    };
}
const VERDICT_WORDS = {
    passed: '✅ Passed',
    failed: '❌ Failed',
    error: NO_VERDICT_ERROR,
    missing: '❓ No record',
    stale: '⌛ Stale record',
    unreadable: '❓ Unreadable record',
};
function tenantHeadline(row, kept, strings) {
    const why = row.problem ?? kept?.verdictReason ?? null;
    return strings.text(why ? `${VERDICT_WORDS[row.verdict]}: ${why}` : VERDICT_WORDS[row.verdict]);
}
function fleetTenant(row, findings) {
    const { strings } = findings;
    const kept = findings.kept(row.source);
    const headline = tenantHeadline(row, kept, strings);
    const problem = row.problem === null ? null : strings.text(row.problem);
    const judged = row.verdict === 'passed' || row.verdict === 'failed';
    const figure = (label, value) => value === null ? [] : [[label, value]];
    return {
        name: strings.text(row.tenant, MAX_CHARS.id) || '(unnamed)',
        serviceName: row.name !== null && row.name !== row.tenant ? strings.text(row.name, MAX_CHARS.id) : null,
        verdict: row.verdict,
        headline,
        problem,
        // tenantHeadline puts the problem there, unless the headline was cut before its end
        headlineSaysProblem: problem !== null && headline.includes(problem),
        facts: [
            ...(kept?.facts ?? []),
            ...(row.source === null ? [] : [['Record', strings.text(row.source)]]),
        ],
        counts: [
            ...figure('Fail the gate', row.gating),
            ...figure('New', row.new),
            ...figure('Overdue', row.overdue),
            ...figure('Failed in all', row.failed),
        ],
        kinds: judged ? (kept?.kinds ?? null) : null,
        coverage: judged ? (kept?.coverage ?? null) : null,
        figures: {
            failed: row.failed,
            gating: row.gating,
            new: row.new,
            fixed: row.fixed,
            overdue: row.overdue,
            worst: row.worst === null ? -1 : severityRank(row.worst),
        },
        trend: kept?.trend ?? [],
        evaluatedTrend: kept?.evaluatedTrend ?? [],
        notes: judged ? (kept?.notes ?? []) : [],
        fixed: [],
        // A tenant without a verdict shows none of its record's findings: they decide nothing.
        findings: judged ? (kept?.findings ?? []) : [],
    };
}
function fleetCounts(rollup) {
    const by = (...verdicts) => rollup.tenants.filter((row) => verdicts.includes(row.verdict)).length;
    return [
        ['Failed', by('failed')],
        [
            'No verdict (missing, stale, unreadable, an error)',
            by('missing', 'stale', 'unreadable', 'error'),
        ],
        ['Passed', by('passed')],
        ['In all', rollup.totalTenants],
    ];
}
/** The fleet's checks, each with the tenants (page indexes) where it fails. */
function fleetChecks(rollup, strings) {
    const judged = new Map();
    rollup.tenants.forEach((row, index) => {
        if ((row.verdict === 'passed' || row.verdict === 'failed') && !judged.has(row.tenant))
            judged.set(row.tenant, index);
    });
    return rollup.checks.map((check) => [
        strings.line(check.check, MAX_CHARS.id),
        strings.line(check.title, MAX_CHARS.title),
        severityRank(check.severity),
        check.tenants.flatMap((tenant) => {
            const index = judged.get(tenant);
            return index === undefined ? [] : [index];
        }),
    ]);
}
/** The page data of a roll-up; `findings` observed its records as they were read. */
function fleet_data_fleetPageData(rollup, findings, options = {}) {
    const { strings } = findings;
    const tenants = rollup.tenants.map((row) => fleetTenant(row, findings));
    return {
        version: PAGE_DATA_VERSION,
        kind: 'fleet',
        generatedAt: options.generatedAt ?? new Date().toISOString(),
        tool: `tenant-scan ${CLIENT_VERSION}`,
        verdict: rollup.verdict,
        headline: strings.text(rollupHeadline(rollup)),
        strings: strings.list,
        tenants,
        fleet: {
            counts: fleetCounts(rollup),
            judged: rollup.judgedTenants,
            checks: fleetChecks(rollup, strings),
        },
    };
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/assets.js
// The report page's script and style, from src/render/html/page/ (scripts/build.mjs).
const PAGE_ASSETS = {"script":"(function () {\n'use strict';\n// page/dom.js\n// The page's only ways to make elements. Text goes in as text (textContent, text nodes), never as\n// markup; attributes come from a fixed list and none of them runs code; the one attribute that\n// links (href) is set by httpsLink alone, to an https address. Nothing here parses HTML.\n\nconst ATTRIBUTES = new Set([\n  'aria-controls',\n  'aria-current',\n  'aria-hidden',\n  'aria-label',\n  'aria-live',\n  'aria-pressed',\n  'aria-rowcount',\n  'aria-selected',\n  'aria-sort',\n  'autocomplete',\n  'colspan',\n  'data-index',\n  'data-key',\n  'data-severity',\n  'data-state',\n  'data-tab',\n  'data-verdict',\n  'for',\n  'hidden',\n  'id',\n  'placeholder',\n  'role',\n  'scope',\n  'spellcheck',\n  'tabindex',\n  'title',\n  'type',\n  'value',\n]);\n\nconst SVG_NS = 'http://www.w3.org/2000/svg';\nconst SVG_ATTRIBUTES = new Set([\n  'aria-hidden',\n  'aria-label',\n  'class',\n  'cx',\n  'cy',\n  'focusable',\n  'height',\n  'points',\n  'preserveAspectRatio',\n  'r',\n  'role',\n  'text-anchor',\n  'viewBox',\n  'width',\n  'x',\n  'x1',\n  'x2',\n  'y',\n  'y1',\n  'y2',\n]);\n\nfunction setAttributes(node, attrs, allowed) {\n  for (const [name, value] of Object.entries(attrs ?? {})) {\n    if (!allowed.has(name)) throw new Error(`attribute ${name} is not one the page sets`);\n    if (value === false || value === null || value === undefined) continue;\n    node.setAttribute(name, value === true ? '' : String(value));\n  }\n}\n\n/** Appends children: elements as they are, anything else as a text node. */\nfunction append(node, children) {\n  for (const child of [].concat(children ?? [])) {\n    if (child === null || child === undefined || child === false || child === '') continue;\n    node.append(typeof child === 'object' ? child : document.createTextNode(String(child)));\n  }\n  return node;\n}\n\n/** An HTML element: `options.text` as its text, `options.attrs` from the list above. */\nfunction el(tag, options, children) {\n  const node = document.createElement(tag);\n  if (options?.className) node.className = options.className;\n  if (options?.text !== undefined && options.text !== null) node.textContent = String(options.text);\n  setAttributes(node, options?.attrs, ATTRIBUTES);\n  return append(node, children);\n}\n\n/** An SVG element; its attributes are numbers and the page's own words. */\nfunction svgEl(tag, attrs, children) {\n  const node = document.createElementNS(SVG_NS, tag);\n  setAttributes(node, attrs, SVG_ATTRIBUTES);\n  return append(node, children);\n}\n\n/** A link to an https address (a help link), or null: no other scheme becomes a link. */\nfunction httpsLink(address, label) {\n  let url;\n  try {\n    url = new URL(address);\n  } catch {\n    return null;\n  }\n  if (url.protocol !== 'https:') return null;\n  const link = el('a', { text: label });\n  link.href = url.href;\n  link.rel = 'noopener noreferrer';\n  link.target = '_blank';\n  return link;\n}\n\n/** A button that runs `onClick`. */\nfunction button(text, onClick, options) {\n  const node = el('button', { ...options, text, attrs: { type: 'button', ...options?.attrs } });\n  node.addEventListener('click', onClick);\n  return node;\n}\n\n/** A description list of [term, value] pairs, the empty ones left out. */\nfunction facts(pairs, className) {\n  const list = el('dl', { className: className ?? 'facts' });\n  for (const [term, value] of pairs) {\n    if (value === null || value === undefined || value === '') continue;\n    append(list, [el('dt', { text: term }), el('dd', {}, value)]);\n  }\n  return list;\n}\n\n// page/model.js\n// The page's data (render/html/page-data.ts), read from its JSON block and decoded into the objects\n// the views show, and the words for them. A tenant's findings are decoded when it is first shown.\n\nconst SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'];\nconst SEVERITY_TITLES = ['Critical', 'High', 'Medium', 'Low', 'Info', 'Unknown'];\nconst FLAG = { gating: 1, new: 2, unchanged: 4, overdue: 8, waived: 16, beyondWindow: 32 };\n\nconst VERDICT_TITLES = {\n  passed: 'Passed',\n  failed: 'Failed',\n  error: 'Error',\n  pending: 'Not waited for',\n  missing: 'Missing',\n  stale: 'Stale',\n  unreadable: 'Unreadable',\n};\n\n/** The data block, parsed (it is JSON: nothing in it runs). */\nfunction readData() {\n  const block = document.getElementById('report-data');\n  const data = JSON.parse(block ? block.textContent : 'null');\n  if (!data || data.version !== 1 || !Array.isArray(data.tenants)) {\n    throw new Error('the report data is missing or of another version');\n  }\n  return data;\n}\n\nfunction text(strings, index) {\n  return Number.isInteger(index) && index >= 0 && index < strings.length\n    ? String(strings[index])\n    : '';\n}\n\nfunction decodeFinding(strings, row, index) {\n  const flags = Number(row[7]) || 0;\n  const finding = {\n    index,\n    check: text(strings, row[0]),\n    title: text(strings, row[1]),\n    severity: Number.isInteger(row[2]) && row[2] >= 0 && row[2] < 6 ? row[2] : 5,\n    category: text(strings, row[3]),\n    remediation: text(strings, row[4]),\n    reference: text(strings, row[5]),\n    description: text(strings, row[6]),\n    flags,\n    failingSince: text(strings, row[8]),\n    dueAt: text(strings, row[9]),\n    daysLeft: Number.isInteger(row[10]) && row[10] !== -1 ? row[10] : null,\n    failingScans: Number.isInteger(row[11]) && row[11] > 0 ? row[11] : null,\n    waiver: null,\n  };\n  if (flags & FLAG.waived) {\n    finding.waiver = {\n      reason: text(strings, row[12]),\n      expires: text(strings, row[13]),\n      owner: text(strings, row[14]),\n      disposition: text(strings, row[15]),\n    };\n  }\n  finding.search = [finding.check, finding.title, finding.category, finding.remediation]\n    .join('\\n')\n    .toLowerCase();\n  return finding;\n}\n\n/** The tenant's findings as objects (decoded once). */\nfunction findingsOf(model, tenant) {\n  if (!tenant.decoded) {\n    const rows = Array.isArray(tenant.findings) ? tenant.findings : [];\n    tenant.decoded = rows.map((row, index) => decodeFinding(model.strings, row, index));\n  }\n  return tenant.decoded;\n}\n\n/** The page's model: the data, with its strings at hand. */\nfunction modelOf(data) {\n  return { ...data, strings: Array.isArray(data.strings) ? data.strings : [] };\n}\n\nfunction stringOf(model, index) {\n  return text(model.strings, index);\n}\n\nfunction formatCount(value) {\n  return Number(value).toLocaleString('en-US');\n}\n\nfunction plural(value, word) {\n  return `${formatCount(value)} ${word}${value === 1 ? '' : 's'}`;\n}\n\n/** \"16.7 %\", \"10 %\": a percent as the gate's lines write it (gate/coverage.ts). */\nfunction percentWords(value) {\n  return `${Number.isInteger(value) ? value : value.toFixed(1)} %`;\n}\n\n/** A series of counts in words: \"240 → 240 → 200\" (unknown: \"?\"). */\nfunction seriesWords(values) {\n  return values.map((value) => (value === null ? '?' : formatCount(value))).join(' → ');\n}\n\n/** The day of an ISO time (the service's words: shown, never parsed into markup). */\nfunction day(iso) {\n  return /^\\d{4}-\\d{2}-\\d{2}/.test(iso) ? iso.slice(0, 10) : iso;\n}\n\n/** \"overdue by 3 days\", \"due in 12 days\", \"due today\" (gate/deadlines.ts's words). */\nfunction deadlineWords(finding) {\n  if (finding.daysLeft === null) return finding.dueAt ? `due ${day(finding.dueAt)}` : '';\n  const days = (n) => (n === 1 ? '1 day' : `${formatCount(n)} days`);\n  if (finding.daysLeft < 0) return `overdue by ${days(-finding.daysLeft)}`;\n  if (finding.flags & FLAG.beyondWindow) return 'failing since before the history read';\n  if (finding.daysLeft === 0) return 'due today';\n  return `due in ${days(finding.daysLeft)}`;\n}\n\n/** The gate's marks of a finding in words: \"Fails the gate · New · Overdue\". */\nfunction stateWords(finding) {\n  const words = [];\n  if (finding.flags & FLAG.gating) words.push('Fails the gate');\n  if (finding.flags & FLAG.waived) words.push('Waived');\n  if (finding.flags & FLAG.new) words.push('New');\n  if (finding.flags & FLAG.unchanged) words.push('Unchanged');\n  if (finding.flags & FLAG.overdue) words.push('Overdue');\n  return words.join(' · ');\n}\n\n/** Overdue first, then new, unchanged, waived (the gate's order), those failing it before. */\nfunction stateRank(finding) {\n  const gating = finding.flags & FLAG.gating ? 0 : 10;\n  if (finding.flags & FLAG.waived) return gating + 4;\n  if (finding.flags & FLAG.overdue) return gating + 1;\n  if (finding.flags & FLAG.unchanged) return gating + 3;\n  return gating + 2;\n}\n\n// page/table.js\n// A table that puts only the rows in view into the page (and a few around them): rows have one\n// fixed height, so the rows above and below are two spacers of the right height, and 10,000\n// findings cost what 40 do. Sorts by a column's key (stable: ties keep the given order); a row\n// opens with a click, Enter or Space, and the arrow keys move between rows.\n\n\nconst OVERSCAN = 8;\nconst collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });\n\nfunction compare(a, b) {\n  if (typeof a === 'number' && typeof b === 'number') return a - b;\n  return collator.compare(String(a), String(b));\n}\n\nclass WindowedTable {\n  /** columns: [{ key, title, cell(row) → text or element, sortKey?(row), className? }]. */\n  constructor({ columns, label, empty, rowHeight, onOpen }) {\n    this.columns = columns;\n    this.rowHeight = rowHeight ?? 32;\n    this.onOpen = onOpen;\n    this.given = [];\n    this.rows = [];\n    this.sort = null;\n    this.selected = null;\n    this.focusedRow = null;\n    this.frame = 0;\n    /** What is drawn (rows, their order, the selection, the range): drawn again only when it\n     *  changes, so a row under the pointer stays the same element while the table is still. */\n    this.version = 0;\n    this.drawn = '';\n    this.body = el('tbody');\n    this.heads = columns.map((column) => this.headCell(column));\n    const cols = columns.map((column) => el('col', { className: `col-${column.key}` }));\n    this.table = el('table', { className: 'grid', attrs: { 'aria-label': label } }, [\n      el('colgroup', {}, cols),\n      el('thead', {}, el('tr', {}, this.heads)),\n      this.body,\n    ]);\n    this.scroller = el('div', { className: 'scroller' }, this.table);\n    this.emptyLine = el('p', { className: 'empty', text: empty, attrs: { hidden: true } });\n    this.element = el('div', { className: 'table-box' }, [this.scroller, this.emptyLine]);\n    this.listen();\n  }\n\n  listen() {\n    const schedule = () => {\n      if (!this.frame) this.frame = requestAnimationFrame(() => this.render());\n    };\n    this.body.addEventListener('click', (event) => this.open(this.rowAt(event.target)));\n    this.body.addEventListener('focusin', (event) => {\n      const index = this.rowAt(event.target);\n      if (index >= 0) this.focusedRow = this.rows[index];\n    });\n    this.body.addEventListener('keydown', (event) => this.key(event));\n    this.scroller.addEventListener('scroll', schedule, { passive: true });\n    // Draws again once the table is on the page and whenever its size changes.\n    new ResizeObserver(schedule).observe(this.scroller);\n  }\n\n  headCell(column) {\n    if (!column.sortKey) return el('th', { text: column.title, attrs: { scope: 'col' } });\n    const sorter = el('button', {\n      className: 'sort',\n      text: column.title,\n      attrs: { type: 'button', 'data-key': column.key },\n    });\n    sorter.addEventListener('click', () => this.sortBy(column));\n    return el('th', { attrs: { scope: 'col', 'aria-sort': 'none' } }, sorter);\n  }\n\n  sortBy(column) {\n    const dir = this.sort && this.sort.column === column && this.sort.dir === 1 ? -1 : 1;\n    this.sort = { column, dir };\n    this.columns.forEach((each, index) => {\n      const words = each === column ? (dir === 1 ? 'ascending' : 'descending') : 'none';\n      if (each.sortKey) this.heads[index].setAttribute('aria-sort', words);\n    });\n    this.order();\n    this.scroller.scrollTop = 0;\n    this.render();\n  }\n\n  order() {\n    this.version++;\n    const sort = this.sort;\n    const keyed = this.given.map((row, index) => ({\n      row,\n      index,\n      key: sort && sort.column.sortKey(row),\n    }));\n    if (sort) keyed.sort((a, b) => compare(a.key, b.key) * sort.dir || a.index - b.index);\n    this.rows = keyed.map((item) => item.row);\n  }\n\n  spacer(height) {\n    const cell = el('td', { attrs: { colspan: this.columns.length } });\n    cell.style.height = `${height}px`;\n    return el('tr', { className: 'spacer', attrs: { 'aria-hidden': 'true' } }, cell);\n  }\n\n  rowElement(row, index) {\n    const tr = el('tr', {\n      className: row === this.selected ? 'row selected' : 'row',\n      attrs: { tabindex: 0, 'data-index': index, 'aria-selected': row === this.selected },\n    });\n    for (const column of this.columns) {\n      const value = column.cell(row);\n      const cell = el('td', { className: column.className }, value);\n      if (typeof value === 'string' && value !== '') cell.title = value;\n      tr.append(cell);\n    }\n    return tr;\n  }\n\n  /** The rows in view (and OVERSCAN more on each side), between two spacers. */\n  render() {\n    this.frame = 0;\n    const { rows, rowHeight, scroller } = this;\n    this.emptyLine.hidden = rows.length > 0;\n    scroller.hidden = rows.length === 0;\n    const top = Math.max(0, scroller.scrollTop - this.headHeight());\n    const view = scroller.clientHeight || rowHeight * 20;\n    const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);\n    const last = Math.min(rows.length, Math.ceil((top + view) / rowHeight) + OVERSCAN);\n    const drawn = `${this.version}:${first}:${last}`;\n    if (drawn === this.drawn) return;\n    this.drawn = drawn;\n    const fragment = document.createDocumentFragment();\n    fragment.append(this.spacer(first * rowHeight));\n    let focus = null;\n    for (let index = first; index < last; index++) {\n      const tr = this.rowElement(rows[index], index);\n      if (rows[index] === this.focusedRow) focus = tr;\n      fragment.append(tr);\n    }\n    fragment.append(this.spacer((rows.length - last) * rowHeight));\n    this.body.replaceChildren(fragment);\n    if (focus) focus.focus({ preventScroll: true });\n  }\n\n  headHeight() {\n    return this.table.tHead ? this.table.tHead.offsetHeight : 0;\n  }\n\n  rowAt(target) {\n    const tr = target instanceof Element ? target.closest('tr.row') : null;\n    return tr ? Number(tr.getAttribute('data-index')) : -1;\n  }\n\n  open(index) {\n    if (index < 0 || index >= this.rows.length) return;\n    this.selected = this.rows[index];\n    this.version++;\n    this.render();\n    if (this.onOpen) this.onOpen(this.selected);\n  }\n\n  key(event) {\n    const index = this.rowAt(event.target);\n    if (index < 0) return;\n    if (event.key === 'Enter' || event.key === ' ') this.open(index);\n    else if (event.key === 'ArrowDown') this.move(index + 1);\n    else if (event.key === 'ArrowUp') this.move(index - 1);\n    else return;\n    event.preventDefault();\n  }\n\n  /** Focus to the row at `index`, scrolled into view. */\n  move(index) {\n    if (index < 0 || index >= this.rows.length) return;\n    this.focusedRow = this.rows[index];\n    this.version++;\n    const { scroller, rowHeight } = this;\n    const top = index * rowHeight;\n    const bottom = top + rowHeight + this.headHeight();\n    if (top < scroller.scrollTop) scroller.scrollTop = top;\n    else if (bottom > scroller.scrollTop + scroller.clientHeight)\n      scroller.scrollTop = bottom - scroller.clientHeight;\n    this.render();\n  }\n\n  /** Shows these rows (in this order until a column is sorted). */\n  setRows(list) {\n    this.given = list;\n    this.order();\n    this.scroller.scrollTop = 0;\n    this.render();\n  }\n}\n\nfunction windowedTable(options) {\n  return new WindowedTable(options);\n}\n\n// page/chart.js\n// Charts as plain SVG, drawn here: the trend of failed findings (and of checks evaluated) per scan,\n// and a tenant row's sparkline. No library: nothing to inline, nothing for the page's\n// Content-Security-Policy to allow. Numbers become coordinates; any text (a scan's date) goes in as\n// text. A value may be unknown (null): the line breaks there.\n\n\nfunction highest(values) {\n  let high = 0;\n  for (const value of values) if (value !== null && value > high) high = value;\n  return high;\n}\n\n/** The runs of known values, each a list of [index, value]: a line is drawn through each. */\nfunction runsOf(values) {\n  const runs = [];\n  let run = [];\n  values.forEach((value, index) => {\n    if (value === null || value === undefined) {\n      if (run.length > 0) runs.push(run);\n      run = [];\n    } else run.push([index, value]);\n  });\n  if (run.length > 0) runs.push(run);\n  return runs;\n}\n\n/** A round top for the axis at or above `value`: 1, 2, 3, 4, 5, 6, 8 × 10^n, close enough that a\n *  drop of 240 checks to 200 shows. */\nfunction niceTop(value) {\n  if (value <= 0) return 1;\n  const power = 10 ** Math.floor(Math.log10(value));\n  for (const step of [1, 2, 3, 4, 5, 6, 8, 10]) if (step * power >= value) return step * power;\n  return 10 * power;\n}\n\nfunction textAt(x, y, words, anchor, className) {\n  const node = svgEl('text', { x, y, 'text-anchor': anchor, class: className });\n  node.textContent = words;\n  return node;\n}\n\n/** points: [{ at: ISO time or '', value (null: unknown) }], oldest first. `label` and `unit`\n *  (\"failed\", \"evaluated\") are the page's own words. */\nfunction trendChart(points, label, unit = 'failed') {\n  const width = 480;\n  const height = 180;\n  const pad = { left: 48, right: 20, top: 18, bottom: 34 };\n  const top = niceTop(highest(points.map((point) => point.value)));\n  const innerW = width - pad.left - pad.right;\n  const innerH = height - pad.top - pad.bottom;\n  const x = (index) =>\n    pad.left + (points.length === 1 ? innerW / 2 : (index * innerW) / (points.length - 1));\n  const y = (value) => pad.top + innerH - (value / top) * innerH;\n  const chart = svgEl('svg', {\n    class: 'chart',\n    viewBox: `0 0 ${width} ${height}`,\n    role: 'img',\n    'aria-label': label,\n    focusable: 'false',\n  });\n  const title = svgEl('title');\n  title.textContent = `${label}: ${points.map((point) => point.value ?? 'unknown').join(', ')}`;\n  chart.append(title);\n  for (const tick of [0, top / 2, top]) {\n    chart.append(\n      svgEl('line', {\n        x1: pad.left,\n        x2: width - pad.right,\n        y1: y(tick),\n        y2: y(tick),\n        class: 'grid-line',\n      }),\n      textAt(pad.left - 8, y(tick) + 4, formatCount(Math.round(tick)), 'end', 'axis'),\n    );\n  }\n  for (const run of runsOf(points.map((point) => point.value))) {\n    const line = run.map(([index, value]) => `${x(index)},${y(value)}`).join(' ');\n    chart.append(svgEl('polyline', { points: line, class: 'trend-line' }));\n  }\n  points.forEach((point, index) => {\n    if (point.value === null) return;\n    const dot = svgEl('circle', { cx: x(index), cy: y(point.value), r: 4, class: 'trend-dot' });\n    const tip = svgEl('title');\n    tip.textContent = `${point.at ? `${day(point.at)}: ` : ''}${formatCount(point.value)} ${unit}`;\n    dot.append(tip);\n    chart.append(dot);\n    if (points.length <= 24) {\n      chart.append(\n        textAt(x(index), y(point.value) - 9, formatCount(point.value), 'middle', 'value'),\n      );\n    }\n  });\n  const first = points[0];\n  const last = points[points.length - 1];\n  chart.append(\n    textAt(x(0), height - 10, first.at ? day(first.at) : 'oldest', 'start', 'axis'),\n    textAt(x(points.length - 1), height - 10, last.at ? day(last.at) : 'this scan', 'end', 'axis'),\n  );\n  return chart;\n}\n\n/** Small lines for a table row: `lines` are [{ values (null: unknown), className }], each drawn\n *  on its own scale from 0 (failed findings and checks evaluated differ by far). */\nfunction sparkline(lines) {\n  const width = 72;\n  const height = 20;\n  const spark = svgEl('svg', {\n    class: 'spark',\n    viewBox: `0 0 ${width} ${height}`,\n    width,\n    height,\n    'aria-hidden': 'true',\n    focusable: 'false',\n  });\n  for (const { values, className } of lines) {\n    const top = niceTop(highest(values));\n    const x = (index) =>\n      values.length === 1 ? width / 2 : 2 + (index * (width - 4)) / (values.length - 1);\n    const y = (value) => height - 2 - (value / top) * (height - 4);\n    for (const run of runsOf(values)) {\n      const points = run.map(([index, value]) => `${x(index)},${y(value)}`).join(' ');\n      spark.append(svgEl('polyline', { points, class: className }));\n    }\n  }\n  return spark;\n}\n\n// page/coverage.js\n// The coverage compared with the baseline on a tenant's view (a run's page, a fleet's tenant).\n\n\n/** The coverage compared with the baseline, as the job summary's Coverage row says it, and the\n *  checks not evaluated now by identity. */\nfunction coverageLines(model, coverage) {\n  if (!coverage) return [];\n  const source = stringOf(model, coverage.source) || 'the baseline';\n  const percent = coverage.baseline === 0 ? 0 : (coverage.dropped * 100) / coverage.baseline;\n  const limit = coverage.maxDrop === null ? '' : `, at most ${percentWords(coverage.maxDrop)}`;\n  const lines = [\n    el('p', {\n      className: coverage.fails ? 'coverage fails' : 'coverage',\n      text: `Coverage: ${plural(coverage.evaluated, 'check')} evaluated now, ${formatCount(coverage.baseline)} in ${source}; ${formatCount(coverage.dropped)} not evaluated now (${percentWords(percent)}${limit})${coverage.fails ? ' — fails the gate' : ''}`,\n      attrs: { id: 'coverage', 'data-state': coverage.fails ? 'fails' : 'within' },\n    }),\n  ];\n  const checks = (coverage.checks ?? []).map((index) => stringOf(model, index)).filter(Boolean);\n  if (checks.length > 0) {\n    const more = coverage.dropped - checks.length;\n    lines.push(\n      el('p', {\n        className: 'coverage',\n        text: `Evaluated in the baseline, not evaluated now: ${checks.join(', ')}${more > 0 ? `, … and ${formatCount(more)} more` : ''}`,\n        attrs: { id: 'coverage-checks' },\n      }),\n    );\n  }\n  return lines;\n}\n\n// page/tenant.js\n// One tenant's view (a run's whole page, or a tenant opened from a fleet): its verdict line, the\n// counts, the trend, and its failed findings — filtered by severity, category and gate state,\n// searched, sorted, and each one's detail beside them.\n\n\nconst STATES = [\n  ['gating', 'Fails the gate', FLAG.gating],\n  ['new', 'New', FLAG.new],\n  ['unchanged', 'Unchanged', FLAG.unchanged],\n  ['overdue', 'Overdue', FLAG.overdue],\n  ['waived', 'Waived', FLAG.waived],\n];\n\nfunction severityBadge(severity) {\n  return el('span', {\n    className: `badge sev-${SEVERITIES[severity] ?? 'unknown'}`,\n    text: SEVERITY_TITLES[severity] ?? 'Unknown',\n  });\n}\n\nfunction verdictBadge(verdict) {\n  return el('span', {\n    className: `badge verdict-${verdict}`,\n    text: VERDICT_TITLES[verdict] ?? verdict,\n    attrs: { 'data-verdict': verdict },\n  });\n}\n\nfunction countTable(caption, rows) {\n  if (!rows || rows.length === 0) return null;\n  return el('table', { className: 'counts' }, [\n    el('caption', { text: caption }),\n    el(\n      'tbody',\n      {},\n      rows.map(([label, value]) =>\n        el('tr', {}, [\n          el('th', { text: label, attrs: { scope: 'row' } }),\n          el('td', { text: formatCount(value) }),\n        ]),\n      ),\n    ),\n  ]);\n}\n\n/** The verdict line without its leading symbol: the badge beside it says the verdict. */\nfunction headlineLine(verdict, headline) {\n  return el('p', { className: 'headline', attrs: { id: 'headline' } }, [\n    verdictBadge(verdict),\n    ' ',\n    String(headline).replace(/^\\p{Extended_Pictographic}\\uFE0F?\\s*/u, ''),\n  ]);\n}\n\nfunction headerOf(tenant) {\n  const name = tenant.serviceName ? `${tenant.name} (${tenant.serviceName})` : tenant.name;\n  return el('header', { className: `verdict-box verdict-${tenant.verdict}` }, [\n    el('h1', { text: name }),\n    headlineLine(tenant.verdict, tenant.headline),\n  ]);\n}\n\nfunction severityCounts(findings) {\n  const counts = SEVERITIES.map(() => 0);\n  for (const finding of findings) counts[finding.severity]++;\n  return SEVERITY_TITLES.map((title, index) => [title, counts[index]]).filter(([, n]) => n > 0);\n}\n\n/** A trend's chart with its caption; `values` aligned with the tenant's trend (its scans). */\nfunction trendFigure(model, trend, values, words, unit) {\n  const points = trend.map(([at], index) => ({ at: stringOf(model, at), value: values[index] }));\n  return el('figure', { className: `trend ${unit}` }, [\n    trendChart(points, `${words}, oldest first`, unit),\n    el('figcaption', { text: `${words}, oldest first (${plural(points.length, 'scan')})` }),\n  ]);\n}\n\nfunction summaryOf(model, tenant, findings) {\n  const trend = tenant.trend ?? [];\n  const evaluated = tenant.evaluatedTrend ?? [];\n  const parts = [\n    countTable('Failed findings by severity', severityCounts(findings)),\n    countTable('Failed findings by what the gate made of them', tenant.counts),\n    countTable('Checks by result', tenant.kinds),\n  ];\n  const row = el('div', { className: 'count-tables' }, [...parts, facts(tenant.facts ?? [])]);\n  if (trend.length >= 2) {\n    const failed = trend.map(([, value]) => value);\n    row.append(trendFigure(model, trend, failed, 'Failed findings per scan', 'failed'));\n    if (evaluated.length === trend.length && evaluated.some((value) => value !== null))\n      row.append(trendFigure(model, trend, evaluated, 'Checks evaluated per scan', 'evaluated'));\n  }\n  const box = el('section', { className: 'summary', attrs: { 'aria-label': 'Summary' } }, [\n    row,\n    ...coverageLines(model, tenant.coverage),\n  ]);\n  for (const note of tenant.notes ?? []) box.append(el('p', { className: 'note', text: note }));\n  const fixed = fixedNote(model, tenant);\n  if (fixed) box.append(fixed);\n  return box;\n}\n\n/** The findings fixed since the baseline, apart from the failed findings' counts: they failed then,\n *  not now. None when there was no baseline. */\nfunction fixedNote(model, tenant) {\n  const fixed = (tenant.fixed ?? []).map(([check, title]) =>\n    `${stringOf(model, check)} ${stringOf(model, title)}`.trim(),\n  );\n  const count = tenant.figures?.fixed ?? (fixed.length > 0 ? fixed.length : null);\n  if (count === null) return null;\n  const text =\n    fixed.length > 0\n      ? ` (${formatCount(count)}): ${fixed.join('; ')}`\n      : `: ${count === 0 ? 'none' : formatCount(count)}`;\n  return el('p', { className: 'note fixed', text: `Fixed since the baseline${text}` });\n}\n\nconst COLUMNS = [\n  {\n    key: 'severity',\n    title: 'Severity',\n    sortKey: (f) => f.severity,\n    cell: (f) => severityBadge(f.severity),\n  },\n  {\n    key: 'check',\n    title: 'Check',\n    sortKey: (f) => f.check,\n    cell: (f) => f.check,\n    className: 'mono',\n  },\n  { key: 'title', title: 'Title', sortKey: (f) => f.title, cell: (f) => f.title },\n  { key: 'category', title: 'Category', sortKey: (f) => f.category, cell: (f) => f.category },\n  { key: 'state', title: 'Gate', sortKey: stateRank, cell: stateWords },\n  {\n    key: 'deadline',\n    title: 'Deadline',\n    sortKey: (f) => (f.daysLeft === null ? Number.MAX_SAFE_INTEGER : f.daysLeft),\n    cell: deadlineWords,\n  },\n];\n\nfunction sinceWords(finding) {\n  if (!finding.failingSince) return '';\n  const scans =\n    finding.failingScans && finding.failingScans > 1\n      ? ` (${plural(finding.failingScans, 'scan')})`\n      : '';\n  const before = finding.flags & FLAG.beyondWindow ? 'before ' : '';\n  return `${before}${day(finding.failingSince)}${scans}`;\n}\n\nfunction waiverWords(waiver) {\n  if (!waiver) return '';\n  const owner = waiver.owner ? ` (owner ${waiver.owner})` : '';\n  return `until ${waiver.expires}: ${waiver.reason}${owner}`;\n}\n\nfunction paragraphBlock(title, body) {\n  if (!body) return null;\n  return el('div', { className: 'block' }, [\n    el('h4', { text: title }),\n    el('p', { className: 'body', text: body }),\n  ]);\n}\n\nfunction showDetail(section, finding) {\n  const link = finding.reference ? httpsLink(finding.reference, 'Help and reference') : null;\n  const due = finding.dueAt\n    ? `${deadlineWords(finding)} (${day(finding.dueAt)})`\n    : deadlineWords(finding);\n  section.replaceChildren(\n    ...[\n      el('h3', { text: finding.title || finding.check }),\n      facts([\n        ['Check', finding.check],\n        ['Severity', severityBadge(finding.severity)],\n        ['Category', finding.category],\n        ['Gate', stateWords(finding)],\n        ['Failing since', sinceWords(finding)],\n        ['Deadline', due],\n        ['Waived', waiverWords(finding.waiver)],\n        ['Disposition', finding.waiver ? finding.waiver.disposition : ''],\n      ]),\n      paragraphBlock('What was found', finding.description),\n      paragraphBlock('Remediation', finding.remediation),\n      link ? el('p', { className: 'help' }, link) : null,\n    ].filter(Boolean),\n  );\n}\n\nfunction toggle(label, count, onChange, attrs) {\n  const node = button(\n    `${label} ${formatCount(count)}`,\n    () => {\n      const pressed = node.getAttribute('aria-pressed') !== 'true';\n      node.setAttribute('aria-pressed', String(pressed));\n      onChange(pressed);\n    },\n    { className: 'filter', attrs: { 'aria-pressed': 'false', ...attrs } },\n  );\n  return node;\n}\n\nfunction matches(filters, finding) {\n  if (filters.severities.size > 0 && !filters.severities.has(finding.severity)) return false;\n  if (filters.category !== null && finding.category !== filters.category) return false;\n  if (filters.states.size > 0 && ![...filters.states].some((bit) => finding.flags & bit))\n    return false;\n  return filters.query === '' || finding.search.includes(filters.query);\n}\n\nfunction filterBar(findings, filters, apply) {\n  const bar = el('div', {\n    className: 'filters',\n    attrs: { role: 'group', 'aria-label': 'Filters' },\n  });\n  const search = el('input', {\n    className: 'search',\n    attrs: {\n      type: 'search',\n      placeholder: 'Search check, title, category, remediation',\n      'aria-label': 'Search',\n      spellcheck: 'false',\n      autocomplete: 'off',\n    },\n  });\n  search.addEventListener('input', () => {\n    filters.query = search.value.trim().toLowerCase();\n    apply();\n  });\n  bar.append(search);\n  const severityGroup = el('div', {\n    className: 'chips',\n    attrs: { role: 'group', 'aria-label': 'Severity' },\n  });\n  for (const [title, count] of severityCounts(findings)) {\n    const index = SEVERITY_TITLES.indexOf(title);\n    severityGroup.append(\n      toggle(\n        title,\n        count,\n        (on) => {\n          if (on) filters.severities.add(index);\n          else filters.severities.delete(index);\n          apply();\n        },\n        { 'data-severity': SEVERITIES[index] },\n      ),\n    );\n  }\n  const stateGroup = el('div', {\n    className: 'chips',\n    attrs: { role: 'group', 'aria-label': 'Gate state' },\n  });\n  for (const [key, label, bit] of STATES) {\n    const count = findings.filter((finding) => finding.flags & bit).length;\n    if (count === 0) continue;\n    stateGroup.append(\n      toggle(\n        label,\n        count,\n        (on) => {\n          if (on) filters.states.add(bit);\n          else filters.states.delete(bit);\n          apply();\n        },\n        { 'data-state': key },\n      ),\n    );\n  }\n  append(bar, [severityGroup, stateGroup, categorySelect(findings, filters, apply)]);\n  return bar;\n}\n\nfunction categorySelect(findings, filters, apply) {\n  const categories = [...new Set(findings.map((finding) => finding.category))].sort();\n  if (categories.length < 2) return null;\n  const select = el('select', { attrs: { 'aria-label': 'Category' } });\n  select.append(el('option', { text: 'All categories', attrs: { value: '' } }));\n  categories.forEach((category, index) =>\n    select.append(\n      el('option', { text: category || '(none)', attrs: { value: String(index + 1) } }),\n    ),\n  );\n  select.addEventListener('change', () => {\n    filters.category = select.value === '' ? null : categories[Number(select.value) - 1];\n    apply();\n  });\n  return select;\n}\n\n/** Those that fail the gate first, each part in the gate's order. */\nfunction gatingFirst(findings) {\n  return [\n    ...findings.filter((finding) => finding.flags & FLAG.gating),\n    ...findings.filter((finding) => !(finding.flags & FLAG.gating)),\n  ];\n}\n\nfunction findingsSection(all) {\n  const findings = gatingFirst(all);\n  const filters = { severities: new Set(), states: new Set(), category: null, query: '' };\n  const shown = el('p', { className: 'shown', attrs: { 'aria-live': 'polite', id: 'shown' } });\n  const detail = el(\n    'section',\n    { className: 'detail', attrs: { 'aria-label': 'Finding', id: 'detail' } },\n    [\n      el('p', {\n        className: 'hint',\n        text: 'Select a finding to see its remediation, deadline and waiver.',\n      }),\n    ],\n  );\n  const aged = findings.some((finding) => finding.daysLeft !== null || finding.dueAt);\n  const table = windowedTable({\n    columns: aged ? COLUMNS : COLUMNS.filter((column) => column.key !== 'deadline'),\n    label: 'Failed findings',\n    empty: findings.length === 0 ? 'No failed findings.' : 'No failed finding matches the filters.',\n    onOpen: (finding) => showDetail(detail, finding),\n  });\n  const apply = () => {\n    const list = findings.filter((finding) => matches(filters, finding));\n    table.setRows(list);\n    shown.textContent = `Showing ${formatCount(list.length)} of ${plural(findings.length, 'failed finding')}`;\n  };\n  apply();\n  return el('section', { className: 'findings', attrs: { 'aria-label': 'Failed findings' } }, [\n    el('h2', { text: 'Failed findings' }),\n    filterBar(findings, filters, apply),\n    shown,\n    el('div', { className: 'split' }, [table.element, detail]),\n  ]);\n}\n\n/** Instead of the table when there is no verdict: an empty table would read as \"none failed\". */\nfunction noFindingsSection() {\n  return el('section', { className: 'findings', attrs: { 'aria-label': 'Failed findings' } }, [\n    el('h2', { text: 'Failed findings' }),\n    el('p', {\n      className: 'note',\n      text: 'None listed: without a verdict, no list of findings is whole.',\n      attrs: { id: 'no-findings' },\n    }),\n  ]);\n}\n\n/** The view of one tenant; `back` (a fleet's) leads to the tenants. */\nfunction tenantView(model, tenant, back) {\n  const findings = findingsOf(model, tenant);\n  const judged = tenant.verdict === 'passed' || tenant.verdict === 'failed';\n  const view = el('div', { className: 'tenant-view' });\n  if (back) view.append(back);\n  append(view, [\n    headerOf(tenant),\n    tenant.problem && !tenant.headlineSaysProblem\n      ? el('p', { className: 'problem', text: tenant.problem, attrs: { id: 'problem' } })\n      : null,\n    summaryOf(model, tenant, findings),\n    judged ? findingsSection(findings) : noFindingsSection(),\n  ]);\n  return view;\n}\n\n// page/fleet.js\n// A fleet's views: its tenants worst first (verdict, counts, coverage and its drop, the trend of\n// failed findings and of checks evaluated; a row opens the tenant's findings), and the checks that\n// fail in most tenants (a row lists where).\n\n\nconst VERDICT_GROUPS = [\n  ['failed', 'Failed', ['failed']],\n  ['none', 'No verdict', ['error', 'missing', 'stale', 'unreadable', 'pending']],\n  ['passed', 'Passed', ['passed']],\n];\n\nconst VERDICT_RANK = {\n  error: 0,\n  missing: 0,\n  stale: 0,\n  unreadable: 0,\n  pending: 0,\n  failed: 1,\n  passed: 2,\n};\n\nfunction figure(value) {\n  return value === null || value === undefined ? '—' : formatCount(value);\n}\n\nfunction numberKey(value) {\n  return value === null || value === undefined ? -1 : value;\n}\n\n/** \"200 of 240, 40 dropped\" (the job summary's Coverage column), marked when the drop fails. */\nfunction coverageCell(coverage) {\n  if (!coverage) return '—';\n  const dropped = coverage.dropped > 0 ? `, ${formatCount(coverage.dropped)} dropped` : '';\n  const words = `${formatCount(coverage.evaluated)} of ${formatCount(coverage.baseline)}${dropped}`;\n  if (!coverage.fails) return words;\n  return el(\n    'span',\n    {\n      className: 'coverage-fails',\n      attrs: {\n        'data-state': 'fails',\n        title: `${words}: beyond its max-coverage-drop, so the tenant fails`,\n      },\n    },\n    [words, ' ', el('span', { className: 'badge verdict-failed', text: 'fails' })],\n  );\n}\n\n/** Worst first: a drop that fails, then the biggest drop; a tenant without coverage last. */\nfunction coverageRank(coverage) {\n  if (!coverage) return 1;\n  return (coverage.fails ? -1e12 : 0) - coverage.dropped;\n}\n\n/** The failed findings per scan and, when its record says, the checks evaluated per scan. */\nfunction trendCell(tenant) {\n  const failed = (tenant.trend ?? []).map(([, value]) => value);\n  if (failed.length < 2) return '';\n  const evaluated = tenant.evaluatedTrend ?? [];\n  const withEvaluated = evaluated.length === failed.length;\n  const lines = [{ values: failed, className: 'failed' }];\n  if (withEvaluated) lines.push({ values: evaluated, className: 'evaluated' });\n  const words = `Failed per scan: ${seriesWords(failed)}${withEvaluated ? `; checks evaluated per scan: ${seriesWords(evaluated)}` : ''}`;\n  return el('span', { className: 'trend-cell', attrs: { title: words } }, sparkline(lines));\n}\n\nfunction tenantColumns(showCoverage) {\n  return [\n    { key: 'tenant', title: 'Tenant', sortKey: (t) => t.name, cell: (t) => t.name },\n    {\n      key: 'verdict',\n      title: 'Verdict',\n      sortKey: (t) => VERDICT_RANK[t.verdict] ?? 0,\n      cell: (t) => verdictBadge(t.verdict),\n    },\n    {\n      key: 'gating',\n      title: 'Fail the gate',\n      sortKey: (t) => -numberKey(t.figures.gating),\n      cell: (t) => figure(t.figures.gating),\n      className: 'num',\n    },\n    {\n      key: 'failed',\n      title: 'Failed',\n      sortKey: (t) => -numberKey(t.figures.failed),\n      cell: (t) => figure(t.figures.failed),\n      className: 'num',\n    },\n    {\n      key: 'new',\n      title: 'New',\n      sortKey: (t) => -numberKey(t.figures.new),\n      cell: (t) => figure(t.figures.new),\n      className: 'num',\n    },\n    {\n      key: 'overdue',\n      title: 'Overdue',\n      sortKey: (t) => -numberKey(t.figures.overdue),\n      cell: (t) => figure(t.figures.overdue),\n      className: 'num',\n    },\n    {\n      key: 'worst',\n      title: 'Worst',\n      sortKey: (t) => (t.figures.worst < 0 ? 99 : t.figures.worst),\n      cell: (t) => (t.figures.worst < 0 ? '—' : severityBadge(t.figures.worst)),\n    },\n    ...(showCoverage\n      ? [\n          {\n            key: 'coverage',\n            title: 'Coverage',\n            sortKey: (t) => coverageRank(t.coverage),\n            cell: (t) => coverageCell(t.coverage),\n          },\n        ]\n      : []),\n    {\n      key: 'trend',\n      title: 'Trend',\n      cell: trendCell,\n    },\n    { key: 'note', title: 'Note', cell: (t) => t.problem ?? '' },\n  ];\n}\n\nfunction countsTable(fleet) {\n  return el('table', { className: 'counts' }, [\n    el('caption', { text: 'Tenants' }),\n    el(\n      'tbody',\n      {},\n      fleet.counts.map(([label, value]) =>\n        el('tr', {}, [\n          el('th', { text: label, attrs: { scope: 'row' } }),\n          el('td', { text: formatCount(value) }),\n        ]),\n      ),\n    ),\n  ]);\n}\n\nfunction tenantsPanel(model) {\n  const tenants = model.tenants.map((tenant, index) => ({ ...tenant, pageIndex: index }));\n  const filters = { groups: new Set(), query: '' };\n  const shown = el('p', { className: 'shown', attrs: { 'aria-live': 'polite', id: 'shown' } });\n  const table = windowedTable({\n    columns: tenantColumns(tenants.some((tenant) => tenant.coverage)),\n    label: 'Tenants, worst first',\n    empty: 'No tenant matches the filters.',\n    rowHeight: 32,\n    onOpen: (tenant) => {\n      location.hash = `#tenant-${tenant.pageIndex}`;\n    },\n  });\n  const apply = () => {\n    const list = tenants.filter((tenant) => {\n      const group = VERDICT_GROUPS.find(([, , verdicts]) => verdicts.includes(tenant.verdict));\n      if (filters.groups.size > 0 && !(group && filters.groups.has(group[0]))) return false;\n      return (\n        filters.query === '' ||\n        `${tenant.name}\\n${tenant.serviceName ?? ''}`.toLowerCase().includes(filters.query)\n      );\n    });\n    table.setRows(list);\n    shown.textContent = `Showing ${formatCount(list.length)} of ${plural(tenants.length, 'tenant')}`;\n  };\n  const search = el('input', {\n    className: 'search',\n    attrs: {\n      type: 'search',\n      placeholder: 'Search tenants',\n      'aria-label': 'Search tenants',\n      spellcheck: 'false',\n      autocomplete: 'off',\n    },\n  });\n  search.addEventListener('input', () => {\n    filters.query = search.value.trim().toLowerCase();\n    apply();\n  });\n  const chips = el('div', {\n    className: 'chips',\n    attrs: { role: 'group', 'aria-label': 'Verdict' },\n  });\n  for (const [key, label, verdicts] of VERDICT_GROUPS) {\n    const count = tenants.filter((tenant) => verdicts.includes(tenant.verdict)).length;\n    if (count === 0) continue;\n    const chip = button(\n      `${label} ${formatCount(count)}`,\n      () => {\n        const pressed = chip.getAttribute('aria-pressed') !== 'true';\n        chip.setAttribute('aria-pressed', String(pressed));\n        if (pressed) filters.groups.add(key);\n        else filters.groups.delete(key);\n        apply();\n      },\n      { className: 'filter', attrs: { 'aria-pressed': 'false', 'data-verdict': key } },\n    );\n    chips.append(chip);\n  }\n  apply();\n  return el('section', { className: 'tenants', attrs: { 'aria-label': 'Tenants' } }, [\n    el('div', { className: 'filters' }, [search, chips]),\n    shown,\n    table.element,\n  ]);\n}\n\nfunction checkDetail(model, section, check) {\n  const list = el('ul', { className: 'tenant-list' });\n  for (const index of check.tenants) {\n    const tenant = model.tenants[index];\n    if (!tenant) continue;\n    list.append(\n      el(\n        'li',\n        {},\n        button(\n          tenant.name,\n          () => {\n            location.hash = `#tenant-${index}`;\n          },\n          { className: 'link' },\n        ),\n      ),\n    );\n  }\n  section.replaceChildren(\n    el('h3', { text: check.title || check.check }),\n    el('p', {\n      text: `${check.check} · ${SEVERITY_TITLES[check.severity] ?? 'Unknown'} · fails in ${formatCount(check.tenants.length)} of ${plural(model.fleet.judged, 'tenant')}`,\n    }),\n    list,\n  );\n}\n\nfunction checksPanel(model) {\n  const checks = (model.fleet.checks ?? []).map(([check, title, severity, tenants]) => ({\n    check: stringOf(model, check),\n    title: stringOf(model, title),\n    severity,\n    tenants: Array.isArray(tenants) ? tenants : [],\n  }));\n  const detail = el(\n    'section',\n    { className: 'detail', attrs: { 'aria-label': 'Check', id: 'detail' } },\n    [el('p', { className: 'hint', text: 'Select a check to see the tenants where it fails.' })],\n  );\n  const judged = model.fleet.judged;\n  const table = windowedTable({\n    columns: [\n      {\n        key: 'check',\n        title: 'Check',\n        sortKey: (c) => c.check,\n        cell: (c) => c.check,\n        className: 'mono',\n      },\n      {\n        key: 'tenants',\n        title: 'Fails in',\n        sortKey: (c) => -c.tenants.length,\n        cell: (c) => `${formatCount(c.tenants.length)} of ${formatCount(judged)}`,\n        className: 'num',\n      },\n      {\n        key: 'severity',\n        title: 'Severity',\n        sortKey: (c) => c.severity,\n        cell: (c) => severityBadge(c.severity),\n      },\n      { key: 'title', title: 'Title', sortKey: (c) => c.title, cell: (c) => c.title },\n    ],\n    label: 'Checks that fail, in most tenants first',\n    empty: 'No check fails in any tenant.',\n    onOpen: (check) => checkDetail(model, detail, check),\n  });\n  table.setRows(checks);\n  return el('section', { className: 'checks', attrs: { 'aria-label': 'Checks' } }, [\n    el('p', {\n      className: 'shown',\n      text: `${plural(checks.length, 'check')} failing, in most tenants first`,\n      attrs: { id: 'shown' },\n    }),\n    el('div', { className: 'split' }, [table.element, detail]),\n  ]);\n}\n\n/** The fleet's page: `tab` is 'tenants' or 'checks'. */\nfunction fleetView(model, tab) {\n  const tabs = el(\n    'nav',\n    { className: 'tabs', attrs: { 'aria-label': 'Views' } },\n    [\n      ['tenants', `Tenants (${formatCount(model.tenants.length)})`],\n      [\n        'checks',\n        `The same check failing in many tenants (${formatCount((model.fleet.checks ?? []).length)})`,\n      ],\n    ].map(([key, label]) =>\n      button(\n        label,\n        () => {\n          location.hash = key === 'tenants' ? '' : '#checks';\n        },\n        {\n          className: 'tab',\n          attrs: { 'aria-current': key === tab ? 'page' : false, 'data-tab': key },\n        },\n      ),\n    ),\n  );\n  return append(el('div', { className: 'fleet-view' }), [\n    el('header', { className: `verdict-box verdict-${model.verdict}` }, [\n      el('h1', { text: 'Tenant roll-up' }),\n      headlineLine(model.verdict, model.headline),\n    ]),\n    el('section', { className: 'summary', attrs: { 'aria-label': 'Summary' } }, [\n      el('div', { className: 'count-tables' }, countsTable(model.fleet)),\n    ]),\n    tabs,\n    tab === 'checks' ? checksPanel(model) : tenantsPanel(model),\n  ]);\n}\n\n// page/main.js\n// The page's start: read the data block, show the run's tenant, or the fleet's view the address\n// names (#tenant-3, #checks), and follow the address as it changes. Marks the page ready\n// (data-ready on <html>) once the first view is drawn: the browser tests and the bench wait for it.\n\n\nfunction pageHeader(model) {\n  const when =\n    typeof model.generatedAt === 'string' ? model.generatedAt.replace('T', ' ').slice(0, 16) : '';\n  return el('div', { className: 'page-header' }, [\n    el('span', {\n      className: 'brand',\n      text: model.kind === 'fleet' ? 'Tenant roll-up report' : 'Tenant scan report',\n    }),\n    el('span', { className: 'generated', text: `Written ${when} UTC by ${model.tool}` }),\n  ]);\n}\n\nfunction backToFleet() {\n  return button(\n    '← All tenants',\n    () => {\n      location.hash = '';\n    },\n    { className: 'back link' },\n  );\n}\n\nfunction viewOf(model) {\n  if (model.kind !== 'fleet') return tenantView(model, model.tenants[0], null);\n  const opened = /^#tenant-(\\d+)$/.exec(location.hash);\n  const tenant = opened ? model.tenants[Number(opened[1])] : undefined;\n  if (tenant) return tenantView(model, tenant, backToFleet());\n  return fleetView(model, location.hash === '#checks' ? 'checks' : 'tenants');\n}\n\nfunction titleOf(model) {\n  if (model.kind === 'fleet')\n    return `Tenant roll-up: ${VERDICT_TITLES[model.verdict] ?? model.verdict}`;\n  const tenant = model.tenants[0];\n  return `${tenant ? tenant.name : 'Tenant'}: ${VERDICT_TITLES[model.verdict] ?? model.verdict} — tenant scan`;\n}\n\nfunction start() {\n  const app = document.getElementById('app');\n  let model;\n  try {\n    model = modelOf(readData());\n  } catch (error) {\n    app.replaceChildren(\n      el('p', { className: 'problem', text: `This report cannot be shown: ${error.message}` }),\n    );\n    return;\n  }\n  document.title = titleOf(model);\n  const show = () => {\n    app.replaceChildren(pageHeader(model), viewOf(model));\n    window.scrollTo(0, 0);\n  };\n  window.addEventListener('hashchange', show);\n  show();\n  document.documentElement.setAttribute('data-ready', 'true');\n}\n\nstart();\n\n})();\n","style":"/* The report page's style: the system's fonts (nothing fetched), light and dark. */\n:root {\n  color-scheme: light dark;\n  --bg: #ffffff;\n  --fg: #1f2328;\n  --muted: #59636e;\n  --line: #d1d9e0;\n  --panel: #f6f8fa;\n  --accent: #0969da;\n  --pass: #1a7f37;\n  --fail: #cf222e;\n  --warn: #9a6700;\n  --sev-critical: #8b0000;\n  --sev-high: #cf222e;\n  --sev-medium: #bc4c00;\n  --sev-low: #9a6700;\n  --sev-info: #0969da;\n  --sev-unknown: #59636e;\n}\n@media (prefers-color-scheme: dark) {\n  :root {\n    --bg: #0d1117;\n    --fg: #e6edf3;\n    --muted: #9198a1;\n    --line: #3d444d;\n    --panel: #151b23;\n    --accent: #4493f8;\n    --pass: #3fb950;\n    --fail: #f85149;\n    --warn: #d29922;\n    --sev-critical: #ff7b72;\n    --sev-high: #f85149;\n    --sev-medium: #db6d28;\n    --sev-low: #d29922;\n    --sev-info: #4493f8;\n  }\n}\n* {\n  box-sizing: border-box;\n}\nbody {\n  margin: 0;\n  background: var(--bg);\n  color: var(--fg);\n  font:\n    14px/1.45 system-ui,\n    -apple-system,\n    'Segoe UI',\n    Roboto,\n    'Helvetica Neue',\n    Arial,\n    sans-serif;\n}\nmain {\n  max-width: 1280px;\n  margin: 0 auto;\n  padding: 16px 24px 48px;\n}\nh1 {\n  font-size: 22px;\n  margin: 0 0 4px;\n}\nh2 {\n  font-size: 18px;\n  margin: 24px 0 8px;\n}\nh3 {\n  font-size: 16px;\n  margin: 0 0 8px;\n  overflow-wrap: anywhere;\n}\nh4 {\n  font-size: 13px;\n  margin: 12px 0 4px;\n  color: var(--muted);\n  text-transform: uppercase;\n  letter-spacing: 0.04em;\n}\n.page-header {\n  display: flex;\n  justify-content: space-between;\n  gap: 16px;\n  color: var(--muted);\n  font-size: 12px;\n  margin-bottom: 12px;\n}\n.brand {\n  font-weight: 600;\n}\n.verdict-box {\n  border-left: 6px solid var(--muted);\n  background: var(--panel);\n  padding: 12px 16px;\n  border-radius: 6px;\n}\n.verdict-box.verdict-passed {\n  border-left-color: var(--pass);\n}\n.verdict-box.verdict-failed,\n.verdict-box.verdict-error,\n.verdict-box.verdict-missing,\n.verdict-box.verdict-unreadable {\n  border-left-color: var(--fail);\n}\n.verdict-box.verdict-stale,\n.verdict-box.verdict-pending {\n  border-left-color: var(--warn);\n}\n.headline .badge {\n  vertical-align: 2px;\n}\n.headline {\n  margin: 0;\n  font-size: 16px;\n  font-weight: 600;\n  overflow-wrap: anywhere;\n}\n.problem,\n.note,\n.coverage {\n  overflow-wrap: anywhere;\n}\n.problem {\n  color: var(--fail);\n}\n.summary {\n  margin-top: 16px;\n}\n.count-tables {\n  display: flex;\n  flex-wrap: wrap;\n  gap: 16px 28px;\n  align-items: flex-start;\n}\ntable.counts {\n  border-collapse: collapse;\n  min-width: 200px;\n}\ntable.counts caption {\n  text-align: left;\n  font-weight: 600;\n  padding-bottom: 4px;\n}\ntable.counts th,\ntable.counts td {\n  border-bottom: 1px solid var(--line);\n  padding: 3px 8px 3px 0;\n  text-align: left;\n  font-weight: normal;\n}\ntable.counts td {\n  text-align: right;\n  font-variant-numeric: tabular-nums;\n}\ndl.facts {\n  display: grid;\n  grid-template-columns: max-content 1fr;\n  gap: 2px 16px;\n  margin: 0;\n  max-width: 420px;\n}\ndl.facts dt {\n  color: var(--muted);\n}\ndl.facts dd {\n  margin: 0;\n  overflow-wrap: anywhere;\n}\nfigure.trend {\n  margin: 0;\n  width: 480px;\n  max-width: 100%;\n}\nfigure.trend figcaption {\n  color: var(--muted);\n  font-size: 12px;\n}\nsvg.chart {\n  width: 100%;\n  height: auto;\n}\nsvg.chart .grid-line {\n  stroke: var(--line);\n  stroke-width: 1;\n}\nsvg.chart .trend-line,\nsvg.spark polyline {\n  fill: none;\n  stroke: var(--accent);\n  stroke-width: 2;\n}\nsvg.chart .trend-dot {\n  fill: var(--accent);\n}\nsvg.chart text {\n  fill: var(--muted);\n  font-size: 12px;\n}\nsvg.chart text.value {\n  fill: var(--fg);\n}\nsvg.spark {\n  vertical-align: middle;\n}\nfigure.trend.evaluated .trend-line,\nsvg.spark polyline.evaluated {\n  stroke: var(--muted);\n  stroke-dasharray: 4 2;\n}\nfigure.trend.evaluated .trend-dot {\n  fill: var(--muted);\n}\n.coverage.fails,\n.coverage-fails {\n  color: var(--fail);\n}\n.filters {\n  display: flex;\n  flex-wrap: wrap;\n  gap: 8px 16px;\n  align-items: center;\n  margin: 8px 0;\n}\n.chips {\n  display: flex;\n  flex-wrap: wrap;\n  gap: 6px;\n}\ninput.search,\nselect {\n  font: inherit;\n  padding: 4px 8px;\n  border: 1px solid var(--line);\n  border-radius: 6px;\n  background: var(--bg);\n  color: var(--fg);\n}\ninput.search {\n  min-width: 260px;\n}\nbutton {\n  font: inherit;\n  color: inherit;\n  cursor: pointer;\n}\nbutton.filter,\nbutton.tab {\n  border: 1px solid var(--line);\n  background: var(--bg);\n  border-radius: 999px;\n  padding: 2px 10px;\n}\nbutton.filter[aria-pressed='true'] {\n  background: var(--accent);\n  border-color: var(--accent);\n  color: #ffffff;\n}\nnav.tabs {\n  display: flex;\n  gap: 8px;\n  margin: 20px 0 8px;\n}\nbutton.tab {\n  border-radius: 6px;\n  padding: 6px 12px;\n}\nbutton.tab[aria-current='page'] {\n  border-color: var(--accent);\n  box-shadow: inset 0 -2px 0 var(--accent);\n  font-weight: 600;\n}\nbutton.link {\n  border: 0;\n  background: none;\n  padding: 0;\n  color: var(--accent);\n  text-decoration: underline;\n}\nbutton.back {\n  margin-bottom: 12px;\n}\n.shown {\n  color: var(--muted);\n  margin: 4px 0;\n}\n.split {\n  display: grid;\n  grid-template-columns: minmax(0, 1fr) 340px;\n  gap: 16px;\n  align-items: start;\n}\n@media (max-width: 900px) {\n  .split {\n    grid-template-columns: minmax(0, 1fr);\n  }\n}\n.scroller {\n  max-height: 70vh;\n  overflow: auto;\n  border: 1px solid var(--line);\n  border-radius: 6px;\n}\ntable.grid {\n  width: 100%;\n  border-collapse: collapse;\n  table-layout: fixed;\n}\ntable.grid th {\n  position: sticky;\n  top: 0;\n  z-index: 1;\n  background: var(--panel);\n  text-align: left;\n  height: 34px;\n  padding: 0 8px;\n  border-bottom: 1px solid var(--line);\n  white-space: nowrap;\n  overflow: hidden;\n}\ntable.grid th button.sort {\n  border: 0;\n  background: none;\n  padding: 0;\n  font-weight: 600;\n}\ntable.grid th[aria-sort='ascending'] button.sort::after {\n  content: ' ▲';\n}\ntable.grid th[aria-sort='descending'] button.sort::after {\n  content: ' ▼';\n}\ntable.grid td {\n  height: 32px;\n  padding: 0 8px;\n  border-bottom: 1px solid var(--line);\n  white-space: nowrap;\n  overflow: hidden;\n  text-overflow: ellipsis;\n}\ntable.grid tr.spacer td {\n  height: 0;\n  padding: 0;\n  border: 0;\n}\ntable.grid tr.row {\n  cursor: pointer;\n}\ntable.grid tr.row:hover td {\n  background: var(--panel);\n}\ntable.grid tr.row.selected td {\n  background: color-mix(in srgb, var(--accent) 14%, transparent);\n}\ntable.grid tr.row:focus {\n  outline: 2px solid var(--accent);\n  outline-offset: -2px;\n}\ntable.grid td.mono {\n  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;\n  font-size: 12px;\n}\ntable.grid td.num {\n  text-align: right;\n  font-variant-numeric: tabular-nums;\n}\n.col-severity,\n.col-verdict,\n.col-worst {\n  width: 96px;\n}\n.col-check {\n  width: 12%;\n}\n.col-category {\n  width: 12%;\n}\n.col-state {\n  width: 21%;\n}\n.col-deadline {\n  width: 13%;\n}\n.col-tenant {\n  width: 20%;\n}\n.col-gating {\n  width: 124px;\n}\n.col-failed,\n.col-new,\n.col-overdue,\n.col-tenants {\n  width: 88px;\n}\n.col-coverage {\n  width: 232px;\n}\n.col-trend {\n  width: 96px;\n}\n.badge {\n  display: inline-block;\n  padding: 0 8px;\n  border-radius: 999px;\n  font-size: 12px;\n  line-height: 20px;\n  color: #ffffff;\n  background: var(--sev-unknown);\n}\n.sev-critical {\n  background: var(--sev-critical);\n}\n.sev-high {\n  background: var(--sev-high);\n}\n.sev-medium {\n  background: var(--sev-medium);\n}\n.sev-low {\n  background: var(--sev-low);\n}\n.sev-info {\n  background: var(--sev-info);\n}\n.badge.verdict-passed {\n  background: var(--pass);\n}\n.badge.verdict-failed,\n.badge.verdict-error,\n.badge.verdict-missing,\n.badge.verdict-unreadable {\n  background: var(--fail);\n}\n.badge.verdict-stale,\n.badge.verdict-pending {\n  background: var(--warn);\n}\n.detail {\n  position: sticky;\n  top: 8px;\n  border: 1px solid var(--line);\n  border-radius: 6px;\n  padding: 12px 16px;\n  background: var(--panel);\n  max-height: 80vh;\n  overflow: auto;\n}\n.detail .hint,\n.empty {\n  color: var(--muted);\n}\n.detail p.body {\n  white-space: pre-wrap;\n  overflow-wrap: anywhere;\n  margin: 0;\n}\n.detail dl.facts {\n  margin-top: 0;\n}\nul.tenant-list {\n  padding-left: 18px;\n}\na {\n  color: var(--accent);\n}\n"};

;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/page.js
// A report page as one HTML file (docs/reports.md): the page's script and style inline, allowed by
// their hashes under a Content-Security-Policy that allows nothing else (no request leaves the
// page, no other script runs, no inline handler, no form, no base); its data a JSON block that the
// script reads and puts on screen as text. Pure: data in, HTML out. Nothing of the service is
// written as HTML here: it is all in the JSON block, where no `<` survives.


/** The CSP source of a script's or a style's exact text. */
function cspHash(text) {
    return `'sha256-${(0,external_node_crypto_.createHash)('sha256').update(text, 'utf8').digest('base64')}'`;
}
/** The page's policy: its own script and style by hash, and nothing else at all. */
function contentSecurityPolicy(assets) {
    return [
        "default-src 'none'",
        `script-src ${cspHash(assets.script)}`,
        `style-src ${cspHash(assets.style)}`,
        "base-uri 'none'",
        "form-action 'none'",
    ].join('; ');
}
const JSON_ESCAPES = {
    '<': '\\u003c',
    '>': '\\u003e',
    '&': '\\u0026',
    '\u2028': '\\u2028',
    '\u2029': '\\u2029',
};
/** JSON for a `<script type="application/json">` block: the characters that could end the block
 *  or open a comment in it (`</script>`, `<!--`) escaped, as every `<` is. Still the same JSON. */
function scriptJson(data) {
    return JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (char) => JSON_ESCAPES[char] ?? char);
}
const TITLES = { run: 'Tenant scan report', fleet: 'Tenant roll-up report' };
/** The page of `data`. */
function page_renderPage(data, assets = PAGE_ASSETS) {
    return [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="utf-8">',
        `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(assets)}">`,
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>${TITLES[data.kind]}</title>`,
        `<style>${assets.style}</style>`,
        '</head>',
        '<body>',
        '<noscript><p>This report is drawn by its script: allow JavaScript for this file. Its data is the JSON block of the file.</p></noscript>',
        '<main id="app"></main>',
        `<script type="application/json" id="report-data">${scriptJson(data)}</script>`,
        `<script>${assets.script}</script>`,
        '</body>',
        '</html>',
        '',
    ].join('\n');
}

;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/render/html/write.js
// Writing a report page: whole or not at all (the project's atomic write), where a face asks.






/** Writes the page of one run; returns its absolute path. */
function writeRunPage(path, input, options = {}) {
    return (0,files/* writeFileAtomic */.Zf)(path, page_renderPage(runPageData(input, options)));
}
/** Writes the page of a roll-up whose records `findings` observed; returns its absolute path. */
function writeFleetPage(path, rollup, findings, options = {}) {
    return writeFileAtomic(path, renderPage(fleetPageData(rollup, findings, options)));
}


/***/ })

};
