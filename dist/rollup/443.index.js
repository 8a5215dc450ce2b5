export const id = 443;
export const ids = [443];
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

/***/ 2443:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   junitLines: () => (/* binding */ junitLines)
/* harmony export */ });
/* unused harmony export toJunitXml */
/* harmony import */ var _checks_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1086);
// JUnit XML of a scan: one test suite for the scan, one test case per check, failed checks as
// <failure>. This is what GitLab, Azure Pipelines and Jenkins show in their test tabs. The layout
// follows the widely used Jenkins/Ant JUnit schema (test/fixtures/junit/junit.xsd).

function toJunitXml(input) {
    return [...junitLines(input)].join('\n') + '\n';
}
// A waived failure is reported as skipped, with the waiver's reason: it does not fail the gate.
function kindOf(finding) {
    return waived(finding) ? 'skipped' : (0,_checks_js__WEBPACK_IMPORTED_MODULE_0__/* .resultKind */ .k)(finding.result);
}
/** The document's lines, one test case at a time (250,000 cases are never one string). */
function* junitLines(input) {
    const tally = new Map();
    for (const finding of input.findings) {
        const kind = kindOf(finding);
        tally.set(kind, (tally.get(kind) ?? 0) + 1);
    }
    const count = (kind) => tally.get(kind) ?? 0;
    const tests = input.findings.length;
    const failures = count('failed');
    const errors = count('error');
    const skipped = tests - failures - errors - count('passed');
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
    for (const finding of input.findings)
        yield testcaseXml(finding, kindOf(finding));
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
    return finding.waiver !== undefined && (0,_checks_js__WEBPACK_IMPORTED_MODULE_0__/* .resultKind */ .k)(finding.result) === 'failed';
}
function testcaseXml(finding, kind) {
    const head = `    <testcase${attrs({
        name: `${finding.identity}: ${finding.title}`,
        classname: `tenant-scan.${finding.category ?? 'uncategorised'}`,
        time: '0',
    })}`;
    const children = [propertiesOf(finding), outcomeXml(finding, kind)].filter((child) => child !== undefined);
    return children.length > 0
        ? `${head}>\n${children.map((child) => `      ${child}`).join('\n')}\n    </testcase>`
        : `${head}/>`;
}
/** A failed finding's age as testcase properties (the JUnit format's testcase <properties>). */
function propertiesOf(finding) {
    const entries = Object.entries((0,_checks_js__WEBPACK_IMPORTED_MODULE_0__/* .ageProperties */ .r)(finding));
    if (entries.length === 0)
        return undefined;
    const lines = entries.map(([name, value]) => `<property${attrs({ name, value: String(value) })}/>`);
    return `<properties>${lines.join('')}</properties>`;
}
function outcomeXml(finding, kind) {
    const message = `[${finding.severity}] ${finding.title}`;
    if (waived(finding) && finding.waiver) {
        const { reason, expires, owner } = finding.waiver;
        const who = owner ? `, owner ${owner}` : '';
        return `<skipped${attrs({ message: `waived until ${expires}${who}: ${reason}` })}/>`;
    }
    switch (kind) {
        case 'passed':
            return undefined;
        case 'failed':
            return `<failure${attrs({ type: finding.severity, message })}>${text(details(finding))}</failure>`;
        case 'error':
            return `<error${attrs({ type: finding.severity, message })}>${text(details(finding))}</error>`;
        case 'skipped':
            return `<skipped${attrs({ message: finding.result })}/>`;
        case 'other':
            return `<skipped${attrs({ message: `unknown result "${finding.result}"` })}/>`;
    }
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
