export const id = 438;
export const ids = [438];
export const modules = {

/***/ 1086:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   k: () => (/* binding */ resultKind),
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
function resultKind(result) {
    const word = result.trim().toLowerCase();
    if (word === 'failed' || word === 'fail' || word === 'failure')
        return 'failed';
    if (word === 'passed' || word === 'pass' || word === 'success')
        return 'passed';
    if (word === 'skipped' || word === 'skip' || word === 'notapplicable')
        return 'skipped';
    if (word === 'error' || word === 'errored')
        return 'error';
    return 'other';
}


/***/ }),

/***/ 4438:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   sarifText: () => (/* binding */ sarifText)
/* harmony export */ });
/* unused harmony exports SARIF_SCHEMA_URI, DEFAULT_TOOL_URI, levelFromSeverity, toSarif */
/* harmony import */ var _client_index_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7613);
/* harmony import */ var _common_json_text_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1021);
/* harmony import */ var _common_markdown_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7702);
/* harmony import */ var _checks_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1086);
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
    const failed = input.findings.filter((finding) => (0,_checks_js__WEBPACK_IMPORTED_MODULE_3__/* .resultKind */ .k)(finding.result) === 'failed');
    const fixed = input.baselineFound ? (input.fixed ?? []) : [];
    const rules = uniqueRules(failed.concat(fixed));
    const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
    const failedResult = (finding) => ({
        ...resultOf(finding, ruleIndex, (0,_checks_js__WEBPACK_IMPORTED_MODULE_3__/* .ageProperties */ .r)(finding)),
        ...gateFieldsOf(finding, input.baselineFound),
        ...locationOf(input.sarifLocationUri),
    });
    const fixedResult = (finding) => ({
        ...absentResultOf(finding, ruleIndex),
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
                    },
                },
                automationDetails: { id: `tenant-scan/${input.scan.scanType ?? 'scan'}/${input.scan.id}` },
                invocations: [{ executionSuccessful: true, ...timesOf(input) }],
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
        partialFingerprints: { 'tenantScanCheck/v1': ruleId },
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
 *  with (the spec wants it on all or none), a waiver as an accepted external suppression. */
function gateFieldsOf(marks, baselineFound) {
    const fields = {};
    if (baselineFound)
        fields.baselineState = marks.baselineState ?? 'new';
    if (marks.waiver) {
        const { reason, expires, owner } = marks.waiver;
        fields.suppressions = [
            {
                kind: 'external',
                status: 'accepted',
                justification: `${reason} (waived until ${expires}${owner ? `, owner ${owner}` : ''})`,
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
        partialFingerprints: { 'tenantScanCheck/v1': ruleId },
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


/***/ })

};
