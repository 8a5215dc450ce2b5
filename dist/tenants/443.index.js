export const id = 443;
export const ids = [443];
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

/***/ 2443:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   junitLines: () => (/* binding */ junitLines)
/* harmony export */ });
/* unused harmony export toJunitXml */
/* harmony import */ var _checks_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1086);
/* harmony import */ var _common_result_kinds_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(5888);
/* harmony import */ var _gate_dispositions_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5637);
// JUnit XML of a scan: one test suite for the scan, one test case per check, failed checks as
// <failure>. This is what GitLab, Azure Pipelines and Jenkins show in their test tabs. The layout
// follows the widely used Jenkins/Ant JUnit schema (test/fixtures/junit/junit.xsd).



function caseOutcome(finding, kind) {
    if (waived(finding))
        return 'skipped';
    if (kind.outcome === 'failed')
        return 'failure';
    if (kind.outcome === 'passed')
        return 'passed';
    return kind.kind === 'error' ? 'error' : 'skipped';
}
function toJunitXml(input) {
    return [...junitLines(input)].join('\n') + '\n';
}
/** A test case's kind and outcome, worked out again for each pass over the findings (nothing is
 *  kept per case: 250,000 cases are never held twice). */
function caseOf(finding) {
    const kind = (0,_common_result_kinds_js__WEBPACK_IMPORTED_MODULE_0__/* .resultKind */ .k8)(finding.result);
    return { kind, outcome: caseOutcome(finding, kind) };
}
/** The document's lines, one test case at a time (250,000 cases are never one string). */
function* junitLines(input) {
    const tally = new Map();
    for (const finding of input.findings) {
        const { outcome } = caseOf(finding);
        tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    }
    const count = (outcome) => tally.get(outcome) ?? 0;
    const tests = input.findings.length;
    const failures = count('failure');
    const errors = count('error');
    const skipped = count('skipped');
    const time = formatSeconds(scanDurationSeconds(input));
    const counts = { tests, failures, errors };
    yield* [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites${attrs({ name: 'tenant-scan', ...counts, time })}>`,
        `  <testsuite${attrs({
            name: suiteName(input),
            ...counts,
            skipped,
            time,
            timestamp: input.scan.createdAt,
            id: input.scan.id,
            package: 'tenant-scan',
        })}>`,
        ...propertiesXml(input),
    ];
    for (const finding of input.findings) {
        const { kind, outcome } = caseOf(finding);
        yield testcaseXml(finding, kind, outcome);
    }
    yield '  </testsuite>';
    yield '</testsuites>';
}
function suiteName(input) {
    const type = input.scan.scanType ?? 'scan';
    const tenant = input.tenantName ? ` of ${input.tenantName}` : '';
    return `tenant-scan ${type}${tenant} (${input.scan.id})`;
}
function propertiesXml(input) {
    const props = {
        'scan.id': input.scan.id,
        'scan.status': input.scan.status,
        'scan.type': input.scan.scanType,
        'scan.createdAt': input.scan.createdAt,
        'scan.completedAt': input.scan.completedAt,
        tenant: input.tenantName,
    };
    const entries = Object.entries(props).filter(([, value]) => value !== undefined && value !== '');
    return [
        '    <properties>',
        ...entries.map(([name, value]) => `      <property${attrs({ name, value })}/>`),
        '    </properties>',
    ];
}
function waived(finding) {
    return finding.waiver !== undefined && (0,_common_result_kinds_js__WEBPACK_IMPORTED_MODULE_0__/* .resultKind */ .k8)(finding.result).outcome === 'failed';
}
function testcaseXml(finding, kind, outcome) {
    const head = `    <testcase${attrs({
        name: `${finding.identity}: ${finding.title}`,
        classname: `tenant-scan.${finding.category ?? 'uncategorised'}`,
        time: '0',
    })}`;
    const children = [propertiesOf(finding), outcomeXml(finding, kind, outcome)].filter((child) => child !== undefined);
    return children.length > 0
        ? `${head}>\n${children.map((child) => `      ${child}`).join('\n')}\n    </testcase>`
        : `${head}/>`;
}
/** A failed finding's age as testcase properties (the JUnit format's testcase <properties>). */
function propertiesOf(finding) {
    const entries = Object.entries((0,_checks_js__WEBPACK_IMPORTED_MODULE_2__/* .ageProperties */ .r)(finding));
    if (entries.length === 0)
        return undefined;
    const lines = entries.map(([name, value]) => `<property${attrs({ name, value: String(value) })}/>`);
    return `<properties>${lines.join('')}</properties>`;
}
function outcomeXml(finding, kind, outcome) {
    const message = `[${finding.severity}] ${finding.title}`;
    if (waived(finding) && finding.waiver) {
        const { reason, expires, owner, disposition } = finding.waiver;
        const who = owner ? `, owner ${owner}` : '';
        return `<skipped${attrs({ message: `${(0,_gate_dispositions_js__WEBPACK_IMPORTED_MODULE_1__/* .dispositionWords */ .bb)(disposition)}, waived until ${expires}${who}: ${reason}` })}/>`;
    }
    switch (outcome) {
        case 'passed':
            return undefined;
        case 'failure':
            return `<failure${attrs({ type: finding.severity, message })}>${text(details(finding))}</failure>`;
        case 'error':
            return `<error${attrs({ type: finding.severity, message })}>${text(details(finding))}</error>`;
        case 'skipped':
            return `<skipped${attrs({ message: skippedMessage(finding, kind) })}/>`;
    }
}
/** Not evaluated: its kind, and the service's own word when it is not that kind's name. */
function skippedMessage(finding, kind) {
    if (!kind.known)
        return `not evaluated: unknown result "${finding.result}"`;
    return `not evaluated: ${kind.kind}${finding.result.trim().toLowerCase() === kind.kind ? '' : ` (${finding.result})`}`;
}
function details(finding) {
    return [
        `Check: ${finding.identity}`,
        `Severity: ${finding.severity}`,
        finding.category ? `Category: ${finding.category}` : undefined,
        finding.description ? `\n${finding.description}` : undefined,
        finding.remediation ? `\nRemediation: ${finding.remediation}` : undefined,
        finding.reference ? `Reference: ${finding.reference}` : undefined,
    ]
        .filter((line) => line !== undefined)
        .join('\n');
}
function scanDurationSeconds(input) {
    const start = Date.parse(input.scan.createdAt ?? '');
    const end = Date.parse(input.scan.completedAt ?? '');
    if (Number.isNaN(start) || Number.isNaN(end) || end < start)
        return 0;
    return (end - start) / 1000;
}
function formatSeconds(seconds) {
    return seconds.toFixed(3);
}
function attrs(values) {
    return Object.entries(values)
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => ` ${name}="${attribute(String(value))}"`)
        .join('');
}
// Characters XML 1.0 does not allow at all (control characters, lone surrogates, U+FFFE/U+FFFF).
const INVALID_XML = 
// eslint-disable-next-line no-control-regex
/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
function text(value) {
    return value
        .replace(INVALID_XML, '\uFFFD')
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;');
}
function attribute(value) {
    return text(value)
        .replace(/"/g, '&quot;')
        .replace(/\n/g, '&#10;')
        .replace(/\r/g, '&#13;')
        .replace(/\t/g, '&#9;');
}


/***/ })

};
