export const id = 438;
export const ids = [438];
export const modules = {

/***/ 1086:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   r: () => (/* binding */ ageProperties)
/* harmony export */ });
// What the result writers (JUnit, SARIF) take: the scan and its findings as the client reads them.
// Both faces (the Action and the CLI) build this from the pipeline's JobResult.
/** A finding's age as properties: failingSince, failingScans, dueAt, overdue (none without one). */
function ageProperties(marks) {
    const age = marks.age;
    if (!age)
        return {};
    return {
        ...(age.failingSince ? { failingSince: age.failingSince } : {}),
        failingScans: age.failingScans,
        ...(age.dueAt ? { dueAt: age.dueAt } : {}),
        overdue: age.overdue,
    };
}


/***/ }),

/***/ 4438:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   sarifText: () => (/* binding */ sarifText)
/* harmony export */ });
/* unused harmony exports SARIF_SCHEMA_URI, DEFAULT_TOOL_URI, levelFromSeverity, toSarif, labelSlug */
/* harmony import */ var _client_index_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(953);
/* harmony import */ var _common_json_text_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1021);
/* harmony import */ var _common_markdown_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7702);
/* harmony import */ var _checks_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(1086);
/* harmony import */ var _common_result_kinds_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(5888);
/* harmony import */ var _gate_dispositions_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(5637);
/* harmony import */ var _gate_coverage_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(3891);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(7598);
// SARIF 2.1.0 of a scan: each failed check is a result with its rule (id, help text, link), the
// level taken from the severity. Valid against the OASIS schema (test/fixtures/sarif/) and checked
// with Microsoft's SARIF multitool in CI.








const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
const DEFAULT_TOOL_URI = 'https://github.com/tenant-scan/tenant-scan';
const LEVEL_BY_SEVERITY = {
    critical: 'error',
    high: 'error',
    medium: 'warning',
    low: 'note',
    info: 'note',
    unknown: 'warning',
};
// GitHub code scanning ranks results by this property (a CVSS-like score as a string).
const SECURITY_SEVERITY = {
    critical: '9.5',
    high: '8.0',
    medium: '5.5',
    low: '3.0',
    info: '0.0',
    unknown: '5.0',
};
function levelFromSeverity(severity) {
    return LEVEL_BY_SEVERITY[severity];
}
/** The SARIF log; `lazy`: its results made as they are written (sarifText), never all at once. */
function toSarif(input, lazy = false) {
    const failed = input.findings.filter((finding) => (0,_common_result_kinds_js__WEBPACK_IMPORTED_MODULE_3__/* .isFailedResult */ .bb)(finding.result));
    const fixed = input.baselineFound ? (input.fixed ?? []) : [];
    const rules = uniqueRules(failed.concat(fixed));
    const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
    const label = labelSlug(input.tenantLabel);
    const fingerprint = (ruleId) => ({
        'tenantScanCheck/v1': label ? `${label}/${ruleId}` : ruleId,
    });
    const notes = invocationNotes(input);
    const failedResult = (finding) => ({
        ...resultOf(finding, ruleIndex, (0,_checks_js__WEBPACK_IMPORTED_MODULE_7__/* .ageProperties */ .r)(finding)),
        partialFingerprints: fingerprint(finding.identity),
        ...gateFieldsOf(finding, input.baselineFound),
        ...locationOf(input.sarifLocationUri),
    });
    const fixedResult = (finding) => ({
        ...absentResultOf(finding, ruleIndex),
        partialFingerprints: fingerprint(finding.identity),
        ...locationOf(input.sarifLocationUri),
    });
    const results = lazy
        ? new _common_json_text_js__WEBPACK_IMPORTED_MODULE_1__/* .JsonList */ .bW(failed.length + fixed.length, function* () {
            for (const finding of failed)
                yield failedResult(finding);
            for (const finding of fixed)
                yield fixedResult(finding);
        })
        : [...failed.map(failedResult), ...fixed.map(fixedResult)];
    return {
        $schema: SARIF_SCHEMA_URI,
        version: '2.1.0',
        runs: [
            {
                tool: {
                    driver: {
                        name: 'tenant-scan',
                        informationUri: input.toolUri ?? DEFAULT_TOOL_URI,
                        version: input.toolVersion ?? _client_index_js__WEBPACK_IMPORTED_MODULE_0__/* .CLIENT_VERSION */ .fZ,
                        rules,
                        ...(notes.length > 0 ? { notifications: NOTIFICATION_DESCRIPTORS } : {}),
                    },
                },
                // GitHub's category is the id up to its last '/': one per scan type, and per tenant when
                // the run has a label, so tenants of one type do not replace each other's alerts.
                automationDetails: {
                    id: `tenant-scan/${input.scan.scanType ?? 'scan'}/${label ? `${label}/` : ''}${input.scan.id}`,
                },
                invocations: [
                    {
                        executionSuccessful: true,
                        ...timesOf(input),
                        ...(notes.length > 0 ? { toolExecutionNotifications: notes } : {}),
                    },
                ],
                results,
                properties: runProperties(input),
            },
        ],
    };
}
/** The SARIF file's text (pretty JSON and a line feed), a result at a time. */
function* sarifText(input) {
    yield* (0,_common_json_text_js__WEBPACK_IMPORTED_MODULE_1__/* .prettyJsonPieces */ .ae)(toSarif(input, true));
    yield '\n';
}
function uniqueRules(findings) {
    const byId = new Map();
    for (const finding of findings) {
        const id = finding.identity;
        if (!byId.has(id))
            byId.set(id, ruleOf(id, finding));
    }
    return [...byId.values()];
}
function ruleOf(id, finding) {
    const reference = absoluteUri(finding.reference);
    return {
        id,
        shortDescription: { text: sentence(finding.title) },
        ...(finding.description ? { fullDescription: { text: sentence(finding.description) } } : {}),
        help: helpOf(finding, reference),
        ...(reference ? { helpUri: reference } : {}),
        defaultConfiguration: { level: levelFromSeverity(finding.severity) },
        properties: {
            severity: finding.severity,
            'security-severity': SECURITY_SEVERITY[finding.severity],
            tags: ['security', 'compliance', ...(finding.category ? [finding.category] : [])],
            ...(finding.category ? { category: finding.category } : {}),
        },
    };
}
function helpOf(finding, reference) {
    const remediation = finding.remediation ?? 'No remediation text was given for this check.';
    const text = reference
        ? `${sentence(remediation)}\nReference: ${reference}`
        : sentence(remediation);
    const link = (0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .markdownLink */ .iQ)('Reference', reference);
    const markdown = `**Remediation:** ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_2__/* .markdownText */ .p7)(remediation, 4000)}${link ? `\n\n${link}` : ''}`;
    return { text, markdown };
}
function resultOf(finding, ruleIndex, age) {
    const ruleId = finding.identity;
    const description = finding.description ? ` ${sentence(finding.description)}` : '';
    return {
        ruleId,
        ruleIndex: ruleIndex.get(ruleId),
        level: levelFromSeverity(finding.severity),
        kind: 'fail',
        message: { text: `${sentence(finding.title)}${description}` },
        properties: {
            findingId: finding.id,
            result: finding.result,
            severity: finding.severity,
            ...(finding.category ? { category: finding.category } : {}),
            ...age,
        },
    };
}
/** The gate in SARIF's own words: baselineState on every result once a baseline was compared
 *  with (the spec wants it on all or none), a waiver as an accepted external suppression whose
 *  justification is the waiver's reason, its disposition (a false positive, an accepted risk, …)
 *  in words and as a property. */
function gateFieldsOf(marks, baselineFound) {
    const fields = {};
    if (baselineFound)
        fields.baselineState = marks.baselineState ?? 'new';
    if (marks.waiver) {
        const { reason, expires, owner } = marks.waiver;
        const disposition = marks.waiver.disposition ?? _gate_dispositions_js__WEBPACK_IMPORTED_MODULE_4__/* .DEFAULT_DISPOSITION */ .gm;
        fields.suppressions = [
            {
                kind: 'external',
                status: 'accepted',
                justification: `${reason} (${(0,_gate_dispositions_js__WEBPACK_IMPORTED_MODULE_4__/* .dispositionWords */ .bb)(disposition)}, waived until ${expires}${owner ? `, owner ${owner}` : ''})`,
                properties: { disposition, expires, ...(owner ? { owner } : {}) },
            },
        ];
    }
    return fields;
}
/** A check that failed in the baseline and does not now: kind pass, so it raises no alert. */
function absentResultOf(finding, ruleIndex) {
    const ruleId = finding.identity;
    return {
        ruleId,
        ruleIndex: ruleIndex.get(ruleId),
        kind: 'pass',
        level: 'none',
        baselineState: 'absent',
        message: { text: `Fixed since the baseline: ${sentence(finding.title)}` },
        properties: {
            severity: finding.severity,
            ...(finding.category ? { category: finding.category } : {}),
        },
    };
}
function locationOf(uri) {
    if (!uri || uri.trim() === '')
        return {};
    return {
        locations: [
            { physicalLocation: { artifactLocation: { uri: uri.trim() }, region: { startLine: 1 } } },
        ],
    };
}
function timesOf(input) {
    const times = {};
    const start = isoOrUndefined(input.scan.createdAt);
    const end = isoOrUndefined(input.scan.completedAt);
    if (start)
        times.startTimeUtc = start;
    if (end)
        times.endTimeUtc = end;
    return times;
}
function runProperties(input) {
    return {
        scanId: input.scan.id,
        scanStatus: input.scan.status,
        ...(input.scan.scanType ? { scanType: input.scan.scanType } : {}),
        ...(input.tenantName ? { tenant: input.tenantName } : {}),
        ...(input.scan.summary ? { summary: input.scan.summary } : {}),
    };
}
/** SARIF wants messages as sentences: trimmed, ending with a period. */
function sentence(value) {
    const trimmed = value.trim();
    if (trimmed === '')
        return 'No description.';
    return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
function absoluteUri(value) {
    if (!value)
        return undefined;
    try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
    }
    catch {
        return undefined;
    }
}
function isoOrUndefined(value) {
    if (!value)
        return undefined;
    const time = Date.parse(value);
    return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
/** A tenant label as a category and fingerprint segment: letters, digits, '.', '_' and '-' kept,
 *  anything else '-', and a short hash of the label when that changed it (two labels that differ
 *  only there stay apart). Undefined without a label. */
function labelSlug(label) {
    const trimmed = label?.trim();
    if (!trimmed)
        return undefined;
    const slug = trimmed.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64);
    if (slug === trimmed)
        return slug;
    return `${slug}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_6__.createHash)('sha256').update(trimmed).digest('hex').slice(0, 8)}`;
}
/** The tool's notifications of a run: SARIF's place (3.20.21, and Appendix I, "detecting
 *  incomplete result sets") for what a tool could not evaluate, which consumers read to tell a
 *  complete result set from one that is not; GitHub shows a run's tool notifications on its tool
 *  status page. Run properties are a bag nobody is bound to read. */
const NOTIFICATION_DESCRIPTORS = [
    descriptor('tenant-scan/checks', 'The checks of the scan by what became of them.', 'How many checks passed, failed and were not evaluated (skipped, not applicable, not licensed, an error, not run, or a result word tenant-scan does not know), by kind. A check that was not evaluated had no chance to fail.'),
    descriptor('tenant-scan/coverage', 'Checks the baseline evaluated that were not evaluated now.', 'The checks the baseline scan evaluated (passed or failed) that this scan did not. Beyond max-coverage-drop percent of them, the gate fails: a scan that evaluated fewer checks has fewer chances to fail.'),
];
function descriptor(id, short, full) {
    return {
        id,
        shortDescription: { text: short },
        fullDescription: { text: full },
        help: { text: full },
    };
}
function invocationNotes(input) {
    const notes = [];
    const counts = input.results;
    if (counts) {
        const kinds = counts.kinds.length > 0 ? ` (${(0,_common_result_kinds_js__WEBPACK_IMPORTED_MODULE_3__/* .kindWords */ .Gk)(counts.kinds)})` : '';
        notes.push({
            level: counts.notEvaluated > 0 ? 'warning' : 'note',
            descriptor: { id: 'tenant-scan/checks', index: 0 },
            message: {
                text: `${counts.total} checks: ${counts.passed} passed, ${counts.failed} failed, ${counts.notEvaluated} not evaluated${kinds}.`,
            },
            properties: {
                source: counts.source,
                total: counts.total,
                passed: counts.passed,
                failed: counts.failed,
                notEvaluated: counts.notEvaluated,
                kinds: Object.fromEntries(counts.kinds.map((k) => [k.kind, k.count])),
            },
        });
    }
    const coverage = input.coverage;
    if (coverage?.kind === 'compared') {
        const text = coverage.fails
            ? (0,_gate_coverage_js__WEBPACK_IMPORTED_MODULE_5__/* .coverageDropLine */ .Mx)(coverage)
            : `Coverage: ${coverage.evaluatedNow} checks evaluated now, ${coverage.baselineEvaluated} in ${coverage.source}${coverage.dropped.length > 0 ? `; not evaluated now: ${(0,_gate_coverage_js__WEBPACK_IMPORTED_MODULE_5__/* .namedChecks */ .TG)(coverage.dropped)}` : ''}`;
        notes.push({
            level: coverage.fails ? 'error' : coverage.dropped.length > 0 ? 'warning' : 'note',
            descriptor: { id: 'tenant-scan/coverage', index: 1 },
            message: { text: sentence(text) },
            properties: {
                baseline: coverage.source,
                baselineEvaluated: coverage.baselineEvaluated,
                evaluatedNow: coverage.evaluatedNow,
                dropped: coverage.dropped,
                maxDrop: coverage.maxDrop,
            },
        });
    }
    return notes;
}


/***/ })

};
