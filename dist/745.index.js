export const id = 745;
export const ids = [745];
export const modules = {

/***/ 91745:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   toJunitXml: () => (/* binding */ toJunitXml)
/* harmony export */ });
/* harmony import */ var _types_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(62480);
// JUnit XML of a scan: one test suite for the scan, one test case per check, failed checks as
// <failure>. This is what GitLab, Azure Pipelines and Jenkins show in their test tabs. The layout
// follows the widely used Jenkins/Ant JUnit schema (test/fixtures/junit/junit.xsd).

function toJunitXml(input) {
    const cases = input.findings.map((finding) => ({ finding, kind: (0,_types_js__WEBPACK_IMPORTED_MODULE_0__/* .resultKind */ .k)(finding.result) }));
    const count = (kind) => cases.filter((c) => c.kind === kind).length;
    const failures = count('failed');
    const errors = count('error');
    const skipped = cases.length - failures - errors - count('passed');
    const time = formatSeconds(scanDurationSeconds(input));
    const counts = { tests: cases.length, failures, errors };
    const lines = [
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
        ...cases.map((c) => testcaseXml(c.finding, c.kind)),
        '  </testsuite>',
        '</testsuites>',
    ];
    return lines.join('\n') + '\n';
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
function testcaseXml(finding, kind) {
    const head = `    <testcase${attrs({
        name: `${(0,_types_js__WEBPACK_IMPORTED_MODULE_0__/* .checkIdentifier */ .K)(finding)}: ${finding.title}`,
        classname: `tenant-scan.${finding.category ?? 'uncategorised'}`,
        time: '0',
    })}`;
    const child = outcomeXml(finding, kind);
    return child ? `${head}>\n      ${child}\n    </testcase>` : `${head}/>`;
}
function outcomeXml(finding, kind) {
    const message = `[${finding.severity}] ${finding.title}`;
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
        `Check: ${(0,_types_js__WEBPACK_IMPORTED_MODULE_0__/* .checkIdentifier */ .K)(finding)}`,
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


/***/ }),

/***/ 62480:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ checkIdentifier),
/* harmony export */   k: () => (/* binding */ resultKind)
/* harmony export */ });
// What the result writers (JUnit, SARIF) take: the scan and its findings as the client reads them.
// Both faces (the Action and the CLI) build this from the pipeline's JobResult.
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
/** The identifier of the check behind a finding (the rule of SARIF, the test name of JUnit). */
function checkIdentifier(finding) {
    for (const candidate of [finding.checkId, finding.id]) {
        if (candidate && candidate.trim() !== '')
            return candidate.trim();
    }
    return 'unknown-check';
}


/***/ })

};
